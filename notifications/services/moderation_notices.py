"""What moderation tells people (moderation/notices.py queues it by name): a sanction,
to the person, and "your report was handled", to a reporter; by mail to a confirmed
address and by push to each subscription. A ban's mail goes though the person can no
longer sign in: it says why and until when. Plain text: the moderator's words are
never markup, and are written as they are; the rest is in the person's language."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.languages import speaking_to

from .. import mail, selectors
from . import subscriptions

SEND_SANCTION = "notifications.send_sanction"
SEND_REPORT_HANDLED = "notifications.send_report_handled"

_TITLES = {
    "warning": gettext_lazy("A moderator's warning"),
    "chat_timeout": gettext_lazy("You are timed out of table talk"),
    "ban": gettext_lazy("Your account is banned"),
}


def _moment(until: datetime) -> str:
    # Written the same in every language: the time is UTC's, and says so.
    return f"{until:%Y-%m-%d %H:%M}"


def _sanction_text(kind: str, text: str, until: datetime | None) -> str:
    # Translators: a sanction's mail begins with its title (such as "A moderator's warning") as a sentence.
    lines = [_("%(title)s.") % {"title": _TITLES[kind]}, ""]
    # Translators: text is the moderator's own words, as they wrote them.
    lines += [_("The moderator wrote: %(text)s") % {"text": text}, ""]
    if until is not None:
        # Translators: until is a date and time such as 2026-03-01 12:00.
        lines.append(_("It ends at %(until)s UTC.") % {"until": _moment(until)})
    elif kind == "ban":
        lines.append(_("It does not end."))
    if kind == "warning":
        lines.append(_("You will see it once more before your next table."))
    return "\n".join(lines) + "\n"


def _tell(user_id: int, words: Callable[[], tuple[str, str, str]]) -> int:
    """Mail to the confirmed address and push to every subscription; how many went.
    `words` makes the subject, the mail's text and the push's body, called in the
    person's language."""
    user = selectors.user_of(user_id=user_id, active=False)
    if user is None:
        return 0
    sent = 0
    wanted = selectors.preferences_of(user=user)
    with speaking_to(user):
        subject, text, push_body = words()
    if wanted.email_address and wanted.email_confirmed and mail.configured():
        sent += mail.plain_send(address=wanted.email_address, subject=subject, text=text)
    payload = {"title": subject, "body": push_body, "url": "/", "rooms": [], "tag": "moderation"}
    pushed, _removed = subscriptions.push_to_all(
        user_id=user_id, payload=payload, ttl=24 * 3600, topic="moderation", now=timezone.now()
    )
    sent += pushed
    return sent


def sanction_send(*, user_id: int, kind: str, text: str, until: str | None) -> int:
    ends = datetime.fromisoformat(until) if until else None

    def words() -> tuple[str, str, str]:
        # Translators: a sanction's push notice: text is the moderator's own words; until a date and time (UTC).
        body = text if ends is None else _("%(text)s (until %(until)s UTC)") % {"text": text, "until": _moment(ends)}
        return str(_TITLES[kind]), _sanction_text(kind, text, ends), body

    return _tell(user_id, words)


def report_handled_send(*, user_id: int) -> int:
    def words() -> tuple[str, str, str]:
        text = (
            _("A moderator looked into a report of yours and handled it. Thank you for telling us.")
            + "\n\n"
            + _("What was done is between the moderators and the person reported.")
            + "\n"
        )
        return _("Your report was handled"), text, _("A moderator handled your report. Thank you.")

    return _tell(user_id, words)
