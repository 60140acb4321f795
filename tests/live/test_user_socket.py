"""ws/me/: a player's own notices from every room they sit in — their turns beginning
and their matches ending — against the real Redis channel layer, and through the
database poll where the layer is in memory (the embedded start)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import override_settings

from games import selectors
from games.services import lobby, play, table_moderation
from tests.api.helpers import concrete
from tests.sockets import heard_more, room_socket, socket_client, user_socket
from tests.tokens import new_token

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_thread_connections"),
]


@database_sync_to_async
def two_player_room(make_user):
    """A Hearts room of two people and two computer players, in the lobby."""
    host, guest = make_user(), make_user()
    room = lobby.room_create(host=host, game="hearts", options={})
    lobby.room_join(code=room.code, user=guest)
    for _ in range(2):
        lobby.room_add_bot(code=room.code, user=host)
    return room.code, host, guest, new_token(host), new_token(guest)


@database_sync_to_async
def start(code, user):
    lobby.room_start(code=code, user=user)
    return selectors.view_by_code(code=code, user=user)


@database_sync_to_async
def move(code, user):
    """The user's first legal action; the room's view for them afterwards."""
    view = selectors.view_by_code(code=code, user=user)
    action = concrete(view["you"]["legal_actions"][0])
    play.action_submit(code=code, user=user, version=view["version"], action=action, idempotency_key=None)
    return selectors.view_by_code(code=code, user=user)


@database_sync_to_async
def turns(user):
    return selectors.turns_of(user=user)


async def test_a_turn_beginning_is_announced_to_that_player_only(make_user):
    code, host, guest, host_token, guest_token = await two_player_room(make_user)
    host_ws, guest_ws = user_socket(host_token), user_socket(guest_token)
    assert (await host_ws.connect())[0] and (await guest_ws.connect())[0]
    # Nothing while the room is in the lobby, whatever changes there.
    assert await host_ws.receive_nothing(timeout=0.3)
    view = await start(code, host)
    # Everyone passes at once: both players' turns begin with the deal.
    for ws, user in ((host_ws, host), (guest_ws, guest)):
        notice = await ws.receive_json_from(timeout=3)
        listed = await turns(user)
        assert notice == {
            "type": "your_turn",
            "room": code,
            "version": listed[0]["version"],
            "deadline": listed[0]["deadline"],
        }
        assert notice["version"] >= view["version"]
    # The host passes: nothing for either while the guest's turn goes on.
    await move(code, host)
    assert await host_ws.receive_nothing(timeout=0.3)
    assert await guest_ws.receive_nothing(timeout=0.3)
    await host_ws.disconnect()
    await guest_ws.disconnect()


async def test_match_over_reaches_every_seated_player(make_user):
    code, host, guest, host_token, guest_token = await two_player_room(make_user)
    host_ws, guest_ws = user_socket(host_token), user_socket(guest_token)
    assert (await host_ws.connect())[0] and (await guest_ws.connect())[0]
    # The deal's turns are heard first: notices go out from a thread of their own, so a
    # socket opened just after the start could still hear them after the close.
    await start(code, host)
    for ws in (host_ws, guest_ws):
        assert (await ws.receive_json_from(timeout=3))["type"] == "your_turn"
    await database_sync_to_async(table_moderation.room_close)(code=code, reason="Spam")
    for ws in (host_ws, guest_ws):
        assert await ws.receive_json_from(timeout=3) == {"type": "match_over", "room": code}
        assert await heard_more(ws) == []
    assert await turns(host) == [] and await turns(guest) == []
    await host_ws.disconnect()
    await guest_ws.disconnect()


async def test_anonymous_and_bad_token_are_closed_with_4401():
    for token in (None, "not-a-token"):
        ws = user_socket(token)
        connected, _ = await ws.connect()
        assert connected
        message = await ws.receive_output(timeout=3)
        assert (message["type"], message["code"]) == ("websocket.close", 4401)


async def test_a_ping_is_answered_and_anything_else_ignored(make_user):
    *_, host_token, _ = await two_player_room(make_user)
    ws = user_socket(host_token)
    assert (await ws.connect())[0]
    for ignored in ({"type": "your_turn"}, ["ping"], "ping"):
        await ws.send_json_to(ignored)
    await ws.send_to(text_data="not json at all")
    assert await ws.receive_nothing(timeout=0.3)
    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from(timeout=3) == {"type": "pong"}
    assert await ws.receive_nothing(timeout=0.3)
    await ws.disconnect()


@override_settings(
    CHANNEL_LAYERS={"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}, LIVE_WATCH_SECONDS=0.1
)
async def test_without_redis_the_socket_reads_turns_and_ends_from_the_database(make_user):
    code, host, _, host_token, _ = await two_player_room(make_user)
    ws = user_socket(host_token)
    assert (await ws.connect())[0]
    # What the database says when the socket opens is known, not announced.
    assert await ws.receive_nothing(timeout=0.4)
    await start(code, host)
    listed = await turns(host)
    assert await ws.receive_json_from(timeout=3) == {
        "type": "your_turn",
        "room": code,
        "version": listed[0]["version"],
        "deadline": listed[0]["deadline"],
    }
    await database_sync_to_async(table_moderation.room_close)(code=code, reason="Spam")
    assert await ws.receive_json_from(timeout=3) == {"type": "match_over", "room": code}
    assert await ws.receive_nothing(timeout=0.4)
    await ws.disconnect()


async def test_a_frame_that_is_not_json_leaves_the_room_socket_serving(make_user):
    code, _, _, host_token, _ = await two_player_room(make_user)
    ws = room_socket(code, host_token)
    assert (await ws.connect())[0]
    first = await ws.receive_json_from(timeout=3)
    await ws.send_to(text_data="{not json")
    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from(timeout=3) == {"type": "pong", "version": first["version"], "seq": first["seq"]}
    await ws.disconnect()


@database_sync_to_async
def ban(user, moderator):
    from moderation.services import user_ban

    user_ban(moderator=moderator, user=user, reason="Abuse in the chat")


@pytest.mark.parametrize("client", ["site", "app"])
@pytest.mark.parametrize("layer", ["redis", "memory"])
async def test_a_ban_closes_every_socket_of_the_account_with_4401(make_user, layer, client, settings):
    """On the site's pages and in an app that sends no `Origin` (a phone's) alike."""
    if layer == "memory":
        # The embedded start: a moderator's ban in the same process reaches its sockets.
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    code, host, guest, host_token, guest_token = await two_player_room(make_user)
    await start(code, host)
    moderator = await database_sync_to_async(make_user)(is_staff=True, is_superuser=True)
    if client == "site":
        own, room = user_socket(guest_token), room_socket(code, guest_token)
    else:
        own = socket_client("/ws/me/", token=guest_token)
        room = socket_client(f"/ws/rooms/{code}/", token=guest_token)
    other = room_socket(code, host_token)
    for ws in (own, room, other):
        assert (await ws.connect())[0]
    first = await room.receive_json_from(timeout=3)
    assert first["type"] == "changed"
    await other.receive_json_from(timeout=3)
    await ban(guest, moderator)
    # Both of the banned person's sockets close, told why; nothing more reaches them.
    for ws in (own, room):
        while (message := await ws.receive_output(timeout=3))["type"] != "websocket.close":
            assert message["type"] == "websocket.send"
        assert (message["code"], message.get("reason")) == (4401, "banned")
    # Everyone else's stay open and hear of the change (the seat given to a computer player).
    changed = await other.receive_json_from(timeout=3)
    assert changed["type"] == "changed" and changed["version"] > first["version"]
    await other.disconnect()
