"""300 sockets opened at once and closed at once, as after a socket process's restart or
a network's hiccup, on a machine kept busy meanwhile: every handshake is accepted, and
a socket the server is too busy for is closed with 1013 (never answered 403, never
dropped), its client retrying after a backoff with full jitter until it is served; no
error in the server's log (before, the channel layer's Redis pool refused its 101st
connection, "Too many connections"), and nothing left behind: no presence record, which
would keep its player from push and e-mail notices, and no channel in a group. Every
socket is an app's: a token, no `Origin`."""

from __future__ import annotations

import asyncio
import random
import time

import aiohttp
import pytest
import redis
from django.conf import settings

from api.socket_closes import TRY_AGAIN_LATER
from games import live
from games.services import lobby
from notifications.models import SocketPresence
from tests.tokens import new_token

from .conftest import Daphne, closing_connections
from .flood import socket_url
from .test_flood import assert_no_error

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = 150  # each with a room socket and a ws/me/ socket
ROOMS = 10
# Tries of a socket refused with 1013, each after a wait of full jitter (a random share of
# a ceiling that doubles from FIRST_CEILING to LAST_CEILING seconds, as the web client
# waits): a count, not a time.
ATTEMPTS = 30
FIRST_CEILING, LAST_CEILING = 1.0, 8.0


def full_jitter(attempt: int) -> float:
    return random.uniform(0, min(LAST_CEILING, FIRST_CEILING * 2**attempt))


def test_300_sockets_open_and_close_at_once_and_leave_nothing_behind(daphne: Daphne, make_user, busy_machine):
    players = [make_user() for _ in range(PLAYERS)]
    tokens = [new_token(user) for user in players]
    codes = [lobby.room_create(host=players[n], game="hearts", options={}).code for n in range(ROOMS)]
    paths = [(f"/ws/rooms/{codes[n % ROOMS]}/", "/ws/me/") for n in range(PLAYERS)]
    log_from = daphne.log_size()
    layer = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    client = redis.Redis.from_url(layer["hosts"][0]["address"])
    groups = [live.group_name(code) for code in codes]
    groups += [name(user.pk) for user in players for name in (live.user_group_name, live.account_group_name)]

    def members() -> set[bytes]:
        """The channels in the players' and rooms' groups (other tests' processes, killed
        with sockets open, may have left some: a group forgets them only after a day)."""
        return {channel for group in groups for channel in client.zrange(f"{layer['prefix']}:group:{group}", 0, -1)}

    before = members()
    refused: list[int] = []  # sockets closed with 1013, each retried

    async def open_all_then_close_all(opened: asyncio.Event, close: asyncio.Event) -> list[str]:
        problems: list[str] = []
        # No limit on the client's side (aiohttp's connector holds 100 by default).
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:

            async def served(ws: aiohttp.ClientWebSocketResponse, path: str) -> bool:
                """Whether the socket is served (False: closed with 1013, to retry)."""
                if path.startswith("/ws/rooms/"):
                    first = await ws.receive(timeout=60)
                else:
                    # The player's socket says nothing on opening: a ping shows it is
                    # served (past any notice of the player's that comes first).
                    await ws.send_str('{"type": "ping"}')
                    while (first := await ws.receive(timeout=60)).type == aiohttp.WSMsgType.TEXT:
                        if first.json() == {"type": "pong"}:
                            break
                        assert first.json()["type"] in ("your_turn", "match_over"), first.data
                if first.type != aiohttp.WSMsgType.TEXT:
                    # The close frame's code, and the one aiohttp reports (1006 when its answer
                    # to the close met a connection the server had reset).
                    assert (first.type, first.data) == (aiohttp.WSMsgType.CLOSE, TRY_AGAIN_LATER.code), first
                    assert ws.close_code == TRY_AGAIN_LATER.code, ws.close_code
                    return False
                assert path.startswith("/ws/me/") or first.json()["type"] == "changed", first.data
                return True

            async def one(path: str, token: str) -> None:
                try:
                    for attempt in range(ATTEMPTS):
                        # A handshake answered 403, or dropped, fails here: never expected.
                        async with http.ws_connect(socket_url(daphne.url, path, token)) as ws:
                            if await served(ws, path):
                                counted.append(1)
                                if len(counted) == 2 * PLAYERS:
                                    opened.set()
                                await close.wait()
                                return
                        refused.append(1)
                        await asyncio.sleep(full_jitter(attempt))
                    raise AssertionError(f"still refused after {ATTEMPTS} attempts")
                except Exception as error:  # reported below, with the others
                    problems.append(f"{path}: {error!r}")
                    opened.set()

            counted: list[int] = []
            sockets = [(path, token) for pair, token in zip(paths, tokens, strict=True) for path in pair]
            await asyncio.gather(*(one(path, token) for path, token in sockets))
        return problems

    async def run() -> tuple[list[str], int, set[bytes]]:
        opened, close = asyncio.Event(), asyncio.Event()
        task = asyncio.create_task(open_all_then_close_all(opened, close))
        # Only against a hang: how long the retries take is the machine's, not the test's.
        async with asyncio.timeout(900):
            await opened.wait()
        # A socket the gate refused while it opened may have marked its player present
        # before it stopped; that record ends as its disconnect is handled, so the count
        # settles on one record a player (their served ws/me/ socket's).
        present = await asyncio.to_thread(closing_connections(settled_present_count), players)
        channels = members()
        close.set()  # every socket leaves its `async with` at once
        return await task, present, channels

    problems, present_while_open, channels_while_open = asyncio.run(run())
    assert not problems, problems[:5]
    # Every handshake the clients made was answered once, and accepted: none rejected
    # (403), none dropped and retried unseen by aiohttp (which retries a GET once).
    log = daphne.log_since(log_from)
    assert log.count('"WSCONNECTING ') == 2 * PLAYERS + len(refused), (log.count('"WSCONNECTING '), len(refused))
    assert '"WSREJECT ' not in log
    print(f"{len(refused)} sockets closed with 1013 and retried")
    # All 150 players' sockets marked them present while open.
    assert present_while_open == PLAYERS
    # Every socket in its groups (and perhaps some refused with 1013, leaving them still).
    assert len(channels_while_open - before) >= 2 * PLAYERS

    # Closed: every record ends (not after the records' time to live, 150 s: no sweep runs
    # here), and no channel is left in any group of theirs.
    def left_behind() -> tuple[int, set[bytes]]:
        return present_count(players), members() - before

    deadline = time.monotonic() + 30
    while any(left_behind()) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert left_behind() == (0, set())
    assert_no_error(daphne.log_since(log_from))


def present_count(players) -> int:
    return SocketPresence.objects.filter(user__in=players).count()


def settled_present_count(players, within: float = 60.0) -> int:
    """The presence records once they number one a player, or as they are after `within`
    seconds (against a hang only)."""
    deadline = time.monotonic() + within
    while (count := present_count(players)) != len(players) and time.monotonic() < deadline:
        time.sleep(0.2)
    return count
