"""Celery tasks: thin and idempotent, each calls one service."""

from __future__ import annotations

from datetime import datetime

from celery import Task, shared_task
from django.utils import timezone

from core import metrics
from uptime.heartbeat import OUTAGE_CREDIT

from . import selectors
from .services import clock, due, timekeeper


@shared_task(name=clock.ROOM_DUE_TASK, ignore_result=True, bind=True)
def room_due(self: Task, code: str, version: int, served_after: str | None = None) -> bool:
    """Scheduled for a hand's due time; does nothing if the room moved on since.
    `served_after`: a clock held for a beat of the API past that moment looks again."""
    # How late the worker came to it: a deployment short of workers shows here first.
    eta: object = self.request.eta  # an ISO string as the message carries it
    due_at = datetime.fromisoformat(eta) if isinstance(eta, str) else eta
    if isinstance(due_at, datetime):
        metrics.observe_quietly(metrics.DUE_LATENESS, max(0.0, (timezone.now() - due_at).total_seconds()))
    after = datetime.fromisoformat(served_after) if served_after else None
    return due.due_actions_apply(code=code, version=version, served_after=after)


# TODO(#15): remove after a release: tasks queued before the rename carry a round's id.
@shared_task(name="games.round_due", ignore_result=True)
def round_due(round_id: int, version: int) -> bool:
    """A task scheduled by an older release, by round: acts as `room_due`."""
    code = selectors.room_code_of_round(round_id=round_id)
    return code is not None and due.due_actions_apply(code=code, version=version)


@shared_task(name="games.sweep_overdue", ignore_result=True)
def sweep_overdue() -> int:
    """The safety net for lost or failed tasks: acts at every overdue table."""
    return due.overdue_sweep()


@shared_task(name=OUTAGE_CREDIT, ignore_result=True)
def credit_outage(started: str, ended: str) -> int:
    """Sent by the heartbeat that saw an outage end: the tables in play get it back now."""
    return timekeeper.outage_credit_everywhere(
        started=datetime.fromisoformat(started), ended=datetime.fromisoformat(ended)
    )


@shared_task(name="games.queue_due_tasks", ignore_result=True)
def queue_due_tasks() -> int:
    """Beat's pickup: queues the tasks of rounds whose due time has come within the horizon."""
    return clock.due_tasks_queue()
