"""Clients that flood a socket server and clients that measure it meanwhile, for the tests
here and scripts/socket_flood.py. Every socket is an app's: a token in the query and no
`Origin` header (aiohttp sends none unless asked). Every loop is bounded in time.

A flooder sends `{"type": "ping"}` as fast as its connection takes them, reads what
comes back, and when the server closes the socket opens a new one (as a hostile client
would) until its time is up. A listener pings at a steady pace, well within the limits,
and records how long each answer took.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

import aiohttp

PING = '{"type": "ping"}'


def socket_url(base: str, path: str, token: str) -> str:
    return base.replace("http://", "ws://", 1) + f"{path}?token={token}"


@dataclass
class Flood:
    pongs: int = 0  # pings answered
    sent: int = 0
    sockets: int = 0  # sockets opened (the first and every reconnect)
    # The close code of each socket the server closed, as its client read it (1006: the
    # connection ended without a close frame). A socket still open when the flood's time
    # is up is not counted (aiohttp reports 1006 for a read it was told to stop).
    closes: Counter[int] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)  # connections that failed otherwise


async def _send_pings(ws: aiohttp.ClientWebSocketResponse, until: float, flood: Flood) -> None:
    while not ws.closed and time.monotonic() < until:
        try:
            await ws.send_str(PING)
        except (ConnectionError, aiohttp.ClientError):
            return
        flood.sent += 1
        # Yield, so that this process reads the replies (and the close) too.
        await asyncio.sleep(0)


async def flood_one(http: aiohttp.ClientSession, url: str, until: float, flood: Flood) -> None:
    """Flood from one socket, reconnecting whenever the server closes it, until `until`
    (time.monotonic())."""
    while time.monotonic() < until:
        try:
            ws = await http.ws_connect(url)
        except (aiohttp.ClientError, OSError) as error:
            flood.errors.append(repr(error))
            await asyncio.sleep(0.05)
            continue
        flood.sockets += 1
        sender = asyncio.create_task(_send_pings(ws, until, flood))
        try:
            async with asyncio.timeout(max(until - time.monotonic(), 0.01)):
                while True:
                    message = await ws.receive()
                    if message.type == aiohttp.WSMsgType.TEXT:
                        flood.pongs += '"pong"' in message.data
                        continue
                    closed = message.data if message.type == aiohttp.WSMsgType.CLOSE else 1006
                    if closed != 1000:
                        flood.closes[closed] += 1
                    break
        except TimeoutError:
            pass
        sender.cancel()
        await ws.close()


async def _flood(base: str, paths: list[str], token: str, seconds: float) -> Flood:
    flood = Flood()
    until = time.monotonic() + seconds
    async with aiohttp.ClientSession() as http:
        await asyncio.gather(*(flood_one(http, socket_url(base, path, token), until, flood) for path in paths))
    return flood


def _flood_in_this_process(base: str, paths: list[str], token: str, seconds: float) -> Flood:
    return asyncio.run(_flood(base, paths, token, seconds))


async def flood_sockets(base: str, paths: list[str], token: str, seconds: float) -> Flood:
    """One account floods from a socket on each of `paths` for `seconds`, from a process
    of its own: in the measuring process its loop would starve the others' clients, and
    measure the client instead of the server."""
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(pool, _flood_in_this_process, base, paths, token, seconds)


@dataclass
class Pings:
    latencies: list[float] = field(default_factory=list)  # seconds, per answered ping
    unanswered: int = 0
    closes: list[int] = field(default_factory=list)  # close codes the server sent them

    def summary(self) -> str:
        if not self.latencies:
            return f"no answer ({self.unanswered} unanswered)"
        ms = sorted(x * 1000 for x in self.latencies)
        p90 = ms[min(len(ms) - 1, int(len(ms) * 0.9))]
        return f"{len(ms)} pings: median {statistics.median(ms):.1f} ms, p90 {p90:.1f} ms, max {ms[-1]:.1f} ms" + (
            f", {self.unanswered} unanswered" if self.unanswered else ""
        )


async def ping_steadily(base: str, path: str, tokens: list[str], seconds: float, every: float) -> Pings:
    """A socket per token on `path`, each pinging every `every` seconds for `seconds`,
    staggered; the time to each answer."""
    pings = Pings()
    until = time.monotonic() + seconds

    async def one(http: aiohttp.ClientSession, token: str, delay: float) -> None:
        async with http.ws_connect(socket_url(base, path, token)) as ws:
            if path.startswith("/ws/rooms/"):
                await ws.receive_json(timeout=10)  # the opening notice
            await asyncio.sleep(delay)
            while time.monotonic() < until:
                started = time.perf_counter()
                await ws.send_str(PING)
                try:
                    while True:
                        message = await ws.receive(timeout=10)
                        if message.type != aiohttp.WSMsgType.TEXT:
                            pings.closes.append(ws.close_code or 0)
                            return
                        if '"pong"' in message.data:
                            break
                except TimeoutError:
                    pings.unanswered += 1
                    continue
                pings.latencies.append(time.perf_counter() - started)
                await asyncio.sleep(max(0.0, every - (time.perf_counter() - started)))

    async with aiohttp.ClientSession() as http:
        await asyncio.gather(*(one(http, token, every * i / len(tokens)) for i, token in enumerate(tokens)))
    return pings
