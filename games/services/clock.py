"""When the server must next act in a hand, and the task that will do it.

Expects the room lock held throughout: these change the table's round.
"""

from __future__ import annotations

import logging
from datetime import datetime

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .. import timing
from ..store import Table

logger = logging.getLogger(__name__)

# The name of the task that applies what is due in a room (games/tasks.py).
APPLY_DUE_ACTIONS = "games.apply_due_actions"


def plan(table: Table, *, before: timing.Turn | None, now: datetime | None = None) -> None:
    """Store when the server must next act in the hand in play, and schedule a task for
    it after commit when that is soon enough (`timing.task_horizon`; the sweeper finds
    the others)."""
    round_ = table.round
    if round_ is None:
        return
    now = now or timezone.now()
    timing.plan(table, before=before, now=now)
    table.save(round_, ["deadline_at", "bots_due_at", "due_at"])
    if (
        round_.due_at is not None
        and getattr(settings, "GAME_TASKS_ENABLED", True)
        and round_.due_at - now <= timing.task_horizon()
    ):
        code, version, eta = table.room.code, table.room.version, round_.due_at
        transaction.on_commit(lambda: schedule(code, version, eta))


def schedule(code: str, version: int, eta: datetime) -> None:
    """Queue the due-time task (games/tasks.py) for this room at this version."""
    try:
        # By name: the tasks module calls these services, so it is not imported here.
        current_app.send_task(APPLY_DUE_ACTIONS, args=(code, version), eta=eta)
    except Exception:  # the broker is down: the sweeper will find the round overdue
        logger.exception("could not schedule room %s v%s; the sweeper will catch up", code, version)
