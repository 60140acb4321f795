"""Sockets take an app's OAuth2 access token or a personal token with the `read` scope,
as they take the player's own token; without `read` (or revoked) they are refused with
4401, as an unknown token is."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.services import lobby
from grants import services
from tests.oauth import token_for
from tests.sockets import refused_with, socket_client

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_thread_connections"),
]


@database_sync_to_async
def room_and_app_token(make_user, scope):
    """A Hearts room in the lobby, its host, and an OAuth2 token an app got for the host."""
    host = make_user()
    room = lobby.room_create(host=host, game="hearts", options={})
    _, token = token_for(host, scope)
    return room.code, host, token


@database_sync_to_async
def personal_token(user, scope):
    return services.personal_token_create(user=user, name="socket script", scope=scope)[1]


@database_sync_to_async
def add_bot(code, host):
    lobby.room_add_bot(code=code, user=host)


async def follows(ws, code, host):
    """`ws` is served: it opens with the room's version and hears the next change."""
    connected, _ = await ws.connect()
    assert connected
    first = await ws.receive_json_from(timeout=3)
    assert (first["type"], first["version"]) == ("changed", 0)
    await add_bot(code, host)
    # With the host's own view: the app reads what its person may.
    second = await ws.receive_json_from(timeout=3)
    assert (second["type"], second["version"], second["view"]["you"]["seat"]) == ("view", 1, 0)
    await ws.disconnect()


async def test_an_oauth2_token_with_read_follows_a_room(make_user):
    code, host, token = await room_and_app_token(make_user, "read")
    await follows(socket_client(f"/ws/rooms/{code}/", token=token, origin="https://thirdparty.example"), code, host)


async def test_a_personal_token_with_read_follows_a_room(make_user):
    code, host, _ = await room_and_app_token(make_user, "read")
    secret = await personal_token(host, ["read"])
    await follows(socket_client(f"/ws/rooms/{code}/", token=secret), code, host)


async def test_an_oauth2_token_with_read_opens_the_own_socket(make_user):
    _, _, token = await room_and_app_token(make_user, "read")
    ws = socket_client("/ws/me/", token=token)
    assert (await ws.connect())[0]
    await ws.disconnect()


async def test_a_token_without_read_is_refused(make_user):
    code, host, token = await room_and_app_token(make_user, "play")
    assert (await refused_with(socket_client(f"/ws/rooms/{code}/", token=token)))[0] == 4401
    secret = await personal_token(host, ["notifications"])
    assert (await refused_with(socket_client("/ws/me/", token=secret)))[0] == 4401
