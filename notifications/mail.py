"""A notice as an e-mail, through Django's mail framework (EMAIL_BACKEND).

Each mail's words are made in the language active when it is sent: its services send it
inside `accounts.languages.speaking_to(recipient)`, the account's language. What the
services pass in already made (a username, a device's name, a moderator's words) is
written as it is."""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings
from django.core.mail import mailers, send_mail
from django.core.mail.handler import DEFAULT_MAILER_ALIAS
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from .content import Notice

logger = logging.getLogger(__name__)


def _link(path: str) -> str:
    # Without PUBLIC_BASE_URL the server does not know its own address outside a request.
    return settings.PUBLIC_BASE_URL + path if settings.PUBLIC_BASE_URL else ""


def text_of(notice: Notice) -> str:
    if len(notice.lines) == 1:
        line, path = notice.lines[0]
        parts = [line]
        if _link(path):
            parts.append(_link(path))
    else:
        parts = [notice.title + ":"]
        for line, path in notice.lines:
            parts.append(f"- {line}" + (f": {_link(path)}" if _link(path) else ""))
        if notice.total > len(notice.lines):
            more = notice.total - len(notice.lines)
            # Translators: the last line of a mail's list of rooms: how many more rooms wait.
            parts.append(ngettext("and %(n)s more", "and %(n)s more", more) % {"n": more})
    parts.append(_("You receive this because the game waits for you. Turn these e-mails off in your settings."))
    return "\n\n".join(parts) + "\n"


def configured() -> bool:
    """Whether e-mail goes anywhere: production without EMAIL_HOST has no mailer."""
    return DEFAULT_MAILER_ALIAS in mailers


def available() -> bool:
    """Whether this server e-mails players at all: a mailer, and its own address
    (PUBLIC_BASE_URL) for the links every mail carries."""
    return configured() and bool(settings.PUBLIC_BASE_URL)


def _lifetime(seconds: int) -> str:
    """How long a link works, in its largest whole unit ("2 days")."""
    for unit in (24 * 3600, 3600, 60):
        if seconds >= unit and seconds % unit == 0:
            count = seconds // unit
            if unit == 24 * 3600:
                return ngettext("%(n)s day", "%(n)s days", count) % {"n": count}
            if unit == 3600:
                return ngettext("%(n)s hour", "%(n)s hours", count) % {"n": count}
            return ngettext("%(n)s minute", "%(n)s minutes", count) % {"n": count}
    return ngettext("%(n)s second", "%(n)s seconds", seconds) % {"n": seconds}


def _text(*paragraphs: str) -> str:
    """A mail's text: its paragraphs, a blank line between them, and a line's end last."""
    return "\n\n".join(paragraphs) + "\n"


def confirmation_text(*, link: str, max_age_seconds: int) -> str:
    """The confirmation mail: the link and why it came, and nothing of any game."""
    return _text(
        _("Someone asked for notices of the game server to be sent to this address."),
        _("If it was you, open this link to confirm it:"),
        link,
        _(
            # Translators: lifetime is such as "2 days".
            "The link works for %(lifetime)s. If it was not you, ignore this e-mail: nothing else is sent to this "
            "address unless it is confirmed."
        )
        % {"lifetime": _lifetime(max_age_seconds)},
    )


def confirmation_send(*, address: str, path: str, max_age_seconds: int) -> bool:
    """Mail `address` the link to `path` that confirms it; False when there is no mailer,
    no public address to link to, or the mail server refused or failed (the player can
    ask for the link again)."""
    link = _link(path)
    if not configured() or not link:
        logger.warning("no confirmation link mailed: no mailer, or no PUBLIC_BASE_URL to link to")
        return False
    text = confirmation_text(link=link, max_age_seconds=max_age_seconds)
    return _sent(_("Confirm your e-mail address"), text, address, "a confirmation link")


def password_reset_send(*, address: str, username: str, path: str, max_age_seconds: int) -> bool:
    """Mail `address` the link that resets the password of `username`'s account; False
    when there is no mailer or public address to link to, or the mail failed."""
    link = _link(path)
    if not configured() or not link:
        logger.warning("no password-reset link mailed: no mailer, or no PUBLIC_BASE_URL to link to")
        return False
    text = _text(
        _("Someone asked to reset the password of the account %(username)s of the game server.")
        % {"username": username},
        _("If it was you, open this link to choose a new password:"),
        link,
        _(
            # Translators: lifetime is such as "1 hour".
            "The link works once, for %(lifetime)s. Choosing a new password signs the account out everywhere. "
            "If it was not you, ignore this e-mail: your password stays as it is."
        )
        % {"lifetime": _lifetime(max_age_seconds)},
    )
    return _sent(_("Reset your password"), text, address, "a password-reset link")


def password_changed_send(*, address: str, username: str) -> bool:
    """Tell `address` that the password of `username`'s account changed."""
    if not configured():
        return False
    text = _text(
        _("The password of the account %(username)s of the game server was just changed.") % {"username": username},
        _(
            # Translators: "Forgot your password?" is the link of the sign-in page: use its translation there.
            "If it was you, there is nothing to do. If it was not, reset your password now from the sign-in page "
            '("Forgot your password?"): that signs the account out everywhere.'
        ),
    )
    return _sent(_("Your password was changed"), text, address, "a password-change notice")


