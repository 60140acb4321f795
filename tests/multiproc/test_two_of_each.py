"""Two of each process (conftest.py): a move made through the first web process and a
timeout applied by the second worker reach a socket on the second socket process, and a
player's turns read from either web process are exactly those their socket ws/me/
announced, on either socket process, and that have not ended since.

Uma, whose turns are watched, plays three Hearts rooms with Vic and computer players:
- M, on a slow clock: Uma waits to pass; Vic passes through the first web process, and
  the room's socket on the second socket process hears it.
- T, on a five-second clock: Uma passes (her turn ends); Vic does not, and the server
  passes for him when the clock runs out. The first worker is paused before that, so
  only the second can do it, and its log must say it did.
- X, on a five-second clock that abandons: nobody acts, the match is abandoned when the
  clock runs out (by the second worker too) and ws/me/ tells Uma it is over.
Before and after the clocks run out, GET me/turns from both web processes must list
exactly the rooms whose turns both ws/me/ sockets announced and that have not ended,
with the deadlines the notices gave.
"""

from __future__ import annotations

import asyncio
import re
import time
from datetime import UTC, datetime
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.api.helpers import concrete

from .client import Api, Listener
from .conftest import Cluster

pytestmark = pytest.mark.asyncio

SLOW_CLOCK = {"turn_seconds": 600, "abandon_seconds": 600}
TIMEOUT_CLOCK = {"turn_seconds": 5, "abandon_seconds": 600}
ABANDON_CLOCK = {"turn_seconds": 5, "abandon_seconds": 5}
# How long after a deadline the server may take to act: the beat sweeps every second.
ACT_WITHIN_SECONDS = 15

# A task that acted, as Celery logs its result (by its registered name): a room's due
# task answers True, the sweeper how many rooms it acted in.
ACTED = re.compile(
    r"Task games\.(?:apply_due_actions\[[^\]]+\] succeeded in \S+s: True"
    r"|sweep_overdue\[[^\]]+\] succeeded in \S+s: ([1-9]\d*))"
)


def acted_in(log: str) -> int:
    """How many times the tasks in a worker's log acted in a room."""
    return sum(int(m.group(1) or 1) for m in ACTED.finditer(log))


