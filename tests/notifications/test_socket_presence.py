"""ws/me/ sockets through the real ASGI stack and the Redis channel layer: while one is
open its player is at the screen and no notice goes; closed, the waiting turn is told."""

from __future__ import annotations

import asyncio

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from rest_framework.authtoken.models import Token

from config.asgi import application
from notifications.models import SocketPresence, TurnNotice
from notifications.services import turns

from .conftest import after_wait, start_room, subscribe

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


@pytest_asyncio.fixture(autouse=True)
async def close_thread_connections():
    # database_sync_to_async runs in a worker thread whose connection outlives the test.
    yield
    await database_sync_to_async(connections.close_all)()


@database_sync_to_async
def waiting_player(make_user, push_service):
    player = make_user()
    start_room(player)
    subscribe(player, push_service, "/push/socket")
    return player, Token.objects.create(user=player).key


@database_sync_to_async
def scan_and_deliver() -> int:
    now = after_wait()
    return sum(turns.turn_notice_delivered(user_id=u, now=now).pushed for u in turns.waiting_turns_claim(now=now))


@database_sync_to_async
def presences() -> list[tuple[int, object]]:
    return list(SocketPresence.objects.values_list("user_id", "seen_at"))


async def test_no_notice_while_the_socket_is_open_and_one_after_it_closed(push_on, push_service, make_user):
    player, token = await waiting_player(make_user, push_service)
    ws = WebsocketCommunicator(application, f"/ws/me/?token={token}", headers=HEADERS)
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
    ws = WebsocketCommunicator(application, f"/ws/me/?token={token}", headers=HEADERS)
    assert (await ws.connect())[0]
    [(_, first)] = await presences()
    await asyncio.sleep(0.6)
    [(_, later)] = await presences()
    assert later > first
    await ws.disconnect()
    assert await presences() == []


async def test_a_refused_socket_marks_nobody_present(make_user):
    ws = WebsocketCommunicator(application, "/ws/me/?token=not-a-token", headers=HEADERS)
    assert (await ws.connect())[0]
    message = await ws.receive_output(timeout=3)
    assert message["type"] == "websocket.close" and message["code"] == 4401
    await ws.wait()
    assert await presences() == []
