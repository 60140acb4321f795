"""A rematch with the same players, where everyone agrees: through the API, after an
abandoned match and a finished one, with hostile callers."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Event, Room, RoomStatus, Seat
from games.services import due, lobby, table_moderation

from .helpers import error_code

pytestmark = pytest.mark.django_db


def abandoned_room(make_user, people: int = 2) -> tuple[Room, list]:
    """A Hearts room of `people` people and computer players, abandoned by seat 0's idleness."""
    users = [make_user() for _ in range(people)]
    options = {"turn_seconds": 30, "abandon_seconds": 30}
    room = lobby.room_create(host=users[0], game="hearts", options=options, name="Friday", public=False)
    for user in users[1:]:
        lobby.room_join(code=room.code, user=user)
    for _ in range(4 - people):
        lobby.room_add_bot(code=room.code, user=users[0])
    lobby.room_start(code=room.code, user=users[0])
    Seat.objects.filter(room=room, index=0).update(turn_since=timezone.now() - timedelta(minutes=5))
    due.due_actions_apply(code=room.code, now=timezone.now())
    room.refresh_from_db()
    assert room.status == RoomStatus.ABANDONED
    return room, users


def test_everyone_agrees_and_the_rematch_starts_with_the_same_players(make_user, api_client):
    room, users = abandoned_room(make_user)
    first = api_client(users[1]).post(f"/api/v1/rooms/{room.code}/rematch")
    assert first.status_code == 200, first.content
    assert first.json()["rematch"] == {"agreed": [1], "room": None}
    # Asking again changes nothing.
    again = api_client(users[1]).post(f"/api/v1/rooms/{room.code}/rematch")
    assert again.json()["rematch"] == {"agreed": [1], "room": None}
    last = api_client(users[0]).post(f"/api/v1/rooms/{room.code}/rematch")
    assert last.status_code == 200
    code = last.json()["rematch"]["room"]
    assert code is not None and code != room.code
    new = Room.objects.get(code=code)
    assert new.status == RoomStatus.PLAYING
    assert (new.game, new.name, new.public) == (room.game, room.name, room.public)
    assert {k: v for k, v in new.options.items() if k != "rated"} == {
        k: v for k, v in room.options.items() if k != "rated"
    }
    seats = list(Seat.objects.filter(room=new).order_by("index"))
    assert {s.user_id for s in seats if s.user_id} == {u.pk for u in users}
    assert sum(s.is_bot for s in seats) == 2
    # Everyone learns of it: the old room's view and its log name the new room.
    view = api_client(users[1]).get(f"/api/v1/rooms/{room.code}/state").json()
    assert view["rematch"] == {"agreed": [0, 1], "room": code}
    assert Event.objects.filter(room=room, data__type="rematch", data__room=code).count() == 1
    # Once made, agreeing again makes no second one.
    assert api_client(users[1]).post(f"/api/v1/rooms/{room.code}/rematch").json()["rematch"]["room"] == code
    assert Room.objects.filter(status=RoomStatus.PLAYING, name="Friday").count() == 1


def test_no_rematch_while_the_match_is_played_for_strangers_or_after_a_moderator_closed_it(make_user, api_client):
    users = [make_user() for _ in range(2)]
    room = lobby.room_create(host=users[0], game="hearts", options={})
    lobby.room_join(code=room.code, user=users[1])
    lobby.room_add_bot(code=room.code, user=users[0])
    lobby.room_add_bot(code=room.code, user=users[0])
    lobby.room_start(code=room.code, user=users[0])
    playing = api_client(users[0]).post(f"/api/v1/rooms/{room.code}/rematch")
    assert (playing.status_code, error_code(playing)) == (409, "match_not_over")
    stranger = api_client(make_user()).post(f"/api/v1/rooms/{room.code}/rematch")
    assert (stranger.status_code, error_code(stranger)) == (403, "not_seated")
    assert api_client().post(f"/api/v1/rooms/{room.code}/rematch").status_code == 401
    assert api_client(users[0]).post("/api/v1/rooms/ZZZZZZ/rematch").status_code == 404
    table_moderation.room_close(code=room.code, reason="spam")
    closed = api_client(users[0]).post(f"/api/v1/rooms/{room.code}/rematch")
    assert (closed.status_code, error_code(closed)) == (409, "room_closed")
    room.refresh_from_db()
    assert room.rematch_agreed == [] and room.rematch_code == ""
    assert api_client(users[0]).get(f"/api/v1/rooms/{room.code}/state").json()["rematch"] is None


def test_a_seat_given_away_for_good_needs_no_agreement_and_becomes_a_computer_player(make_user, api_client):
    room, users = abandoned_room(make_user, people=3)
    # Seat 2's person was banned from the table after the end: a computer player's now.
    Seat.objects.filter(room=room, index=2).update(user=None, is_bot=True)
    api_client(users[0]).post(f"/api/v1/rooms/{room.code}/rematch")
    code = api_client(users[1]).post(f"/api/v1/rooms/{room.code}/rematch").json()["rematch"]["room"]
    assert code is not None
    seats = Seat.objects.filter(room__code=code)
    assert {s.user_id for s in seats if s.user_id} == {users[0].pk, users[1].pk}
    assert seats.filter(is_bot=True).count() == 2
