"""What moderation tells people, queued by name once the action commits, so that
moderation needs nothing of the notifications app (its tasks send the mail and the
push, in notifications/services/moderation_notices.py): a sanction to the person, and
"your report was handled" to a reporter."""

from __future__ import annotations

import logging
from datetime import datetime
from functools import partial
from typing import Any

from celery import current_app
from django.db import transaction

logger = logging.getLogger(__name__)

SEND_SANCTION = "notifications.send_sanction"
SEND_REPORT_HANDLED = "notifications.send_report_handled"


def _queue(task: str, *args: Any) -> None:
    try:
        current_app.send_task(task, args=args)
    except Exception:  # the broker away: the action stands; the page shows it anyway
        logger.exception("could not queue %s", task)


def sanction_after_commit(*, user_id: int, kind: str, text: str, until: datetime | None) -> None:
    """Tell the person of a warning, a chat timeout or a ban (`kind`), with the
    moderator's words (a fixed warning's already in the person's language) and its end."""
    transaction.on_commit(partial(_queue, SEND_SANCTION, user_id, kind, text, until.isoformat() if until else None))


def report_handled_after_commit(*, user_id: int) -> None:
    transaction.on_commit(partial(_queue, SEND_REPORT_HANDLED, user_id))
