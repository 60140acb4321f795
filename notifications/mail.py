"""A notice as an e-mail, through Django's mail framework (EMAIL_BACKEND)."""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings
from django.core.mail import mailers, send_mail
from django.core.mail.handler import DEFAULT_MAILER_ALIAS

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
            parts.append(f"and {notice.total - len(notice.lines)} more")
    parts.append("You receive this because the game waits for you. Turn these e-mails off in your settings.")
    return "\n\n".join(parts) + "\n"


def configured() -> bool:
    """Whether e-mail goes anywhere: production without EMAIL_HOST has no mailer."""
    return DEFAULT_MAILER_ALIAS in mailers


def available() -> bool:
    """Whether this server e-mails players at all: a mailer, and its own address
    (PUBLIC_BASE_URL) for the links every mail carries."""
    return configured() and bool(settings.PUBLIC_BASE_URL)


def _lifetime(seconds: int) -> str:
    for unit, name in ((24 * 3600, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= unit and seconds % unit == 0:
            count = seconds // unit
            return f"{count} {name}" + ("s" if count != 1 else "")
    return f"{seconds} seconds"


def confirmation_text(*, link: str, max_age_seconds: int) -> str:
    """The confirmation mail: the link and why it came, and nothing of any game."""
    return (
        "Someone asked for notices of the game server to be sent to this address.\n\n"
        f"If it was you, open this link to confirm it:\n\n{link}\n\n"
        f"The link works for {_lifetime(max_age_seconds)}. If it was not you, ignore this e-mail: "
        "nothing else is sent to this address unless it is confirmed.\n"
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
    return _sent("Confirm your e-mail address", text, address, "a confirmation link")


def password_reset_send(*, address: str, username: str, path: str, max_age_seconds: int) -> bool:
    """Mail `address` the link that resets the password of `username`'s account; False
    when there is no mailer or public address to link to, or the mail failed."""
    link = _link(path)
    if not configured() or not link:
        logger.warning("no password-reset link mailed: no mailer, or no PUBLIC_BASE_URL to link to")
        return False
    text = (
        f"Someone asked to reset the password of the account {username} of the game server.\n\n"
        f"If it was you, open this link to choose a new password:\n\n{link}\n\n"
        f"The link works once, for {_lifetime(max_age_seconds)}. Choosing a new password signs the account out "
        "everywhere. If it was not you, ignore this e-mail: your password stays as it is.\n"
    )
    return _sent("Reset your password", text, address, "a password-reset link")


def password_changed_send(*, address: str, username: str) -> bool:
    """Tell `address` that the password of `username`'s account changed."""
    if not configured():
        return False
    text = (
        f"The password of the account {username} of the game server was just changed.\n\n"
        "If it was you, there is nothing to do. If it was not, reset your password now from the sign-in page "
        '("Forgot your password?"): that signs the account out everywhere.\n'
    )
    return _sent("Your password was changed", text, address, "a password-change notice")


def new_sign_in_send(*, address: str, username: str, device: str, network: str) -> bool:
    """Tell `address` that `username`'s account was signed in to from a new place."""
    if not configured():
        return False
    where = ", ".join(part for part in (device, f"network {network}" if network else "") if part) or "an unknown device"
    text = (
        f"The account {username} of the game server was just signed in to from a place it was not signed in "
        f"from lately: {where}.\n\n"
        "If it was you, there is nothing to do. If it was not, change your password in Settings (that signs "
        "everyone else out), or reset it from the sign-in page.\n"
    )
    return _sent("A new sign-in to your account", text, address, "a new sign-in notice")


def export_ready_send(*, address: str, username: str, path: str, days: int) -> bool:
    """Mail `address` the link to the archive of `username`'s data."""
    link = _link(path)
    if not configured() or not link:
        logger.warning("no export link mailed: no mailer, or no PUBLIC_BASE_URL to link to")
        return False
    text = (
        f"The archive of everything the game server holds about the account {username} is ready.\n\n"
        f"Download it from this link:\n\n{link}\n\n"
        f"The link works once, for {days} days. If you did not ask for it, change your password: someone signed "
        "in to your account.\n"
    )
    return _sent("Your data is ready to download", text, address, "an export link")


def account_closed_send(*, address: str, username: str, until: datetime) -> bool:
    """Tell `address` that `username`'s account is closed, and how to take it back."""
    if not configured():
        return False
    text = (
        f"The account {username} of the game server was closed at its owner's request.\n\n"
        f"Signing in with its password before {until:%Y-%m-%d %H:%M} UTC restores it. After that its personal data "
        '(names, this address, settings) is erased for good; finished matches stay, under "closed account".\n'
    )
    return _sent("Your account is closed", text, address, "a closure notice")


# What each change to two-step sign-in is called in its notice: the subject, and what
# the text says happened.
SECOND_FACTOR_CHANGES = {
    "totp_on": (
        "Two-step sign-in was turned on",
        "turned on: signing in with the password now takes a code from an authenticator app",
    ),
    "totp_off": ("Two-step sign-in was turned off", "turned off for the authenticator app"),
    "passkey_added": (
        "A passkey was added",
        "given a new passkey: it signs in with no password, and signing in with the password takes a second step",
    ),
    "passkey_removed": ("A passkey was removed", "left with one passkey less"),
}


def second_factor_changed_send(*, address: str, username: str, change: str) -> bool:
    """Tell `address` of a change to two-step sign-in of `username`'s account (one of
    SECOND_FACTOR_CHANGES)."""
    if not configured():
        return False
    subject, what = SECOND_FACTOR_CHANGES[change]
    text = (
        f"Two-step sign-in of the account {username} of the game server was just {what}.\n\n"
        "If it was you, there is nothing to do. If it was not, someone can sign in to your account: reset your "
        'password from the sign-in page ("Forgot your password?"), which signs everyone else out.\n'
    )
    return _sent(subject, text, address, "a second-factor notice")


def address_changed_send(*, address: str, username: str) -> bool:
    """Tell `address` that `username`'s account goes by another address now. The new
    address is not named: whoever changed it may not be the owner."""
    if not configured():
        return False
    text = (
        f"The e-mail address of the account {username} of the game server was just changed: notices and "
        "password-reset links no longer come to this address.\n\n"
        "If it was you, there is nothing to do. If it was not, someone can sign in to your account: sign in, "
        "change your password (that signs everyone else out) and set your address back in Settings.\n"
    )
    return _sent("Your e-mail address was changed", text, address, "an address-change notice")


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
