"""When the server must next act in a hand, and the task that will do it.

A task is queued only for a due time within `timing.task_horizon()`: by the change that
sets it (`write`), or, for rounds due later (a table on a one-day clock), by the beat
pickup once it comes within the horizon (`due_tasks_queue`). `Round.task_due_at` says
which due time a task is queued for at the room's version, so neither queues it twice;
the sweeper acts on whatever is overdue all the same, for the tasks that were lost.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from functools import partial

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .. import store, timing
from ..models import Round
from ..store import Table

logger = logging.getLogger(__name__)

# The name of the task that applies what is due in a room (games/tasks.py).
APPLY_DUE_ACTIONS = "games.apply_due_actions"
# Rooms claimed by one transaction of the pickup: their locks are held until it commits.
PICKUP_BATCH = 500


def tasks_enabled() -> bool:
    return bool(getattr(settings, "GAME_TASKS_ENABLED", True))


def write(table: Table, *, now: datetime) -> None:
    """Write the hand's clock as games.timing planned it, and queue a task for its due
    time after commit when that is soon enough (`timing.task_horizon`; the pickup queues
    the others in time). The one writer of these fields, with `stop`. Expects the room
    lock held (games.services.timekeeper calls it)."""
    round_ = table.round
    if round_ is None:
        return
    due = round_.due_at
    queue = due is not None and tasks_enabled() and due - now <= timing.task_horizon()
    # Written at every change, queued or not: a task queued for an earlier version is
    # stale (it checks the version), so the round must not count as having one.
    round_.task_due_at = due if queue else None
    table.save(round_, ["deadline_at", "bots_due_at", "due_at", "task_due_at"])
    if queue and due is not None:
        transaction.on_commit(partial(schedule, table.room.code, table.room.version, due))


def stop(table: Table, round_: Round) -> None:
    """A hand is over: nothing is due in it any more."""
    round_.deadline_at = round_.bots_due_at = round_.due_at = round_.task_due_at = None
    table.save(round_, ["deadline_at", "bots_due_at", "due_at", "task_due_at"])


def look_again(table: Table, *, after: timedelta) -> None:
    """Queue the table's task again `after` from now, at the version this change leaves
    (a person's clock ran out just before the heartbeat could show the API served past
    it: the next beat will). Expects the room lock held."""
    if tasks_enabled():
        eta = timezone.now() + after
        transaction.on_commit(partial(schedule, table.room.code, table.room.version, eta))


def due_tasks_queue(*, now: datetime | None = None) -> int:
    """Queue the task of every round in play whose due time has come within the horizon
    and that has none queued for it (beat runs this every GAME_TASK_PICKUP_SECONDS).
    Returns how many it queued. Safe to run twice at once: each round is claimed once.

    Each batch is claimed in its own short transaction and its tasks queued after it
    commits; a pickup that dies in between leaves its rounds to the sweeper.
    """
    if not tasks_enabled():
        return 0
    until = (now or timezone.now()) + timing.task_horizon()
    queued = 0
    more = True
    while more:
        with transaction.atomic():
            claimed, more = store.due_tasks_claim(until=until, limit=PICKUP_BATCH)
            for code, version, due in claimed:
                transaction.on_commit(partial(schedule, code, version, due))
        queued += len(claimed)
        more = more and bool(claimed)
    return queued


def schedule(code: str, version: int, eta: datetime) -> None:
    """Queue the due-time task (games/tasks.py) for this room at this version."""
    try:
        # By name: the tasks module calls these services, so it is not imported here.
        current_app.send_task(APPLY_DUE_ACTIONS, args=(code, version), eta=eta)
    except Exception:  # the broker is down: the sweeper will find the round overdue
        logger.exception("could not schedule room %s v%s; the sweeper will catch up", code, version)
