"""Rooms the socket tests play in."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from games import selectors
from games.services import lobby
from tests.tokens import new_token


@database_sync_to_async
def hearts_of_four(make_user) -> tuple[str, dict[int, Any], Any, dict[int, str], str]:
    """A started Hearts room of four people: its code, the players by seat, a spectator,
    the players' tokens by seat and the spectator's."""
    people = [make_user() for _ in range(4)]
    room = lobby.room_create(host=people[0], game="hearts", options={})
    for person in people[1:]:
        lobby.room_join(code=room.code, user=person)
    lobby.room_start(code=room.code, user=people[0])
    players = {seat.index: seat.user for seat in selectors.table_of(code=room.code).seats}
    spectator = make_user()
    tokens = {seat: new_token(user) for seat, user in players.items()}
    return room.code, players, spectator, tokens, new_token(spectator)
