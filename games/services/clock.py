"""When the server must next act in a hand, and the task that will do it.

A task is queued only for a due time within `timing.task_horizon()`: by the change that
sets it (`write`), or, for rounds due later (a table on a one-day clock), by the beat
pickup once it comes within the horizon (`due_tasks_queue`). `Round.task_due_at` says
which due time a task is queued for at the room's version, so neither queues it twice;
the sweeper acts on whatever is overdue all the same, for the tasks that were lost.
A person's clock goes to a queue of its own (GAME_CLOCK_QUEUE, `clock_queue`), which a
worker of its own takes: a deadline waits behind no computer player's move, sweep or
notice. Computer players' moves go to the default queue with the rest.

`due_tasks_claim` is the one write to rounds outside a table (games.store): the pickup
notes which rounds it queues a task for, under their rooms' locks too.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from functools import partial

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from .. import timing
from ..models import RoomStatus, Round
from ..store import Table

logger = logging.getLogger(__name__)

# The registered name of a room's due-time task (games.tasks.room_due). It keeps the
# name of the task's first release: tasks are queued up to the task horizon ahead, and
# a worker of the next release must still know the ones the last one queued.
ROOM_DUE_TASK = "games.apply_due_actions"
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
    table.mark(round_, ["deadline_at", "bots_due_at", "due_at", "task_due_at"])
    if queue and due is not None:
        where = clock_queue() if not bots_only(round_) else None
        transaction.on_commit(partial(schedule, table.room.code, table.room.version, due, queue=where))


def clock_queue() -> str | None:
    """The queue of the tasks that run out players' clocks (GAME_CLOCK_QUEUE): a worker
    of its own takes them, so that nothing slower holds them up. None: the default."""
    return str(getattr(settings, "GAME_CLOCK_QUEUE", "") or "") or None


def bots_only(round_: Round) -> bool:
    """Whether the round's due time is only computer players' move: its task goes to the
    default queue with the other background work; a person's deadline or abandonment
    goes to the clock queue."""
    due = round_.due_at
    return due is not None and due == round_.bots_due_at and due != round_.deadline_at


def stop(table: Table, round_: Round) -> None:
    """A hand is over: nothing is due in it any more."""
    round_.deadline_at = round_.bots_due_at = round_.due_at = round_.task_due_at = None
    table.mark(round_, ["deadline_at", "bots_due_at", "due_at", "task_due_at"])


def look_again(table: Table, *, after: timedelta, served_after: datetime | None = None) -> None:
    """Queue the table's task again `after` from now, at the version this change leaves
    (a person's clock ran out just before the heartbeat could show the API served past
    it: the next beat will; `served_after`: the beat it waits for is one past this).
    Expects the room lock held."""
    if tasks_enabled():
        eta = timezone.now() + after
        code, version = table.room.code, table.room.version
        transaction.on_commit(partial(schedule, code, version, eta, queue=clock_queue(), served_after=served_after))


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
            claimed, more = due_tasks_claim(until=until, limit=PICKUP_BATCH)
            for code, version, due in claimed:
                # Rounds due this far ahead are people's clocks (computer players move
                # within BOT_DELAY_SECONDS, queued by the change itself).
                transaction.on_commit(partial(schedule, code, version, due, queue=clock_queue()))
        queued += len(claimed)
        more = more and bool(claimed)
    return queued


def due_tasks_claim(*, until: datetime, limit: int) -> tuple[list[tuple[str, int, datetime]], bool]:
    """Note a task as queued (`Round.task_due_at`) for the rounds in play due by `until`
    that have none queued for their due time, and give each one's room code, version
    and due time for the caller to queue once this commits; and whether more may be
    left than the `limit` taken. Use in a transaction.

    It holds the lock of each room it claims a round of, so it reads the version a
    change left with its due time, never one from before it; rooms whose lock another
    holds are passed over (a change queues its own task; the next pickup looks again),
    so two pickups at once claim different rounds, and wait for nothing. A change
    writes the field itself (`write`), whatever this wrote before it.
    """
    waiting = Round.objects.filter(due_at__lte=until, room__status=RoomStatus.PLAYING).exclude(task_due_at=F("due_at"))
    locking = waiting.select_related("room").only("room__id").order_by("due_at")
    rooms = [round_.room_id for round_ in locking.select_for_update(skip_locked=True, of=("room",))[:limit]]
    if not rooms:
        return [], False
    # Read again now that the locks are held: a change may have committed in between.
    claimed = list(waiting.filter(room_id__in=rooms).values_list("id", "room__code", "room__version", "due_at"))
    Round.objects.filter(id__in=[row[0] for row in claimed]).update(task_due_at=F("due_at"))
    return [(code, version, due) for _, code, version, due in claimed if due is not None], len(rooms) == limit


def schedule(
    code: str, version: int, eta: datetime, *, queue: str | None = None, served_after: datetime | None = None
) -> None:
    """Queue the due-time task (games/tasks.py) for this room at this version, on
    `queue` (`clock_queue()` for a person's clock; None: the default queue);
    `served_after`: a held clock's task, which waits for a beat past that."""
    kwargs = {"served_after": served_after.isoformat()} if served_after is not None else None
    try:
        # By name: the tasks module calls these services, so it is not imported here.
        current_app.send_task(ROOM_DUE_TASK, args=(code, version), kwargs=kwargs, eta=eta, queue=queue)
    except Exception:  # the broker is down: the sweeper will find the round overdue
        logger.exception("could not schedule room %s v%s; the sweeper will catch up", code, version)
