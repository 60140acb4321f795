"""Celery tasks: thin and idempotent, each calls one service."""

from __future__ import annotations

from celery import shared_task

from .services import clock, play


@shared_task(name=clock.APPLY_DUE_ACTIONS, ignore_result=True)
def apply_due_actions(code: str, version: int) -> bool:
    """Scheduled for a hand's due time; does nothing if the room moved on since."""
    return play.due_actions_apply(code=code, version=version)


@shared_task(name="games.sweep_overdue", ignore_result=True)
def sweep_overdue() -> int:
    """The safety net for lost or failed tasks: acts at every overdue table."""
    return play.overdue_sweep()
