"""Celery tasks: thin and idempotent, each calls one service."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="games.round_due", ignore_result=True)
def round_due(round_id: int, version: int) -> bool:
    """Scheduled for a round's due time; does nothing if the room moved on since."""
    return services.round_due(round_id=round_id, version=version)


@shared_task(name="games.sweep_overdue", ignore_result=True)
def sweep_overdue() -> int:
    """The safety net for lost or failed tasks: handles every overdue round."""
    return services.rounds_sweep()
