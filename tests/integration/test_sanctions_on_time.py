"""Sanctions end on time under real Celery workers: a temporary ban is lifted by its own
task at its end (never before), and one whose task was lost is lifted by the sweep."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from moderation import services
from moderation.models import ModerationEntry

from .test_celery_time import wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("celery_workers")]


def test_a_temporary_ban_is_lifted_by_its_task_at_its_end_and_not_before(make_user):
    moderator = make_user("mod", is_staff=True, is_superuser=True)
    player = make_user("player")
    until = timezone.now() + timedelta(seconds=3)
    services.user_ban(moderator=moderator, user=player, reason="A short break", until=until)
    assert User.objects.get(pk=player.pk).banned_at is not None
    # However slow the machine, the worker lifts it at its end: never before, and soon after.
    wait_for(lambda: User.objects.get(pk=player.pk).banned_at is None, 60, "the ban's end")
    ended = ModerationEntry.objects.get(kind=ModerationEntry.Kind.BAN_ENDED, target_user=player)
    assert ended.created_at >= until and ended.moderator is None
    assert User.objects.get(pk=player.pk).is_active


def test_a_ban_whose_task_was_lost_is_lifted_by_the_sweep(make_user):
    moderator = make_user("mod", is_staff=True, is_superuser=True)
    player = make_user("player")
    services.user_ban(moderator=moderator, user=player, reason="x", until=timezone.now() + timedelta(days=1))
    # Its end moved into the past behind the task's back (the task would wait a day).
    User.objects.filter(pk=player.pk).update(ban_ends_at=timezone.now() - timedelta(seconds=1))
    from celery import current_app

    current_app.send_task("moderation.lift_ended_bans")
    wait_for(lambda: User.objects.get(pk=player.pk).banned_at is None, 60, "the sweep")
