"""Sockets for clients the site did not write: a native app or script sends a token and no
`Origin`, a frontend on another site sends a token and its own origin; both are served.
The session cookie counts only on a socket from the site's own hosts or an origin
`CORS_ALLOWED_ORIGINS` lists (api/ws_auth.py). Every refusal is a close code, never a
failed handshake or a server error, and both paths are served with or without their
trailing slash."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client, override_settings

from games.services import lobby
from tests.sockets import SITE_ORIGIN, refused_with, socket_client
from tests.tokens import new_token

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_thread_connections"),
]

FRONTEND = "https://frontend.example"


@database_sync_to_async
def room_of_host(make_user):
    """A Hearts room in the lobby, its host, the host's token and a session of theirs."""
    host = make_user()
    room = lobby.room_create(host=host, game="hearts", options={})
    client = Client()
    client.force_login(host)
    return room.code, host, new_token(host), client.session.session_key


@database_sync_to_async
def add_bot(code, host):
    lobby.room_add_bot(code=code, user=host)


@database_sync_to_async
def join_and_start(code, host, make_user):
    """Fill the room with a second player and computer players, and start: the host's turn
    (Hearts' pass) begins."""
    lobby.room_join(code=code, user=make_user())
    for _ in range(2):
        lobby.room_add_bot(code=code, user=host)
    lobby.room_start(code=code, user=host)


async def follows(ws, code, host):
    """The room socket `ws` is served: it opens with the version and hears the next change,
    with its caller's view."""
    connected, _ = await ws.connect()
    assert connected
    assert await ws.receive_json_from(timeout=3) == {"type": "changed", "version": 0, "seq": 1}
    await add_bot(code, host)
    view = await ws.receive_json_from(timeout=3)
    assert (view["type"], view["version"], view["seq"], view["view"]["you"]["seat"]) == ("view", 1, 2, 0)
    await ws.disconnect()


async def test_a_token_needs_no_origin_on_the_room_socket(make_user):
    code, host, token, _ = await room_of_host(make_user)
    await follows(socket_client(f"/ws/rooms/{code}/", token=token), code, host)


async def test_a_token_needs_no_origin_on_the_own_socket(make_user):
    code, host, token, _ = await room_of_host(make_user)
    ws = socket_client("/ws/me/", token=token)
    assert (await ws.connect())[0]
    await join_and_start(code, host, make_user)
    notice = await ws.receive_json_from(timeout=3)
    assert (notice["type"], notice["room"]) == ("your_turn", code)
    await ws.disconnect()


async def test_a_token_is_served_from_any_origin(make_user):
    code, host, token, _ = await room_of_host(make_user)
    # Not listed anywhere: the token, not the page, is the credential.
    await follows(socket_client(f"/ws/rooms/{code}/", token=token, origin="https://thirdparty.example"), code, host)


async def test_a_bad_token_is_closed_with_4401_whatever_the_origin(make_user):
    code, _, _, session = await room_of_host(make_user)
    for origin in (None, "https://thirdparty.example", SITE_ORIGIN):
        # A bad token is not made good by a valid session beside it.
        ws = socket_client(f"/ws/rooms/{code}/", token="not-a-token", origin=origin, session=session)
        assert await refused_with(ws) == (4401, "unauthenticated")
        await ws.wait()


async def test_an_unknown_room_is_closed_with_4404_without_an_origin(make_user):
    _, _, token, _ = await room_of_host(make_user)
    ws = socket_client("/ws/rooms/NOPE99/", token=token)
    assert await refused_with(ws) == (4404, "no such room")
    await ws.wait()


async def test_the_session_is_served_from_the_sites_own_origin(make_user):
    code, host, _, session = await room_of_host(make_user)
    await follows(socket_client(f"/ws/rooms/{code}/", origin=SITE_ORIGIN, session=session), code, host)


async def test_the_session_from_a_foreign_origin_is_closed_with_4403(make_user):
    # Another site's page opening the socket: the browser would lend it the player's session.
    code, host, _, session = await room_of_host(make_user)
    for path in (f"/ws/rooms/{code}/", "/ws/me/"):
        ws = socket_client(path, origin="https://evil.example", session=session)
        assert await refused_with(ws) == (4403, "origin not allowed")
        await ws.wait()
    # Nor does it join the room: a change after the refusal reaches nobody.
    ws = socket_client(f"/ws/rooms/{code}/", origin="https://evil.example", session=session)
    assert (await refused_with(ws))[0] == 4403
    await add_bot(code, host)
    assert await ws.receive_nothing(timeout=0.5)
    await ws.wait()


async def test_the_session_from_an_origin_cors_allows_is_served(make_user):
    code, host, _, session = await room_of_host(make_user)
    with override_settings(CORS_ALLOWED_ORIGINS=[FRONTEND]):
        await follows(socket_client(f"/ws/rooms/{code}/", origin=FRONTEND, session=session), code, host)
        # Exactly that origin: another port of the same host is another site.
        ws = socket_client(f"/ws/rooms/{code}/", origin=FRONTEND + ":8443", session=session)
        assert (await refused_with(ws))[0] == 4403


async def test_a_session_without_an_origin_is_not_read(make_user):
    # No browser sends no Origin; a client that holds a cookie and hides where it runs is
    # anonymous, and is told to bring a token.
    code, _, _, session = await room_of_host(make_user)
    ws = socket_client(f"/ws/rooms/{code}/", session=session)
    assert await refused_with(ws) == (4401, "unauthenticated")
    await ws.wait()


async def test_paths_are_served_without_their_trailing_slash(make_user):
    code, host, token, _ = await room_of_host(make_user)
    await follows(socket_client(f"/ws/rooms/{code}", token=token), code, host)
    ws = socket_client("/ws/me", token=token)
    assert (await ws.connect())[0]
    assert await ws.receive_nothing(timeout=0.3), "the own socket stays open, quiet in the lobby"
    await ws.disconnect()


async def test_an_unknown_path_is_closed_with_4404(make_user, caplog):
    code, _, token, _ = await room_of_host(make_user)
    for path in ("/ws/nothing/", "/ws/rooms/", f"/ws/rooms/{code}/extra/", "/ws/me/more", "/elsewhere"):
        ws = socket_client(path, token=token)
        assert await refused_with(ws) == (4404, "no such socket"), path
        await ws.wait()
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
