"""A notice the channel layer drops is a WARNING and is counted (api/channel_layer.py),
and a socket that missed its room's last notices still learns the room's position from
its next ping once the process's record of the room is older than LIVE_PING_FRESH_SECONDS
(api/room_versions.py): the soak's paused daphne left sockets that never heard their
room's final version."""

from __future__ import annotations

import asyncio
import copy
import logging
import random
import time
import uuid

import aiohttp
import pytest
from django.conf import settings
from django.test import Client, override_settings
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from api.channel_layer import SizedRedisChannelLayer
from games import live, selectors
from games.services import lobby
from tests.api.helpers import move_by_whoever_acts
from tests.tokens import new_token

from .conftest import FRESH_SECONDS, Daphne, closing_connections
from .flood import PING, socket_url

DROPPED = "gameserver_notices_dropped_total"


def dropped(where: str) -> float:
    return REGISTRY.get_sample_value(DROPPED, {"where": where}) or 0.0


def small_layer(capacity: int) -> SizedRedisChannelLayer:
    config = copy.deepcopy(settings.CHANNEL_LAYERS["default"]["CONFIG"])
    config.update(capacity=capacity, prefix=f"dropped-{uuid.uuid4().hex[:8]}")
    return SizedRedisChannelLayer(**config)


def drop_warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno == logging.WARNING and "notice dropped" in r.getMessage()]


@pytest.mark.asyncio
async def test_a_group_message_over_capacity_is_a_counted_warning(caplog):
    layer = small_layer(capacity=2)
    channel = await layer.new_channel()  # nobody reads it, as a paused socket process
    await layer.group_add(live.group_name("QX7K2M"), channel)
    before = dropped("redis")
    try:
        for version in range(5):
            await layer.group_send(live.group_name("QX7K2M"), live.room_changed_message(version, version))
    finally:
        await layer.flush()
    assert dropped("redis") == before + 3
    warnings = drop_warnings(caplog)
    assert len(warnings) == 3 and {r.name for r in warnings} == {"channels_redis.core"}
    assert "1 of 1 channels over capacity in group room.QX7K2M" in warnings[0].getMessage()


def test_a_socket_buffer_that_overflows_is_a_counted_warning(caplog):
    layer = small_layer(capacity=2)
    before = dropped("process")
    buffer = layer.receive_buffer["specific.x!y"]
    for n in range(3):
        buffer.put_nowait({"n": n})
    assert [buffer.get_nowait()["n"] for _ in range(buffer.qsize())] == [1, 2]  # the oldest went
    assert dropped("process") == before + 1
    assert len(drop_warnings(caplog)) == 1


def started_match(make_user) -> tuple[str, dict[int, object], str]:
    """A Kali Tidi match of two people, started: its code, its players by seat and a token."""
    host, guest = make_user(), make_user()
    room = lobby.room_create(host=host, game="kali_tidi", options={"players": 2, "target": 5})
    lobby.room_join(code=room.code, user=guest)
    lobby.room_start(code=room.code, user=host)
    players = {seat.index: seat.user for seat in selectors.table_of(code=room.code).seats}
    return room.code, players, new_token(host)


def play_moves(code: str, players: dict[int, object], moves: int, rng: random.Random) -> int:
    """Up to `moves` moves by whoever is to act (each its own commit and notice); how many."""
    for n in range(moves):
        if not move_by_whoever_acts(code, players, rng):
            return n
    return moves


@pytest.mark.django_db(transaction=True)
def test_a_paused_socket_process_misses_notices_and_its_socket_catches_up_by_ping(daphne: Daphne, make_user, caplog):
    code, players, token = started_match(make_user)
    capacity = 3
    small = copy.deepcopy(settings.CHANNEL_LAYERS)
    small["default"]["CONFIG"]["capacity"] = capacity
    before = dropped("redis")

    async def run() -> tuple[list[dict], dict]:
        async with (
            aiohttp.ClientSession() as http,
            http.ws_connect(socket_url(daphne.url, f"/ws/rooms/{code}/", token)) as ws,
        ):
            opening = await ws.receive_json(timeout=10)
            assert opening["type"] == "changed"
            daphne.pause()
            try:
                with override_settings(CHANNEL_LAYERS=small):
                    moving = closing_connections(play_moves)
                    moves = await asyncio.to_thread(moving, code, players, 12, random.Random(5))
                    assert moves > capacity + 2
                    # The notices leave from this process's announcing thread.
                    deadline = time.monotonic() + 10
                    while dropped("redis") < before + moves - capacity - 1 and time.monotonic() < deadline:
                        await asyncio.sleep(0.05)
            finally:
                daphne.resume()
            heard = []
            while (message := await receive_or_none(ws)) is not None:
                heard.append(message)
            await asyncio.sleep(FRESH_SECONDS)
            await ws.send_str(PING)
            return heard, await ws.receive_json(timeout=10), moves

    heard, pong, moves = asyncio.run(run())
    final = selectors.room_positions(codes=[code])[code]
    # Some notices were dropped (the server's channel held `capacity`, one more may have
    # been on its way to the paused reader): counted, and logged as warnings.
    assert dropped("redis") >= before + 1
    assert drop_warnings(caplog)
    # A move is one Redis message to the paused process (its views and notice together),
    # a frame to this socket: it heard what its channel held, one on its way to the paused
    # reader and perhaps the last, sent as the reader resumed; the rest it missed.
    assert len(heard) <= capacity + 2 and len(heard) < moves, heard
    assert {m["type"] for m in heard} <= {"view", "changed"}, heard
    # The next ping, its record now older than LIVE_PING_FRESH_SECONDS, tells where the room is.
    assert pong == {"type": "pong", **final._asdict()}
    # The metrics endpoint of the process that made the moves and sent their notices shows
    # both (docs/operations/metrics.md).
    shown = Client().get("/metrics")
    assert shown.status_code == 200
    samples = [s for family in text_string_to_metric_families(shown.content.decode()) for s in family.samples]
    drops = sum(s.value for s in samples if s.name == DROPPED and s.labels == {"where": "redis"})
    people = sum(s.value for s in samples if s.name == "gameserver_moves_total" and s.labels["by"] == "person")
    assert drops >= before + 1 and people >= capacity + 3, (drops, people)


async def receive_or_none(ws: aiohttp.ClientWebSocketResponse) -> dict | None:
    try:
        return await ws.receive_json(timeout=1)
    except TimeoutError:
        return None
