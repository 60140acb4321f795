from __future__ import annotations

from typing import Any

import pytest

from games.models import Room
from games.services import lobby


@pytest.fixture
def table(make_user) -> Any:
    """A started Hearts room: (room, users). Bots fill seats after the humans."""

    def make(humans: int = 4, **options: Any) -> tuple[Room, list[Any]]:
        users = [make_user() for _ in range(humans)]
        room = lobby.room_create(host=users[0], game="hearts", options=options)
        for user in users[1:]:
            lobby.room_join(code=room.code, user=user)
        for _ in range(4 - humans):
            lobby.room_add_bot(code=room.code, user=users[0])
        lobby.room_start(code=room.code, user=users[0])
        room.refresh_from_db()
        return room, users

    return make
