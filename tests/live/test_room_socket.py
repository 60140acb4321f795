"""The room WebSocket against the real Redis channel layer: who may listen, what they
hear, and catching up after a reconnect."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.models import Room, RoomStatus
from games.services import lobby
from tests.sockets import refused_with, room_socket
from tests.tokens import new_token

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_thread_connections"),
]


@database_sync_to_async
def make_room(make_user):
    host, other = make_user(), make_user()
    room = lobby.room_create(host=host, game="hearts", options={})
    other_room = lobby.room_create(host=other, game="hearts", options={})
    return room, other_room, host, other, new_token(host), new_token(other)


async def test_listener_hears_each_change_of_its_room_only(make_user):
    room, other_room, host, other, token, _ = await make_room(make_user)
    ws = room_socket(room.code, token)
    connected, _ = await ws.connect()
    assert connected
    assert await ws.receive_json_from(timeout=3) == {"type": "changed", "version": 0, "seq": 1}
    await database_sync_to_async(lobby.room_add_bot)(code=room.code, user=host)
    assert await ws.receive_json_from(timeout=3) == {"type": "changed", "version": 1, "seq": 2}
    # A change in another room is not announced here.
    await database_sync_to_async(lobby.room_add_bot)(code=other_room.code, user=other)
    assert await ws.receive_nothing(timeout=0.5)
    # Several changes in one transaction make one notice with the final version.
    await database_sync_to_async(lobby.room_add_bot)(code=room.code, user=host)
    await database_sync_to_async(lobby.room_add_bot)(code=room.code, user=host)
    await database_sync_to_async(lobby.room_start)(code=room.code, user=host)
    versions = [(await ws.receive_json_from(timeout=3))["version"] for _ in range(3)]
    assert versions[:2] == [2, 3]
    assert versions[2] > 4  # the start dealt a hand and the bots passed in the same commit
    assert await ws.receive_nothing(timeout=0.3)
    await ws.disconnect()


async def test_anonymous_and_bad_token_are_closed_with_4401(make_user):
    room, *_ = await make_room(make_user)
    for token in (None, "not-a-token"):
        ws = room_socket(room.code, token)
        assert await refused_with(ws) == (4401, "unauthenticated")
        await ws.wait()


async def test_unknown_room_is_closed_with_4404(make_user):
    _, _, _, _, token, _ = await make_room(make_user)
    ws = room_socket("NOPE99", token)
    assert await refused_with(ws) == (4404, "no such room")
    await ws.wait()


async def test_a_private_room_that_is_over_opens_to_its_players_alone(make_user):
    """As its page and its state: to anyone else, as a room that does not exist."""

    @database_sync_to_async
    def over() -> tuple[str, str, str, str]:
        host, stranger, moderator = make_user(), make_user(), make_user(is_staff=True)
        room = lobby.room_create(host=host, game="hearts", options={}, public=False)
        Room.objects.filter(pk=room.pk).update(status=RoomStatus.ABANDONED)
        return room.code, new_token(host), new_token(stranger), new_token(moderator)

    code, host, stranger, moderator = await over()
    ws = room_socket(code, stranger)
    assert await refused_with(ws) == (4404, "no such room")
    await ws.wait()
    for token in (host, moderator):
        ws = room_socket(code, token)
        assert (await ws.connect())[0]
        assert (await ws.receive_json_from(timeout=3))["type"] == "changed"
        await ws.disconnect()


async def test_a_code_that_cannot_exist_is_closed_with_4404_without_a_query(make_user):
    _, _, _, _, token, _ = await make_room(make_user)
    # A NUL would reach PostgreSQL (which refuses it) if the code were looked up.
    for code in ("AB\x00CD", "\x00", "ABCDEFG"):
        ws = room_socket(code, token)
        assert await refused_with(ws) == (4404, "no such room")
        await ws.wait()


async def test_a_refused_listener_hears_no_changes(make_user):
    room, _, host, _, _, _ = await make_room(make_user)
    ws = room_socket(room.code, None)
    assert (await refused_with(ws))[0] == 4401
    # Not in the room's group: a change after the refusal reaches nobody on this socket.
    await database_sync_to_async(lobby.room_add_bot)(code=room.code, user=host)
    assert await ws.receive_nothing(timeout=0.5)
    await ws.wait()


async def test_reconnect_tells_the_current_version(make_user):
    room, _, host, _, token, _ = await make_room(make_user)
    ws = room_socket(room.code, token)
    await ws.connect()
    await ws.receive_json_from(timeout=3)
    await ws.disconnect()
    # Changes while disconnected are not lost: the new socket opens with the version.
    await database_sync_to_async(lobby.room_add_bot)(code=room.code, user=host)
    await database_sync_to_async(lobby.room_add_bot)(code=room.code, user=host)
    ws = room_socket(room.code, token)
    assert (await ws.connect())[0]
    assert await ws.receive_json_from(timeout=3) == {"type": "changed", "version": 2, "seq": 3}
    await ws.send_json_to({"type": "ping"})
    # A ping is answered with the version read from the database.
    assert await ws.receive_json_from(timeout=3) == {"type": "pong", "version": 2, "seq": 3}
    await ws.disconnect()


async def test_a_binary_or_empty_frame_is_ignored(make_user):
    room, _, _, _, token, _ = await make_room(make_user)
    ws = room_socket(room.code, token)
    assert (await ws.connect())[0]
    await ws.receive_json_from(timeout=3)
    # Channels' own JSON consumer raises on these, ending the socket with a server error.
    await ws.send_to(bytes_data=b"\x00\x01")
    await ws.send_input({"type": "websocket.receive", "text": ""})
    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from(timeout=3) == {"type": "pong", "version": 0, "seq": 1}
    await ws.disconnect()
