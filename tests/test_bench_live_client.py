"""The live benchmark's socket client (scripts/bench_live.py), fed hand-made socket
messages and HTTP answers: what it fetches, when it counts as caught up with a version,
and how it says each view reached it, which the benchmark's figures rest on.

The room's log is at seq 10 (event 10 is another player's private one) at version 4;
the move to version 5 logs events 11 and 12 (12 private to another player again).
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from typing import Any

import aiohttp
import orjson
import pytest

sys.path.append(str(Path(__file__).resolve().parent.parent / "scripts"))

import bench_live
from bench_live import LiveStats, LiveTable, Player

pytestmark = pytest.mark.asyncio

EVENTS_TO_4 = [{"seq": n, "type": "played"} for n in range(1, 10)]
EVENT_11 = {"seq": 11, "type": "played"}


def view(version: int) -> dict[str, Any]:
    return {"version": version, "status": "playing", "to_act": [1], "you": {"seat": 0, "legal_actions": []}}


class Message:
    def __init__(self, data: dict[str, Any]) -> None:
        self.type = aiohttp.WSMsgType.TEXT
        self.data = orjson.dumps(data).decode()


class Socket:
    """A room socket whose messages the test sends; `idle` is set whenever the client
    has read every message sent so far."""

    close_code = None

    def __init__(self) -> None:
        self.queue: asyncio.Queue[Message | None] = asyncio.Queue()
        self.idle = asyncio.Event()

    def send(self, **data: Any) -> None:
        self.idle.clear()
        self.queue.put_nowait(Message(data))

    def __aiter__(self) -> Socket:
        return self

    async def __anext__(self) -> Message:
        if self.queue.empty():
            self.idle.set()
        message = await self.queue.get()
        if message is None:
            raise StopAsyncIteration
        return message

    async def close(self) -> None:
        self.queue.put_nowait(None)


class Sockets:
    def __init__(self) -> None:
        self.socket = Socket()
        self.urls: list[str] = []

    async def ws_connect(self, url: str, **kwargs: Any) -> Socket:
        self.urls.append(url)
        return self.socket


class Http:
    """The API: answers each GET from `answers`, by path, and keeps the paths asked."""

    def __init__(self) -> None:
        self.answers: dict[str, Any] = {}
        self.paths: list[str] = []

    async def call(self, method: str, path: str, headers: dict[str, str], body: Any = None) -> tuple[int, Any]:
        self.paths.append(path.removeprefix("/api/v1/rooms/R/"))
        return 200, self.answers[self.paths[-1]]


@pytest.fixture
def stats(monkeypatch: pytest.MonkeyPatch) -> LiveStats:
    # A client that never catches up fails its test in seconds, not the benchmark's 30.
    monkeypatch.setattr(bench_live, "CAUGHT_UP_SECONDS", 5)
    return LiveStats()


async def caught_up_at_4(push: bool, stats: LiveStats) -> tuple[LiveTable, Player, Socket, Http]:
    """A client that opened its socket on room R and caught up with version 4, as on
    every open: the first notice, then its fetches."""
    http, sockets = Http(), Sockets()
    table = LiveTable(http, sockets, "ws://server", ["t0"], random.Random(1), lambda: stats, push)
    table.code = "R"
    player = table.players[0]
    await player.open("R")
    http.answers = {"state": view(4), "events?after=0&limit=500": EVENTS_TO_4}
    sockets.socket.send(type="changed", version=4, seq=10)
    assert await table.caught_up(4)
    assert (player.seq, player.view_by, http.paths) == (10, "fetch", ["state", "events?after=0&limit=500"])
    assert sockets.urls == ["ws://server/ws/rooms/R/?token=t0" + ("" if push else "&views=0")]
    http.paths.clear()
    return table, player, sockets.socket, http


async def test_a_pushed_view_is_shown_with_its_events_and_nothing_is_fetched(stats: LiveStats) -> None:
    table, player, socket, http = await caught_up_at_4(True, stats)
    socket.send(type="view", version=5, seq=12, after=10, events=[EVENT_11], view=view(5))
    socket.send(type="changed", version=5, seq=12)
    assert await table.caught_up(5)
    await socket.idle.wait()
    assert http.paths == []
    assert (player.version, player.seq, player.view_by, player.events_by) == (5, 12, "push", "push")
    assert stats.pushed == 1
    await player.close()


async def test_a_view_pushed_after_a_gap_in_the_log_fetches_the_events_it_missed(stats: LiveStats) -> None:
    table, player, socket, http = await caught_up_at_4(True, stats)
    http.answers = {"events?after=10&limit=500": [EVENT_11]}
    socket.send(type="view", version=6, seq=14, after=12, events=[], view=view(6))
    assert await table.caught_up(6)
    assert http.paths == ["events?after=10&limit=500"]
    assert (player.version, player.seq, player.view_by, player.events_by) == (6, 14, "push", "fetch")
    await player.close()


async def test_a_notice_alone_fetches_the_view_then_the_events(stats: LiveStats) -> None:
    table, player, socket, http = await caught_up_at_4(False, stats)
    http.answers = {"state": view(5), "events?after=10&limit=500": [EVENT_11]}
    socket.send(type="changed", version=5, seq=12)
    assert await table.caught_up(5)
    await socket.idle.wait()
    assert http.paths == ["state", "events?after=10&limit=500"]
    # Event 12 is another player's: the log is complete through the notice's seq all the same.
    assert (player.version, player.seq, player.view_by, player.events_by) == (5, 12, "fetch", "fetch")
    assert stats.pushed == 0
    await player.close()


async def test_the_mover_takes_its_move_s_answer_and_fetches_only_the_events(stats: LiveStats) -> None:
    table, player, socket, http = await caught_up_at_4(False, stats)
    http.answers = {"events?after=10&limit=500": [EVENT_11]}
    player.posting = True
    socket.send(type="changed", version=5, seq=12)
    await socket.idle.wait()
    # Heard, but its own move's answer is not in yet: not caught up.
    assert player.level == 4
    player.posting = False
    player.show(view(5), "post")
    player.catch_up()
    assert await table.caught_up(5)
    assert http.paths == ["events?after=10&limit=500"]
    assert (player.view_by, player.events_by) == ("post", "fetch")
    await player.close()
