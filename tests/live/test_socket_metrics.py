"""The sockets' Prometheus metrics (api/socket_metrics.py) count what happens: sockets
open by path, sockets closed for their rate and by which limit, pings by how they were
answered."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from prometheus_client import REGISTRY

from games.services import lobby
from tests.sockets import socket_client
from tests.tokens import new_token

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_thread_connections"),
]


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def open_sockets() -> dict[str, float]:
    return {path: value("gameserver_sockets_open", path=path) for path in ("room", "me")}


@database_sync_to_async
def room_and_token(make_user) -> tuple[str, str]:
    host = make_user()
    return lobby.room_create(host=host, game="hearts", options={}).code, new_token(host)


async def test_open_sockets_pings_and_rate_limited_closes_are_counted(make_user, settings):
    settings.WS_SOCKET_BURST, settings.WS_SOCKET_RATE = 3, 0
    # The record stays fresh however slowly the pings come: each is answered from it.
    settings.LIVE_PING_FRESH_SECONDS = 600
    code, token = await room_and_token(make_user)
    open_before = open_sockets()
    pings_before = value("gameserver_room_pings_total", answer="record")
    closed_before = value("gameserver_socket_closed_rate_limited_total", limit="socket")

    room, me = socket_client(f"/ws/rooms/{code}/", token=token), socket_client("/ws/me/", token=token)
    for ws in (room, me):
        assert (await ws.connect())[0]
    await room.receive_json_from(timeout=3)
    assert {p: n - open_before[p] for p, n in open_sockets().items()} == {"room": 1, "me": 1}

    for _ in range(3):
        await room.send_json_to({"type": "ping"})
        assert (await room.receive_json_from(timeout=3))["type"] == "pong"
    assert value("gameserver_room_pings_total", answer="record") == pings_before + 3
    await room.send_json_to({"type": "ping"})  # one more than the burst
    assert (await room.receive_output(timeout=3))["code"] == 4429
    assert value("gameserver_socket_closed_rate_limited_total", limit="socket") == closed_before + 1

    await room.disconnect()
    await me.disconnect()
    assert open_sockets() == open_before
