"""One account flooding its sockets with pings is closed with 4429 and slows nobody else;
measured properly (with figures) by scripts/socket_flood.py, asserted loosely here: this
machine is shared, so nothing here depends on its speed but a bound no working server
comes near. Every socket here is an app's, with a token and no `Origin`."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from django.conf import settings
from prometheus_client.parser import text_string_to_metric_families

from games.services import lobby
from tests.tokens import new_token

from .conftest import Daphne
from .flood import flood_sockets, ping_steadily

pytestmark = pytest.mark.django_db(transaction=True)

FLOOD_SECONDS = 3.0
# Generous: an idle server answers in a few milliseconds, a flooded one without limits
# took seconds (issue #28: a median of 2.2 s).
LOOSE_MEDIAN_SECONDS = 1.0


def tokens_of(users) -> list[str]:
    return [new_token(user) for user in users]


def test_a_flooding_account_is_closed_with_4429_and_others_pings_stay_quick(daphne: Daphne, make_user, busy_machine):
    host, flooder, *listeners = (make_user() for _ in range(6))
    code = lobby.room_create(host=host, game="hearts", options={}).code
    flooder_token, *listener_tokens = tokens_of([flooder, *listeners])
    log_from = daphne.log_size()
    closed_before = closed_for_flood(daphne)

    async def both():
        return await asyncio.gather(
            flood_sockets(daphne.url, [f"/ws/rooms/{code}/"] * 4, flooder_token, FLOOD_SECONDS),
            ping_steadily(daphne.url, f"/ws/rooms/{code}/", listener_tokens, FLOOD_SECONDS, every=0.5),
        )

    flood, pings = asyncio.run(both())

    # The flooder's sockets were closed for their flood, every one with 4429 as its client
    # read it (the close frame: never 1006), each counted by the server as it sent it, on
    # a machine kept busy. Before, some were counted 1006: aiohttp reports it for a read
    # the client itself stopped at the flood's end (flood.py counts the frame now), and
    # for a close frame read whose answer met a connection the server had reset, 1 s
    # after its close or as the client answered (api/daphne_close_reason.py). A socket
    # the loaded server was too busy to open is closed with 1013.
    assert set(flood.closes) <= {4429, 1013} and flood.closes[4429], flood.closes
    assert closed_for_flood(daphne) - closed_before >= flood.closes[4429], flood.closes
    assert not flood.errors, flood.errors[:3]
    # However fast it sent, its account was served no more than its bucket holds: the
    # burst, the refill over the flood, and nothing for the sockets it opened.
    assert flood.pongs <= settings.WS_ACCOUNT_BURST + settings.WS_ACCOUNT_RATE * (FLOOD_SECONDS + 1)
    assert flood.sent > 10 * (flood.pongs + 10), "the flood sent too little to test anything"
    # The others, pinging well within the limits, were all answered, and soon.
    assert not pings.closes and not pings.unanswered, (pings.closes, pings.unanswered)
    assert len(pings.latencies) >= len(listener_tokens) * 3
    latencies = sorted(pings.latencies)
    assert latencies[len(latencies) // 2] < LOOSE_MEDIAN_SECONDS, pings.summary()
    assert_no_error(daphne.log_since(log_from))


def test_an_account_is_limited_across_its_sockets(daphne: Daphne, make_user):
    """Each socket stays under its own limit; together they exceed the account's."""
    host, player = make_user(), make_user()
    code = lobby.room_create(host=host, game="hearts", options={}).code
    (token,) = tokens_of([player])
    per_socket = int(settings.WS_SOCKET_BURST) - 1
    # More than the account's burst and all it refills within the test's ten seconds, a
    # socket costing its opening and its pings: however slowly they open, some must close.
    sockets = int((settings.WS_ACCOUNT_BURST + settings.WS_ACCOUNT_RATE * 10) // (per_socket + 1)) + 2

    async def all_at_once() -> list[tuple[int, int | None]]:
        import aiohttp

        from .flood import PING, socket_url

        async with aiohttp.ClientSession() as http:

            async def one(path: str) -> tuple[int, int | None]:
                pongs = 0
                async with http.ws_connect(socket_url(daphne.url, path, token)) as ws:
                    for _ in range(per_socket):
                        await ws.send_str(PING)
                    async with asyncio.timeout(10):
                        async for message in ws:
                            pongs += '"pong"' in message.data
                            if pongs == per_socket:
                                break
                    return pongs, ws.close_code

            paths = [f"/ws/rooms/{code}/" if n % 2 else "/ws/me/" for n in range(sockets)]
            return await asyncio.gather(*(one(path) for path in paths))

    results = asyncio.run(all_at_once())
    closed = [code for _, code in results if code is not None]
    assert closed and set(closed) == {4429}, results
    # All of them together were served at most the account's burst and its refill.
    assert sum(pongs for pongs, _ in results) <= settings.WS_ACCOUNT_BURST + settings.WS_ACCOUNT_RATE * 10


def closed_for_flood(daphne: Daphne) -> float:
    """How many sockets the server has closed with 4429, from its own `/metrics` (one
    process, so its figures are all of them)."""
    answer = httpx.get(f"{daphne.url}/metrics", timeout=30)
    answer.raise_for_status()
    return sum(
        sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
        if sample.name == "gameserver_socket_closed_rate_limited_total"
    )


SERVER_ERRORS = ("Traceback", "Too many connections", "could not ", "Exception inside application", "ERROR")


def assert_no_error(log: str) -> None:
    found = [line for line in log.splitlines() if any(marker in line for marker in SERVER_ERRORS)]
    assert not found, "\n".join(found[:20])
