"""Migration 0009 on games: rooms that ended before their cause was kept as a code are
given it (and a moderator's own words) from the server's English words they kept. Its
data step runs on rooms written as they were then (tests.migrations.data_step): the
step's schema change is two columns added, blank for those rooms."""

import pytest
from django.apps import apps

from accounts.models import User
from games.models import Room
from tests.migrations import data_step

pytestmark = pytest.mark.django_db

causes_from_words = data_step("games", "0009_room_status_cause", "causes_from_words")

ENDED = {
    "IDLEAA": ("abandoned", "Ann did not play in time; the match was abandoned.", 2),
    "AWAYAA": ("abandoned", "Every seat is played by a computer player; the match was abandoned.", None),
    "LEFTAA": ("abandoned", "Everyone left before the start.", None),
    "SHUTAA": ("closed", "Closed by a moderator: spam: in the name", None),
    "ODDAAA": ("abandoned", "Something else entirely.", None),
    "DONEAA": ("finished", "", None),
    "LIVEAA": ("playing", "", None),
}


def test_ended_rooms_are_given_their_cause_from_their_words():
    host = User.objects.create_user(username="host", password="correct-horse-9")
    for code, (status, reason, seat) in ENDED.items():
        Room.objects.create(code=code, game="hearts", host=host, status=status, status_reason=reason, status_seat=seat)
    causes_from_words(apps, None)
    causes = {r.code: (r.status_cause, r.status_words) for r in Room.objects.filter(code__in=ENDED)}
    assert causes == {
        "IDLEAA": ("idle", ""),
        "AWAYAA": ("everyone_away", ""),
        "LEFTAA": ("everyone_left", ""),
        "SHUTAA": ("moderator", "spam: in the name"),
        "ODDAAA": ("", ""),
        "DONEAA": ("", ""),
        "LIVEAA": ("", ""),
    }
    # The server's words are kept as they were.
    assert Room.objects.get(code="SHUTAA").status_reason == "Closed by a moderator: spam: in the name"
