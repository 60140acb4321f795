"""Moving a real match on through the services, for turns that really wait."""

from __future__ import annotations

from typing import Any

from games import rules
from games.models import Room, RoomStatus, Round, Seat
from games.services import play


def state_of(room: Room) -> dict[str, Any]:
    return Round.objects.filter(room=room).order_by("-number").values_list("state", flat=True).first()


def act_once(user: Any, room: Room) -> None:
    """The player's move, chosen as the computer player would choose it."""
    room.refresh_from_db()
    seat = Seat.objects.get(room=room, user=user)
    action = rules.get(room.game).bot_action(state_of(room), seat.index)
    play.action_submit(code=room.code, user=user, version=room.version, action=action)


def act_and_wait_again(user: Any, room: Room) -> None:
    """The player moves; the computer players move at once, and the game waits for the
    player again: a new wait, whether or not the turn stayed theirs."""
    act_once(user, room)
    room.refresh_from_db()
    assert room.status == RoomStatus.PLAYING, room.status
    assert Seat.objects.get(room=room, user=user).turn_since is not None
