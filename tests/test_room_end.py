"""Every way a room ends writes the same facts (games.services.ending.room_end): its
status and reason (as a cause's code and in the server's words), when it ended, one more
version, the event that says so, and a hand in play with nothing due in it any more."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from games import selectors
from games.models import Event, Room, RoomStatus, Round
from games.services import due, lobby, table_moderation
from tests.ratings.play import play_out, room_ready

pytestmark = pytest.mark.django_db

CLOCK = ("deadline_at", "bots_due_at", "due_at", "task_due_at")


def started(make_user: Any, **options: Any) -> tuple[Room, list[Any]]:
    people = [make_user() for _ in range(2)]
    return room_ready("hearts", options, people, bots=2), people


def assert_ended(
    room: Room, status: str, version_before: int, event_type: str | None, cause: dict[str, Any] | None = None
) -> None:
    room.refresh_from_db()
    assert room.status == status
    assert room.finished_at is not None
    assert room.version > version_before
    assert selectors.view_by_code(code=room.code, user=None)["to_act"] == []
    if event_type is not None:
        last = Event.objects.filter(room=room).order_by("-seq").first()
        assert last is not None and last.data["type"] == event_type
        assert last.data.get("reason", room.status_reason) == room.status_reason
        # The event and every view name the same cause, for each reader's client to word.
        assert cause is not None and last.data["cause"] == cause["code"]
        assert last.data.get("words") == cause["words"]
    assert selectors.view_by_code(code=room.code, user=None)["status_cause"] == cause
    for round_ in Round.objects.filter(room=room):
        assert {name: getattr(round_, name) for name in CLOCK} == dict.fromkeys(CLOCK)


def test_an_idle_players_abandonment_ends_the_room_and_its_clock(make_user):
    room, _ = started(make_user, turn_seconds=30, abandon_seconds=60)
    round_ = selectors.table_of(code=room.code).round
    assert round_ is not None and round_.due_at is not None
    version = room.version
    assert due.due_actions_apply(code=room.code, now=round_.started_at + timedelta(hours=1)) is True
    room.refresh_from_db()
    idle = room.status_seat
    assert idle is not None and "did not play in time" in room.status_reason
    assert_ended(room, RoomStatus.ABANDONED, version, "abandoned", {"code": "idle", "seat": idle, "words": None})


def test_a_moderators_close_ends_the_room_and_its_clock(make_user):
    room, _ = started(make_user)
    version = room.version
    table_moderation.room_close(code=room.code, reason="spam in the room name")
    words = "spam in the room name"
    assert_ended(room, RoomStatus.CLOSED, version, "closed", {"code": "moderator", "seat": None, "words": words})
    assert room.status_reason == "Closed by a moderator: spam in the room name"
    assert room.status_seat is None


def test_a_lobby_everyone_left_ends_before_any_hand(make_user):
    host = make_user()
    room = lobby.room_create(host=host, game="hearts", options={})
    version = room.version
    lobby.room_leave(code=room.code, user=host)
    assert_ended(
        room, RoomStatus.ABANDONED, version, "abandoned", {"code": "everyone_left", "seat": None, "words": None}
    )
    assert room.status_reason == "Everyone left before the start."
    assert not Round.objects.filter(room=room).exists()


def test_a_match_over_ends_the_room_and_its_clock(make_user):
    people = [make_user() for _ in range(4)]
    room = room_ready("hearts", {"target": 20}, people)
    version = room.version
    play_out(room, people, seed=3)
    # The engine's own event closes the log; the room adds none.
    assert_ended(room, RoomStatus.FINISHED, version, None)
    assert room.status_reason == "" and room.status_seat is None and room.status_cause == ""
