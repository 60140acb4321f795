"""The handshake gate (api/socket_limits.py): a socket not served within
WS_ACCEPT_BUDGET_SECONDS is closed with 1013, and its opening, still under way unseen,
stops there: no presence record (which would keep its player from notices), no count
among the open sockets. The opening is held until the gate has closed the socket, so
the order is the test's, not the machine's."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db.models.signals import post_save

from api.routing import websocket_urlpatterns
from api.socket_closes import TRY_AGAIN_LATER
from api.socket_limits import HandshakeGate
from api.ws_auth import token_or_session_auth
from notifications.models import SocketPresence
from tests.sockets import HEADERS, user_socket
from tests.tokens import new_token

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_thread_connections"),
]


def held_until_the_gate_closes(inner: Any) -> Any:
    """The application, begun only once the gate has closed the socket (as on a machine
    too busy to read the credential within the budget)."""

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> Any:
        while not scope["handshake_gate"].closed:
            await asyncio.sleep(0.01)
        return await inner(scope, receive, send)

    return app


@pytest.fixture
def presence_writes():
    written: list[str] = []

    def record(sender: Any, instance: SocketPresence, **kwargs: Any) -> None:
        written.append(instance.channel_name)

    post_save.connect(record, sender=SocketPresence, dispatch_uid="test-presence-writes")
    yield written
    post_save.disconnect(dispatch_uid="test-presence-writes", sender=SocketPresence)


async def test_a_socket_the_gate_refused_stops_opening_and_leaves_no_presence(make_user, settings, presence_writes):
    settings.WS_ACCEPT_BUDGET_SECONDS = 0.05
    user = await database_sync_to_async(make_user)()
    token = await database_sync_to_async(new_token)(user)
    gate = HandshakeGate(held_until_the_gate_closes(token_or_session_auth(URLRouter(websocket_urlpatterns))))
    ws = WebsocketCommunicator(gate, f"/ws/me/?token={token}", headers=HEADERS)
    connected, _ = await ws.connect(timeout=5)
    assert connected
    close = await ws.receive_output(timeout=5)
    assert (close["type"], close["code"]) == ("websocket.close", TRY_AGAIN_LATER.code), close
    assert gate.waiting == 0
    # The consumer has run its opening by the time it has handled the disconnect.
    await ws.disconnect()
    assert presence_writes == []
    assert not await database_sync_to_async(SocketPresence.objects.filter(user=user).exists)()


async def test_a_socket_served_within_the_budget_is_present(make_user, settings, presence_writes):
    """The control: the same socket, served in time, writes its record."""
    settings.WS_ACCEPT_BUDGET_SECONDS = 30
    user = await database_sync_to_async(make_user)()
    ws = user_socket(await database_sync_to_async(new_token)(user))
    assert (await ws.connect(timeout=5))[0]
    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from(timeout=5) == {"type": "pong"}
    assert len(presence_writes) == 1
    assert await database_sync_to_async(SocketPresence.objects.filter(user=user).exists)()
    await ws.disconnect()
