"""Ratings change as matches end, and the rebuild from history gives the same numbers."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.models import RoomStatus
from games.services import due, table_moderation
from ratings.models import Placing, Rating, RatingChange
from ratings.skill import START

from .play import play_out, room_ready

pytestmark = pytest.mark.django_db(transaction=False)


def _snapshot() -> tuple[list[tuple], list[tuple], list[tuple]]:
    ratings = sorted(Rating.objects.values_list("user_id", "game", "mu", "sigma", "shown", "matches"))
    changes = sorted(
        RatingChange.objects.values_list(
            "room_id", "user_id", "game", "seat", "mu_before", "sigma_before", "mu_after", "sigma_after"
        )
    )
    placings = sorted(Placing.objects.values_list("room_id", "seat", "user_id", "place", "score", "won"))
    return ratings, changes, placings


def test_rebuild_gives_the_live_numbers(make_user):
    a, b, c, d = (make_user() for _ in range(4))
    # People only (rated by default), people with computer players (rated when asked),
    # partnerships, random sides; the same players across games and matches.
    played = [
        play_out(room_ready("hearts", {"target": 20}, [a, b, c, d]), [a, b, c, d], seed=1),
        play_out(room_ready("moon", {"players": 3, "rated": True}, [b, c], bots=1), [b, c], seed=2),
        play_out(room_ready("moon", {"players": 4}, [a, b, c, d]), [a, b, c, d], seed=3),
        play_out(room_ready("hearts", {"target": 20, "rated": True}, [a, b], bots=2), [a, b], seed=4),
        play_out(
            room_ready("kali_tidi", {"players": 3, "team_mode": "random", "target": 5}, [a, c, d]), [a, c, d], seed=5
        ),
        play_out(room_ready("moon", {"players": 3}, [d], bots=2), [d], seed=6),
    ]
    assert all(r.status == RoomStatus.FINISHED for r in played)
    live = _snapshot()
    ratings, changes, placings = live
    # Every seat of every match is placed; every person of the five rated matches is
    # rated, and the one with computer players by default is not.
    assert len(placings) == 4 + 3 + 4 + 4 + 3 + 3
    assert len(changes) == 4 + 2 + 4 + 2 + 3
    assert not RatingChange.objects.filter(room=played[-1]).exists()
    assert played[-1].options["rated"] is False and played[0].options["rated"] is True
    assert {(r[1], r[0]) for r in ratings} >= {("hearts", a.id), ("moon", b.id), ("kali_tidi", d.id)}
    assert Rating.objects.get(user=a, game="hearts").matches == 2
    for change in RatingChange.objects.all():
        assert (change.mu_before, change.sigma_before) != (change.mu_after, change.sigma_after)
        assert change.sigma_after < change.sigma_before
    # Each match starts from where the previous one left its players.
    first, second = RatingChange.objects.filter(user=a, game="hearts").order_by("room__finished_at")
    assert (first.mu_before, first.sigma_before) == (START.mu, START.sigma)
    assert (second.mu_before, second.sigma_before) == (first.mu_after, first.sigma_after)

    # A tampered rating is put right by the rebuild.
    Rating.objects.filter(user=a).update(mu=99.0)
    out = StringIO()
    call_command("rebuild_ratings", stdout=out)
    assert "6 finished matches" in out.getvalue()
    assert _snapshot() == live


def test_abandoned_and_closed_matches_do_not_count(make_user):
    a, b, c, d = (make_user() for _ in range(4))
    room = room_ready("hearts", {"target": 20}, [a, b, c, d])
    other = room_ready("hearts", {"target": 20}, [a, b, c, d])
    # Nobody plays for a month: the match is abandoned by the server's own clock.
    due.due_actions_apply(code=room.code, now=timezone.now() + timedelta(days=30))
    room.refresh_from_db()
    assert room.status == RoomStatus.ABANDONED
    table_moderation.room_close(code=other.code, reason="test")
    assert not Placing.objects.exists() and not Rating.objects.exists()
    call_command("rebuild_ratings", stdout=StringIO())
    assert not Placing.objects.exists() and not Rating.objects.exists()


def test_a_room_of_people_may_play_unrated(make_user):
    a, b, c = (make_user() for _ in range(3))
    room = play_out(room_ready("moon", {"players": 3, "rated": False}, [a, b, c]), [a, b, c], seed=11)
    assert room.status == RoomStatus.FINISHED and room.options["rated"] is False
    assert Placing.objects.filter(room=room).count() == 3
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_a_rated_kali_tidi_match_with_hidden_partners_rates_the_last_hand_sides(make_user):
    people = [make_user() for _ in range(4)]
    options = {"players": 5, "team_mode": "cards", "target": 5, "rated": True}
    room = play_out(room_ready("kali_tidi", options, people, bots=1), people, seed=12)
    last = room.rounds.filter(result__isnull=False).order_by("-number").first()
    bidding = set(last.result["bidding_side"])
    changes = {c.seat: c for c in RatingChange.objects.filter(room=room)}
    assert set(changes) == {0, 1, 2, 3}
    # Partners on a side move together: the same place, and the same direction.
    places = {p.seat: p.place for p in Placing.objects.filter(room=room)}
    for side in (bidding, set(range(5)) - bidding):
        assert len({places[s] for s in side}) == 1
        assert len({changes[s].mu_after > changes[s].mu_before for s in side if s in changes}) <= 1
