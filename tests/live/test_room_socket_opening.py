"""A room's socket that opens while the room changes hears every change: what its
opening reads, or the notice after (api/consumers.py, RoomConsumer.connect). A change
committed between the read and the socket's joining the room's group would otherwise be
neither, and its client would learn of it only at its next ping."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from api import room_versions
from games import live
from games.selectors import RoomPosition
from games.services import lobby
from tests.sockets import room_socket
from tests.tokens import new_token

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_thread_connections"),
]


async def test_a_change_committed_just_after_the_opening_read_reaches_the_socket(make_user, monkeypatch):
    host = await database_sync_to_async(make_user)()
    room = await database_sync_to_async(lobby.room_create)(host=host, game="hearts", options={})
    token = await database_sync_to_async(new_token)(await database_sync_to_async(make_user)())
    # A listener of the room's group, to know when the change's notice has gone out.
    layer = get_channel_layer()
    probe = await layer.new_channel()
    await layer.group_add(live.group_name(room.code), probe)
    read = room_versions._read
    changed_after_read: list[bool] = []

    async def read_then_change(code: str):
        position = await read(code)
        if not changed_after_read:
            # The room changes as the socket is told where it stood, and its notice has
            # gone out before the socket has finished opening.
            await database_sync_to_async(lobby.room_add_bot)(code=code, user=host)
            changed_after_read.append(True)
            while (await asyncio.wait_for(layer.receive(probe), 10))["type"] != "room.changed":
                pass  # the views pushed with it
        return position

    monkeypatch.setattr(room_versions, "_read", read_then_change)
    ws = room_socket(room.code, token)
    assert (await ws.connect(timeout=15))[0]
    assert await ws.receive_json_from(timeout=3) == {"type": "changed", "version": 0, "seq": 1}
    assert await ws.receive_json_from(timeout=3) == {"type": "changed", "version": 1, "seq": 2}
    await ws.disconnect()
    await layer.group_discard(live.group_name(room.code), probe)


async def test_an_opening_socket_does_not_share_a_read_begun_before_it_joined(monkeypatch):
    """Two sockets of one room: the second joined the group while the first's read was
    under way, so it reads again; a third asking meanwhile shares the second's read, and
    so does a ping, which takes any read under way."""
    versions = room_versions.RoomVersions()
    reads_begun: asyncio.Queue[int] = asyncio.Queue()
    release = asyncio.Event()
    count = 0

    async def slow_read(code: str):
        nonlocal count
        count += 1
        number = count
        reads_begun.put_nowait(number)
        await release.wait()
        return RoomPosition(number, number)

    monkeypatch.setattr(room_versions, "_read", slow_read)
    first = asyncio.ensure_future(versions.position("ROOM", 0, begun_after=versions.mark()))
    assert await asyncio.wait_for(reads_begun.get(), 3) == 1
    mark = versions.mark()  # the second socket has joined now
    second = asyncio.ensure_future(versions.position("ROOM", 0, begun_after=mark))
    assert await asyncio.wait_for(reads_begun.get(), 3) == 2
    third = asyncio.ensure_future(versions.position("ROOM", 0, begun_after=mark))
    ping = asyncio.ensure_future(versions.position("ROOM", 0))
    release.set()
    answers = await asyncio.gather(first, second, third, ping)
    assert count == 2
    assert [a.position for a in answers] == [
        RoomPosition(1, 1),
        RoomPosition(2, 2),
        RoomPosition(2, 2),
        RoomPosition(2, 2),
    ]
    assert versions.reading == {}
