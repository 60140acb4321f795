"""Room pings answered from the process's record of the room (api/room_versions.py): no
database read while the record is fresh, its notices keep it so, and once it is older
than LIVE_PING_FRESH_SECONDS one read answers all the room's sockets that ask."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from api import room_versions
from games.services import lobby
from tests.sockets import room_socket
from tests.tokens import new_token

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_thread_connections"),
]


@database_sync_to_async
def make_room(make_user):
    host = make_user()
    room = lobby.room_create(host=host, game="hearts", options={})
    tokens = [new_token(make_user()) for _ in range(3)]
    return room.code, host, tokens


@pytest.fixture
def reads(monkeypatch) -> list[str]:
    """The rooms the record read from the database, in order."""
    done: list[str] = []
    read = room_versions._read

    async def counted(code: str):
        done.append(code)
        return await read(code)

    monkeypatch.setattr(room_versions, "_read", counted)
    return done


async def pinged(ws) -> dict:
    await ws.send_json_to({"type": "ping"})
    return await ws.receive_json_from(timeout=3)


async def test_pings_read_nothing_while_the_record_is_fresh_and_notices_keep_it(make_user, reads, settings):
    settings.LIVE_PING_FRESH_SECONDS = 60
    code, host, tokens = await make_room(make_user)
    ws = room_socket(code, tokens[0])
    assert (await ws.connect())[0]
    assert await ws.receive_json_from(timeout=3) == {"type": "changed", "version": 0, "seq": 1}
    assert reads == [code]  # the opening reads the room
    for _ in range(5):
        assert await pinged(ws) == {"type": "pong", "version": 0, "seq": 1}
    await database_sync_to_async(lobby.room_add_bot)(code=code, user=host)
    assert await ws.receive_json_from(timeout=3) == {"type": "changed", "version": 1, "seq": 2}
    # The notice moved the record on: the pong tells it, still without a read.
    assert await pinged(ws) == {"type": "pong", "version": 1, "seq": 2}
    assert reads == [code]
    await ws.disconnect()


async def test_an_old_record_is_read_again_once_for_all_sockets(make_user, reads, settings):
    # The record's clock is turned by hand: however slow the machine, nothing ages but by the test.
    settings.LIVE_PING_FRESH_SECONDS = 2
    now = [1000.0]
    layer = get_channel_layer()
    layer.room_versions = room_versions.RoomVersions(clock=lambda: now[0])
    try:
        code, _, tokens = await make_room(make_user)
        sockets = [room_socket(code, token) for token in tokens]
        for ws in sockets:
            assert (await ws.connect())[0]
            await ws.receive_json_from(timeout=3)
        opened = len(reads)
        now[0] += 3  # the record is older than LIVE_PING_FRESH_SECONDS now
        for ws in sockets:
            await ws.send_json_to({"type": "ping"})
        pongs = [await ws.receive_json_from(timeout=3) for ws in sockets]
        assert pongs == [{"type": "pong", "version": 0, "seq": 1}] * 3
        assert len(reads) == opened + 1
        for ws in sockets:
            await ws.disconnect()
    finally:
        del layer.room_versions
