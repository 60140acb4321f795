"""Without Redis (the embedded start) the channel layer lives in the serving process's
memory, so changes made by other processes — the Celery worker, beat — reach its sockets
only through the version watch. These tests make the change in a separate process that
has no way to announce it, exactly like a worker on the embedded defaults."""

from __future__ import annotations

import time

import pytest
from channels.db import database_sync_to_async
from django.test import override_settings

from games.services import lobby
from tests.elsewhere import add_bot_elsewhere
from tests.servers import database_url
from tests.sockets import room_socket
from tests.tokens import new_token

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_thread_connections"),
]

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
WATCH_SECONDS = 0.2


@pytest.fixture(autouse=True)
def in_memory_layer():
    with override_settings(CHANNEL_LAYERS=IN_MEMORY, LIVE_WATCH_SECONDS=WATCH_SECONDS):
        yield


def add_bot_in_another_process(code: str, username: str) -> None:
    add_bot_elsewhere(database_url(), code, username)


@database_sync_to_async
def make_room(make_user):
    host = make_user()
    room = lobby.room_create(host=host, game="hearts", options={})
    return room, host, new_token(host)


async def test_a_change_made_by_another_process_is_announced_within_the_interval(make_user):
    room, host, token = await make_room(make_user)
    ws, other = room_socket(room.code, token), room_socket(room.code, token)
    assert (await ws.connect())[0] and (await other.connect())[0]
    assert await ws.receive_json_from(timeout=3) == {"type": "changed", "version": 0, "seq": 1}
    assert await other.receive_json_from(timeout=3) == {"type": "changed", "version": 0, "seq": 1}
    await database_sync_to_async(add_bot_in_another_process)(room.code, host.username)
    written = time.monotonic()
    assert await ws.receive_json_from(timeout=3) == {"type": "changed", "version": 1, "seq": 2}
    assert time.monotonic() - written < 1.0
    # Every socket of the room hears it, once.
    assert await other.receive_json_from(timeout=3) == {"type": "changed", "version": 1, "seq": 2}
    assert await ws.receive_nothing(timeout=3 * WATCH_SECONDS)
    await other.disconnect()
    # The watch goes on for the sockets still open.
    await database_sync_to_async(add_bot_in_another_process)(room.code, host.username)
    assert await ws.receive_json_from(timeout=3) == {"type": "changed", "version": 2, "seq": 3}
    await ws.disconnect()


async def test_a_change_of_this_process_is_announced_at_once_and_not_twice(make_user):
    room, host, token = await make_room(make_user)
    ws = room_socket(room.code, token)
    assert (await ws.connect())[0]
    await ws.receive_json_from(timeout=3)
    await database_sync_to_async(lobby.room_add_bot)(code=room.code, user=host)
    assert await ws.receive_json_from(timeout=WATCH_SECONDS / 2) == {"type": "changed", "version": 1, "seq": 2}
    # The watch may repeat a version the layer already carried; it never goes back.
    extra = []
    while not await ws.receive_nothing(timeout=3 * WATCH_SECONDS):
        extra.append(await ws.receive_json_from())
    assert all(m == {"type": "changed", "version": 1, "seq": 2} for m in extra) and len(extra) <= 1
    await ws.disconnect()


async def test_the_ping_answer_tells_a_version_that_was_never_announced(make_user):
    room, host, token = await make_room(make_user)
    # No watch: the notice is lost for good. The process's record of the room, read at
    # the opening, is trusted for pings for 0.2 s.
    with override_settings(LIVE_WATCH_SECONDS=0, LIVE_PING_FRESH_SECONDS=0.2):
        ws = room_socket(room.code, token)
        assert (await ws.connect())[0]
        await ws.receive_json_from(timeout=3)
        await database_sync_to_async(add_bot_in_another_process)(room.code, host.username)
        assert await ws.receive_nothing(timeout=0.5)
        # The client's slow check finds it.
        await ws.send_json_to({"type": "ping"})
        assert await ws.receive_json_from(timeout=3) == {"type": "pong", "version": 1, "seq": 2}
        await ws.disconnect()
