"""Migration 0007 on games: Kali Tidi's `trick_won` events logged before they named
`winner` and `trick` are given both; other games' are left as they are. A migration of
data alone: its step runs on events written as they were then (tests.migrations.data_step)."""

import pytest
from django.apps import apps

from accounts.models import User
from games.models import Event, Room
from tests.migrations import data_step

# Events of its own making, in a Room made bare: not a game's, so not checked as one.
pytestmark = [pytest.mark.django_db, pytest.mark.made_up_events]

name_the_winner = data_step("games", "0007_kali_tidi_trick_won_winner", "name_the_winner")


def test_old_kali_tidi_tricks_name_their_winner_and_number():
    host = User.objects.create_user(username="host", password="correct-horse-9")
    kali = Room.objects.create(code="KALIOO", game="kali_tidi", options={}, host=host)
    hearts = Room.objects.create(code="HEARTS", game="hearts", options={}, host=host)
    logged = [
        (kali, 1, 1, {"type": "play", "seat": 0, "card": "AS"}),
        (kali, 2, 1, {"type": "trick_won", "seat": 2, "points": 10}),
        (kali, 3, 1, {"type": "trick_won", "seat": 0, "points": 0}),
        (kali, 4, 2, {"type": "trick_won", "seat": 1, "points": 5}),
        (hearts, 1, 1, {"type": "trick_won", "winner": 3, "points": 1, "trick": 1}),
    ]
    for room, seq, round_number, data in logged:
        Event.objects.create(room=room, seq=seq, round_number=round_number, version=seq, data=data)
    name_the_winner(apps, None)

    def data(code: str) -> list[dict]:
        return [e.data for e in Event.objects.filter(room__code=code).order_by("seq")]

    assert data("KALIOO") == [
        {"type": "play", "seat": 0, "card": "AS"},
        {"type": "trick_won", "seat": 2, "points": 10, "winner": 2, "trick": 1},
        {"type": "trick_won", "seat": 0, "points": 0, "winner": 0, "trick": 2},
        {"type": "trick_won", "seat": 1, "points": 5, "winner": 1, "trick": 1},
    ]
    assert data("HEARTS") == [{"type": "trick_won", "winner": 3, "points": 1, "trick": 1}]
