"""What moderation tells people (moderation/notices.py queues it by name): a sanction,
to the person, and "your report was handled", to a reporter; by mail to a confirmed
address and by push to each subscription. A ban's mail goes though the person can no
longer sign in: it says why and until when. Plain text: the moderator's words are
never markup."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from .. import mail, selectors
from . import subscriptions

SEND_SANCTION = "notifications.send_sanction"
SEND_REPORT_HANDLED = "notifications.send_report_handled"

_TITLES = {
    "warning": "A moderator's warning",
    "chat_timeout": "You are timed out of table talk",
    "ban": "Your account is banned",
}


def _sanction_text(kind: str, text: str, until: datetime | None) -> str:
    lines = [f"{_TITLES[kind]}.", "", f"The moderator wrote: {text}", ""]
    if until is not None:
        lines.append(f"It ends at {until:%Y-%m-%d %H:%M} UTC.")
    elif kind == "ban":
        lines.append("It does not end.")
    if kind == "warning":
        lines.append("You will see it once more before your next table.")
    return "\n".join(lines) + "\n"


def _tell(user_id: int, subject: str, text: str, *, push_body: str) -> int:
    """Mail to the confirmed address and push to every subscription; how many went."""
    user = selectors.user_of(user_id=user_id, active=False)
    if user is None:
        return 0
    sent = 0
    wanted = selectors.preferences_of(user=user)
    if wanted.email_address and wanted.email_confirmed and mail.configured():
        sent += mail.plain_send(address=wanted.email_address, subject=subject, text=text)
    payload = {"title": subject, "body": push_body, "url": "/", "rooms": [], "tag": "moderation"}
    pushed, _ = subscriptions.push_to_all(
        user_id=user_id, payload=payload, ttl=24 * 3600, topic="moderation", now=timezone.now()
    )
    sent += pushed
    return sent


def sanction_send(*, user_id: int, kind: str, text: str, until: str | None) -> int:
    ends = datetime.fromisoformat(until) if until else None
    body = text if ends is None else f"{text} (until {ends:%Y-%m-%d %H:%M} UTC)"
    return _tell(user_id, _TITLES[kind], _sanction_text(kind, text, ends), push_body=body)


def report_handled_send(*, user_id: int) -> int:
    text = (
        "A moderator looked into a report of yours and handled it. Thank you for telling us.\n\n"
        "What was done is between the moderators and the person reported.\n"
    )
    return _tell(user_id, "Your report was handled", text, push_body="A moderator handled your report. Thank you.")
