from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from . import services


@shared_task(name=services.LIFT_BAN, ignore_result=True)
def lift_ban(user_id: int) -> bool:
    """At a temporary ban's end: lift it (nothing when it was lifted or changed since)."""
    return services.ban_lift_if_over(user_id=user_id, now=timezone.now())


@shared_task(name="moderation.lift_ended_bans", ignore_result=True)
def lift_ended_bans() -> int:
    """The sweep behind `lift_ban`: a ban whose task was lost ends at the next sweep."""
    return services.bans_ended_lift(now=timezone.now())