def new_sign_in_send(*, address: str, username: str, device: str, network: str) -> bool:
    """Tell `address` that `username`'s account was signed in to from a new place."""
    if not configured():
        return False
    # The device's name is the browser's and the system's own ("Firefox on Linux"), as the
    # account's list of sign-ins shows it.
    # Translators: where a sign-in came from, after the device's name: network is such as 203.0.113.0/24.
    parts = (device, _("network %(network)s") % {"network": network} if network else "")
    # Translators: where a sign-in came from, when the browser named neither itself nor its network.
    where = ", ".join(part for part in parts if part) or _("an unknown device")
    text = _text(
        _(
            # Translators: where is such as "Firefox on Linux, network 203.0.113.0/24".
            "The account %(username)s of the game server was just signed in to from a place it was not signed in "
            "from lately: %(where)s."
        )
        % {"username": username, "where": where},
        _(
            # Translators: Settings is the name of the settings page: use its translation there.
            "If it was you, there is nothing to do. If it was not, change your password in Settings (that signs "
            "everyone else out), or reset it from the sign-in page."
        ),
    )
    return _sent(_("A new sign-in to your account"), text, address, "a new sign-in notice")


def export_ready_send(*, address: str, username: str, path: str, days: int) -> bool:
    """Mail `address` the link to the archive of `username`'s data."""
    link = _link(path)
    if not configured() or not link:
        logger.warning("no export link mailed: no mailer, or no PUBLIC_BASE_URL to link to")
        return False
    text = _text(
        _("The archive of everything the game server holds about the account %(username)s is ready.")
        % {"username": username},
        _("Download it from this link:"),
        link,
        ngettext(
            "The link works once, for %(days)s day. If you did not ask for it, change your password: someone "
            "signed in to your account.",
            "The link works once, for %(days)s days. If you did not ask for it, change your password: someone "
            "signed in to your account.",
            days,
        )
        % {"days": days},
    )
    return _sent(_("Your data is ready to download"), text, address, "an export link")


def account_closed_send(*, address: str, username: str, until: datetime) -> bool:
    """Tell `address` that `username`'s account is closed, and how to take it back."""
    if not configured():
        return False
    text = _text(
        _("The account %(username)s of the game server was closed at its owner's request.") % {"username": username},
        _(
            # Translators: until is a date and time such as 2026-03-01 12:00; "closed account" quotes the name the
            # account then goes by, which is stored in English ("closed account 42").
            "Signing in with its password before %(until)s UTC restores it. After that its personal data (names, "
            'this address, settings) is erased for good; finished matches stay, under "closed account".'
        )
        % {"until": f"{until:%Y-%m-%d %H:%M}"},
    )
    return _sent(_("Your account is closed"), text, address, "a closure notice")


# What each change to two-step sign-in is called in its notice: the subject, and the
# text's sentence of what happened (a whole sentence each, for translators: the account's
# username is `%(username)s`).
SECOND_FACTOR_CHANGES = {
    "totp_on": (
        gettext_lazy("Two-step sign-in was turned on"),
        gettext_lazy(
            "Two-step sign-in of the account %(username)s of the game server was just turned on: signing in with "
            "the password now takes a code from an authenticator app."
        ),
    ),
    "totp_off": (
        gettext_lazy("Two-step sign-in was turned off"),
        gettext_lazy(
            "Two-step sign-in of the account %(username)s of the game server was just turned off for the "
            "authenticator app."
        ),
    ),
    "passkey_added": (
        gettext_lazy("A passkey was added"),
        gettext_lazy(
            "Two-step sign-in of the account %(username)s of the game server was just given a new passkey: it "
            "signs in with no password, and signing in with the password takes a second step."
        ),
    ),
    "passkey_removed": (
        gettext_lazy("A passkey was removed"),
        gettext_lazy(
            "Two-step sign-in of the account %(username)s of the game server was just left with one passkey less."
        ),
    ),
}


def second_factor_changed_send(*, address: str, username: str, change: str) -> bool:
    """Tell `address` of a change to two-step sign-in of `username`'s account (one of
    SECOND_FACTOR_CHANGES)."""
    if not configured():
        return False
    subject, what = SECOND_FACTOR_CHANGES[change]
    text = _text(
        str(what) % {"username": username},
        _(
            # Translators: "Forgot your password?" is the link of the sign-in page: use its translation there.
            "If it was you, there is nothing to do. If it was not, someone can sign in to your account: reset your "
            'password from the sign-in page ("Forgot your password?"), which signs everyone else out.'
        ),
    )
    return _sent(str(subject), text, address, "a second-factor notice")


def address_changed_send(*, address: str, username: str) -> bool:
    """Tell `address` that `username`'s account goes by another address now. The new
    address is not named: whoever changed it may not be the owner."""
    if not configured():
        return False
    text = _text(
        _(
            "The e-mail address of the account %(username)s of the game server was just changed: notices and "
            "password-reset links no longer come to this address."
        )
        % {"username": username},
        _(
            # Translators: Settings is the name of the settings page: use its translation there.
            "If it was you, there is nothing to do. If it was not, someone can sign in to your account: sign in, "
            "change your password (that signs everyone else out) and set your address back in Settings."
        ),
    )
    return _sent(_("Your e-mail address was changed"), text, address, "an address-change notice")


def plain_send(*, address: str, subject: str, text: str) -> bool:
    """Send a plain-text mail of the server's own (a moderator's notice)."""
    return _sent(subject, text, address, "a notice")


def mail_send(*, address: str, notice: Notice) -> bool:
    """Send the notice to `address`; False when the mail server refused it or failed
    (the next turn tries again)."""
    return _sent(notice.title, text_of(notice), address, "a notice")


def _sent(subject: str, text: str, address: str, what: str) -> bool:
    try:
        send_mail(subject, text, None, [address])
    except Exception:  # SMTP errors are many (OSError, smtplib's)
        logger.exception("could not send %s by e-mail", what)
        return False
    return True
