"""Celery tasks: thin and idempotent, each calls one service."""

from __future__ import annotations

from celery import shared_task

from . import selectors
from .services import clock, due


@shared_task(name=clock.APPLY_DUE_ACTIONS, ignore_result=True)
def apply_due_actions(code: str, version: int) -> bool:
    """Scheduled for a hand's due time; does nothing if the room moved on since."""
    return due.due_actions_apply(code=code, version=version)


# TODO(#15): remove after a release: tasks queued before the rename carry a round's id.
@shared_task(name="games.round_due", ignore_result=True)
def round_due(round_id: int, version: int) -> bool:
    """A task scheduled by an older release, by round: acts as `apply_due_actions`."""
    code = selectors.room_code_of_round(round_id=round_id)
    return code is not None and due.due_actions_apply(code=code, version=version)


@shared_task(name="games.sweep_overdue", ignore_result=True)
def sweep_overdue() -> int:
    """The safety net for lost or failed tasks: acts at every overdue table."""
    return due.overdue_sweep()


@shared_task(name="games.queue_due_tasks", ignore_result=True)
def queue_due_tasks() -> int:
    """Beat's pickup: queues the tasks of rounds whose due time has come within the horizon."""
    return clock.due_tasks_queue()
