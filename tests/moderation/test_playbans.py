"""Playbans: rated matches abandoned by the idle clock add up within a rolling window;
past the threshold each brings an escalating wait before the next rated table, shown
with its end and why; unrated tables stay open; a moderator's hand-over never counts."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from games import selectors
from games.services import due, lobby
from moderation import playbans, services
from moderation.models import Abandonment
from tests.api.helpers import errors
from tests.ratings.play import room_ready

pytestmark = pytest.mark.django_db

T0 = timezone.now().replace(microsecond=0)


def abandoned_at(user: Any, *minutes_after: int) -> None:
    for minutes in minutes_after:
        Abandonment.objects.create(user=user, at=T0 + timedelta(minutes=minutes))


def test_the_waits_escalate_past_the_threshold_within_the_window(make_user, settings):
    settings.PLAYBAN_THRESHOLD, settings.PLAYBAN_WINDOW_HOURS, settings.PLAYBAN_MINUTES = 3, 24, [15, 60, 1440]
    ana = make_user("ana")
    abandoned_at(ana, 0, 10)
    assert playbans.playban_of(user=ana, now=T0 + timedelta(minutes=11)) is None
    abandoned_at(ana, 20)  # the third within a day: 15 minutes from it
    ban = playbans.playban_of(user=ana, now=T0 + timedelta(minutes=21))
    assert ban is not None and ban.until == T0 + timedelta(minutes=35) and ban.abandonments == 3
    assert playbans.playban_of(user=ana, now=T0 + timedelta(minutes=35)) is None
    abandoned_at(ana, 40)  # the fourth: an hour
    assert playbans.playban_of(user=ana, now=T0 + timedelta(minutes=41)).until == T0 + timedelta(minutes=100)
    abandoned_at(ana, 120)  # the fifth: a day
    assert playbans.playban_of(user=ana, now=T0 + timedelta(hours=3)).until == T0 + timedelta(minutes=120 + 1440)
    # Outside the window the count starts again.
    bo = make_user("bo")
    abandoned_at(bo, 0, 60 * 25, 60 * 50)
    assert playbans.playban_of(user=bo, now=T0 + timedelta(minutes=60 * 50 + 1)) is None


def test_a_playbanned_person_waits_for_rated_tables_only(make_user, api_client, settings):
    settings.PLAYBAN_THRESHOLD = 2
    ana = make_user("ana")
    now = timezone.now()
    Abandonment.objects.create(user=ana, at=now - timedelta(minutes=5))
    Abandonment.objects.create(user=ana, at=now - timedelta(minutes=1))
    rated = lobby.room_create(host=make_user(), game="hearts", options={})  # rated unless a computer plays
    refused = api_client(ana).post(f"/api/v1/rooms/{rated.code}/join", {}, format="json")
    assert refused.status_code == 409 and errors(refused) == [("playbanned", None)]
    assert 13 * 60 <= int(refused["Retry-After"]) <= 14 * 60
    made = api_client(ana).post("/api/v1/rooms/", {"game": "hearts"}, format="json")
    assert made.status_code == 409
    unrated = lobby.room_create(host=make_user(), game="hearts", options={"rated": False})
    assert api_client(ana).post(f"/api/v1/rooms/{unrated.code}/join", {}, format="json").status_code == 201
    shown = api_client(ana).get("/api/v1/me/sanctions").json()["playban"]
    assert shown["abandonments"] == 2 and "2 rated matches abandoned" in shown["reason"]
    with time_machine.travel(now + timedelta(minutes=15)):
        assert api_client(ana).post(f"/api/v1/rooms/{rated.code}/join", {}, format="json").status_code == 201


def test_only_the_idle_clock_in_a_rated_match_counts(make_user, moderators_group):
    people = [make_user() for _ in range(4)]
    room = room_ready("hearts", {"turn_seconds": 30, "abandon_seconds": 60, "on_abandon": "bot"}, people)
    round_ = selectors.table_of(code=room.code).round
    assert room.options.get("rated") is True and round_ is not None
    # The pass: all four wait at once, and all four run past abandon_seconds; the match
    # then ends with every seat a computer's, which is no one's abandonment more.
    assert due.due_actions_apply(code=room.code, now=round_.started_at + timedelta(minutes=2)) is True
    assert sorted(a.user_id for a in Abandonment.objects.all()) == sorted(p.pk for p in people)
    # A moderator's hand-over is no abandonment.
    moderator = make_user("mod", is_staff=True)
    other = room_ready("hearts", {}, [make_user() for _ in range(4)])
    services.seat_give_to_bot(moderator=moderator, room=other, index=1, reason="disruptive")
    assert Abandonment.objects.count() == 4
    # An unrated match's idle clock counts for nothing.
    unrated = room_ready("hearts", {"turn_seconds": 30, "abandon_seconds": 60}, [make_user() for _ in range(2)], bots=2)
    assert unrated.options.get("rated") is False
    first = selectors.table_of(code=unrated.code).round
    due.due_actions_apply(code=unrated.code, now=first.started_at + timedelta(hours=1))
    assert Abandonment.objects.count() == 4
