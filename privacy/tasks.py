"""Celery tasks: thin, each calls one service."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from . import closure, exports


@shared_task(name="privacy.erase_closed_accounts", ignore_result=True)
def erase_closed_accounts() -> int:
    """Beat, hourly: erase the closed accounts whose grace period is over."""
    return closure.closed_accounts_erase(now=timezone.now())


@shared_task(name=exports.BUILD_EXPORT, ignore_result=True)
def build_export(export_id: int) -> bool:
    """Build a requested archive and mail its link."""
    return exports.export_build(export_id=export_id, now=timezone.now())
