"""ws/me/ sockets through the real ASGI stack and the Redis channel layer: while one is
open its player is at the screen and no notice goes; closed, the waiting turn is told."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async

from notifications.models import SocketPresence, TurnNotice
from notifications.services import turns
from tests.sockets import user_socket
from tests.tokens import new_token

from .conftest import after_wait, start_room, subscribe

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_thread_connections"),
]


@database_sync_to_async
def waiting_player(make_user, push_service):
    player = make_user()
    start_room(player)
    subscribe(player, push_service, "/push/socket")
    return player, new_token(player)


@database_sync_to_async
def scan_and_deliver() -> int:
    now = after_wait()
    return sum(turns.turn_notice_delivered(user_id=u, now=now).pushed for u in turns.waiting_turns_claim(now=now))


@database_sync_to_async
def presences() -> list[tuple[int, object]]:
    return list(SocketPresence.objects.values_list("user_id", "seen_at"))


async def test_no_notice_while_the_socket_is_open_and_one_after_it_closed(push_on, push_service, make_user):
    player, token = await waiting_player(make_user, push_service)
    ws = user_socket(token)
    connected, _ = await ws.connect()
    assert connected
    assert [user_id for user_id, _ in await presences()] == [player.pk]

    assert await scan_and_deliver() == 0
    assert push_service.received == []
    assert not await database_sync_to_async(TurnNotice.objects.exists)()

    await ws.disconnect()
    assert await presences() == []
    assert await scan_and_deliver() == 1
    assert len(push_service.at("/push/socket")) == 1


async def test_an_open_socket_refreshes_its_presence(push_on, push_service, make_user, settings):
    settings.NOTIFY_PRESENCE_REFRESH_SECONDS = 0.2
    _, token = await waiting_player(make_user, push_service)
    ws = user_socket(token)
    assert (await ws.connect())[0]
    [(_, first)] = await presences()
    await asyncio.sleep(0.6)
    [(_, later)] = await presences()
    assert later > first
    await ws.disconnect()
    assert await presences() == []


async def test_a_refused_socket_marks_nobody_present(make_user):
    ws = user_socket("not-a-token")
    assert (await ws.connect())[0]
    message = await ws.receive_output(timeout=3)
    assert message["type"] == "websocket.close" and message["code"] == 4401
    await ws.wait()
    assert await presences() == []