def when(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


def your_turn_in(code: str):
    return lambda heard: any(n["type"] == "your_turn" and n["room"] == code for n in heard)


def your_turns_in(code: str, count: int):
    return lambda heard: sum(n["type"] == "your_turn" and n["room"] == code for n in heard) >= count


def match_over_in(code: str):
    return lambda heard: {"type": "match_over", "room": code} in heard


def changed_to(version: int):
    """A change to `version` heard: its notice, or its view, which stands for it."""
    return lambda heard: any(n["type"] in ("changed", "view") and n["version"] == version for n in heard)


def changed_past(version: int):
    return lambda heard: any(n["type"] in ("changed", "view") and n["version"] > version for n in heard)


class Player:
    """Someone playing through the HTTP API, at whichever web process each call names."""

    def __init__(self, api: Api, name: str, token: str) -> None:
        self.api, self.name, self.token = api, name, token

    async def call(self, web: str, method: str, path: str, *, body: Any = None, status: int = 200) -> Any:
        return await self.api.call(web, method, path, token=self.token, body=body, status=status)

    async def pass_cards(self, web: str, code: str) -> dict[str, Any]:
        """Pass the first cards offered; the answer (the new view)."""
        view = await self.call(web, "GET", f"rooms/{code}/state")
        legal = view["you"]["legal_actions"]
        assert legal and legal[0]["type"] == "pass_cards", f"{self.name} cannot pass in {code}: {view}"
        body = {"version": view["version"], "action": concrete(legal[0])}
        return await self.call(web, "POST", f"rooms/{code}/actions", body=body)


async def start_room(
    host: Player, guests: list[Player], bots: int, options: dict[str, int], *, web: str, other_web: str
) -> dict[str, Any]:
    """A Hearts room made and started by `host` through `web` (guests join through the
    other); the host's view after the start."""
    room = await host.call(web, "POST", "rooms/", body={"game": "hearts", "options": options}, status=201)
    code = room["code"]
    for guest in guests:
        await guest.call(other_web, "POST", f"rooms/{code}/join", body={}, status=201)
    for _ in range(bots):
        await host.call(web, "POST", f"rooms/{code}/bots", body={}, status=201)
    return await host.call(web, "POST", f"rooms/{code}/start")


class TurnsHeard:
    """What one ws/me/ socket tells of a player's turns, with the moves the player made
    themselves (which end a turn without a notice)."""

    def __init__(self, socket: Listener) -> None:
        self.socket = socket
        self.own_moves: list[tuple[int, str]] = []  # (notices heard before it, room)

    def moved(self, code: str) -> None:
        self.own_moves.append((len(self.socket.heard), code))

    def open(self) -> dict[str, dict[str, Any]]:
        """The rooms announced by `your_turn` and not ended since (by the player's own move
        or `match_over`): room → its last `your_turn` notice."""
        turns: dict[str, dict[str, Any]] = {}
        heard = list(self.socket.heard)
        for index in range(len(heard) + 1):
            for before, code in self.own_moves:
                if before == index:
                    turns.pop(code, None)
            if index == len(heard):
                break
            notice = heard[index]
            if notice["type"] == "your_turn":
                turns[notice["room"]] = notice
            elif notice["type"] == "match_over":
                turns.pop(notice["room"], None)
            else:
                raise AssertionError(f"unexpected on ws/me/: {notice}")
        return turns


async def hear_on_all(sockets: list[TurnsHeard], check: Any, what: str, seconds: float = 10) -> None:
    await asyncio.gather(*(s.socket.until(check, what, seconds) for s in sockets))


async def assert_turns_agree(player: Player, webs: list[str], sockets: list[TurnsHeard], expected: set[str]) -> None:
    """me/turns from every web process lists exactly `expected`, which is exactly what
    every ws/me/ socket announced and has not ended, with the notices' deadlines."""
    listed = [await player.call(web, "GET", "me/turns") for web in webs]
    assert listed[0] == listed[1], f"the web processes disagree on me/turns: {listed}"
    turns = {t["code"]: t for t in listed[0]}
    assert set(turns) == expected, f"me/turns lists {sorted(turns)}, expected {sorted(expected)}: {listed[0]}"
    for socket in sockets:
        announced = socket.open()
        assert set(announced) == expected, (
            f"{socket.socket.where} announced {sorted(announced)} (heard {socket.socket.heard}), "
            f"me/turns lists {sorted(turns)}"
        )
        for code, notice in announced.items():
            listed_deadline = turns[code]["deadline"]
            assert listed_deadline is not None and notice["deadline"] is not None, (notice, turns[code])
            assert when(notice["deadline"]) == when(listed_deadline), (notice, turns[code])
            # Others may have acted since the turn began (a simultaneous pass), never undone.
            assert notice["version"] <= turns[code]["version"], (notice, turns[code])
    # Each room's notices in order; those of different rooms may come from different
    # processes, whose order of arrival nothing fixes.
    rooms = {n["room"] for s in sockets for n in s.socket.heard}
    by_room = [{code: [n for n in s.socket.heard if n["room"] == code] for code in rooms} for s in sockets]
    assert by_room[0] == by_room[1], f"the socket processes told different things: {by_room}"


async def scrape(http: aiohttp.ClientSession, base: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """What `/metrics` shows, by sample name and labels."""
    async with http.get(f"{base}/metrics") as res:
        assert res.status == 200, await res.text()
        text = await res.text()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def wait_for_log(check: Any, what: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"no {what} within {seconds} s")
        await asyncio.sleep(0.1)


async def test_two_of_each_process_carry_moves_timeouts_and_turns(cluster: Cluster) -> None:
    web_1, web_2 = cluster.web
    sockets_1, sockets_2 = cluster.sockets
    worker_1, worker_2 = cluster.workers
    listeners: list[Listener] = []
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as http:
        api = Api(http)

        async def listen(base: str, path: str, token: str) -> Listener:
            listeners.append(await Listener.open(http, base, path, token))
            return listeners[-1]

        try:
            uma = Player(api, "uma", await api.register(web_1, "uma"))
            vic = Player(api, "vic", await api.register(web_2, "vic"))
            me = [TurnsHeard(await listen(s, "ws/me/", uma.token)) for s in (sockets_1, sockets_2)]

            # M: a move through the first web process, heard on the second socket process.
            m = (await start_room(uma, [vic], 2, SLOW_CLOCK, web=web_1, other_web=web_2))["code"]
            await hear_on_all(me, your_turn_in(m), f"Uma's turn in {m}")
            room_m = await listen(sockets_2, f"ws/rooms/{m}/", vic.token)
            await room_m.until(lambda heard: len(heard) == 1, "the room's version")
            before = room_m.heard[0]["version"]
            moved = await vic.pass_cards(web_1, m)
            assert moved["version"] > before
            await room_m.until(changed_to(moved["version"]), f"Vic's pass in {m}")
            # Vic's own view, made where the move committed (it says what the notice would).
            assert [(n["type"], n["version"]) for n in room_m.heard] == [
                ("changed", before),
                ("view", moved["version"]),
            ]
            assert room_m.heard[1]["view"] == moved

            # T: Uma passes; Vic's pass is left to the clock.
            t_start = await start_room(uma, [vic], 2, TIMEOUT_CLOCK, web=web_2, other_web=web_1)
            t = t_start["code"]
            await hear_on_all(me, your_turn_in(t), f"Uma's turn in {t}")
            room_t = await listen(sockets_2, f"ws/rooms/{t}/", uma.token)
            await room_t.until(lambda heard: len(heard) == 1, "the room's version")
            for socket in me:
                socket.moved(t)
            passed = await uma.pass_cards(web_2, t)
            await room_t.until(changed_to(passed["version"]), f"Uma's pass in {t}")

            # X: left to the clock, which abandons the match.
            x_start = await start_room(uma, [], 3, ABANDON_CLOCK, web=web_1, other_web=web_2)
            x = x_start["code"]
            await hear_on_all(me, your_turn_in(x), f"Uma's turn in {x}")

            # From here on only the second worker can act. The first may hold the rooms'
            # tasks (waiting for their time); then the sweeps, on the second, act instead.
            worker_1.pause()
            first_deadline = min(when(t_start["deadline"]), when(x_start["deadline"]))
            assert datetime.now(UTC) < first_deadline, "the first worker was paused after a deadline: too slow a start"
            assert acted_in(worker_1.log_text()) == 0

            await assert_turns_agree(uma, cluster.web, me, expected={m, x})

            # The clocks run out: Vic's pass in T and the end of X, by the second worker.
            wait = (first_deadline - datetime.now(UTC)).total_seconds() + ACT_WITHIN_SECONDS
            await room_t.until(changed_past(passed["version"]), f"the timeout in {t}", wait)
            await hear_on_all(me, match_over_in(x), f"the end of {x}", wait)
            await wait_for_log(lambda: acted_in(worker_2.log_text()) >= 2, "second worker's log of both", 10)
            # Nothing acts any more (the next deadline in T is five seconds away): the
            # rest is read from a world that stands still.
            worker_2.pause()
            assert acted_in(worker_2.log_text()) == 2, worker_2.log_text()
            assert acted_in(worker_1.log_text()) == 0, worker_1.log_text()
            assert worker_1.proc.poll() is None and worker_2.proc.poll() is None

            after = await uma.call(web_1, "GET", f"rooms/{t}/state")
            assert room_t.heard[-1]["version"] == after["version"], room_t.heard
            events = await uma.call(web_2, "GET", f"rooms/{t}/events?after=0")
            assert room_t.heard[-1]["seq"] >= events[-1]["seq"], (room_t.heard, events)
            vic_seat = next(s["seat"] for s in after["seats"] if s["user"] == "vic")
            assert [e["seat"] for e in events if e["type"] == "timed_out"] == [vic_seat], events
            assert after["phase"] == "play", after
            x_after = await uma.call(web_2, "GET", f"rooms/{x}/state")
            assert x_after["status"] == "abandoned", x_after

            # Vic's pass ended the passing; play began, and may have come to Uma (her
            # turn then began in the second worker, which tells her so).
            uma_to_act = after["you"]["seat"] in after["to_act"]
            if uma_to_act:
                await hear_on_all(me, your_turns_in(t, 2), f"Uma's turn to play in {t}")
                notice = [n for n in me[0].socket.heard if n["type"] == "your_turn" and n["room"] == t][-1]
                assert notice == {
                    "type": "your_turn",
                    "room": t,
                    "version": after["version"],
                    "deadline": after["deadline"],
                }
            # Anything still on its way would have arrived with the notices above.
            await asyncio.sleep(0.5)
            await assert_turns_agree(uma, cluster.web, me, expected={m, t} if uma_to_act else {m})

            # The machine's figures, the same from a web and a socket process: the people's
            # moves made through both web processes, and the pass the second worker made
            # for Vic when his time ran out, with how late its task started.
            for base in (web_1, sockets_2):
                figures = await scrape(http, base)
                assert figures[("gameserver_moves_total", (("by", "person"), ("game", "hearts")))] >= 2, figures
                assert figures[("gameserver_moves_total", (("by", "timeout"), ("game", "hearts")))] >= 1, figures
                assert figures[("gameserver_move_seconds_count", ())] >= 2, figures
                assert figures[("gameserver_due_lateness_seconds_count", ())] >= 1, figures
                assert figures[("gameserver_broker_up", ())] == 1, figures
        finally:
            for listener in listeners:
                await listener.close()
