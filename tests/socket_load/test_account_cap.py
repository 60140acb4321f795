"""One account holds at most WS_ACCOUNT_SOCKETS_MAX sockets open, on every socket process
together (api/socket_limits.py, AccountSockets): one more is closed with 4409 `too many
sockets`; a socket that closes gives its place back; and the places a dead process held
count only until their entries expire, while a live process's are refreshed. Every
socket is an app's: a token, no `Origin`."""

from __future__ import annotations

import asyncio
import copy
import time
import uuid

import aiohttp
import pytest
import redis
from channels.layers import InMemoryChannelLayer
from django.conf import settings

from api.channel_layer import SizedRedisChannelLayer
from api.socket_closes import TOO_MANY_SOCKETS
from api.socket_limits import SLOT_TTL_SECONDS, AccountSockets
from games.services import lobby
from tests.tokens import new_token

from .conftest import Daphne
from .flood import socket_url
from .test_flood import assert_no_error

CAP = settings.WS_ACCOUNT_SOCKETS_MAX


def layer_config() -> dict:
    return settings.CHANNEL_LAYERS["default"]["CONFIG"]


def sockets_key(account: int) -> str:
    return f"{layer_config()['prefix']}:sockets:{account}"


async def served_or_closed(ws: aiohttp.ClientWebSocketResponse) -> int | None:
    """None once the room's opening notice comes (the socket is served), else the close's
    code. No frame is sent: each would cost the account a token of its bucket (4429)."""
    message = await ws.receive(timeout=60)
    if message.type != aiohttp.WSMsgType.TEXT:
        assert message.type == aiohttp.WSMsgType.CLOSE, message
        return message.data
    assert message.json()["type"] == "changed", message.data
    return None


@pytest.mark.django_db(transaction=True)
def test_an_account_holds_at_most_its_cap_of_sockets_across_processes(daphne: Daphne, make_user):
    user = make_user()
    token = new_token(user)
    code = lobby.room_create(host=user, game="hearts", options={}).code
    log_from = daphne.log_size()
    client = redis.Redis.from_url(layer_config()["hosts"][0]["address"])
    key = sockets_key(user.pk)
    # Three places held by another socket process, alive (expiring later), and two by one
    # that died (their entries expired, never refreshed).
    now = time.time()
    client.zadd(key, {f"elsewhere-{n}": now + SLOT_TTL_SECONDS for n in range(3)})
    client.zadd(key, {f"dead-{n}": now - 1 for n in range(2)})

    async def run() -> tuple[list[int | None], int | None, int | None, int]:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
            url = socket_url(daphne.url, f"/ws/rooms/{code}/", token)
            opened = [await http.ws_connect(url) for _ in range(CAP - 3)]
            answers = [await served_or_closed(ws) for ws in opened]
            one_more = await http.ws_connect(url)
            refused = await served_or_closed(one_more)
            await one_more.close()
            # A socket closes: its place is free again (once the server has heard it).
            await opened.pop().close()
            again = TOO_MANY_SOCKETS.code
            for _ in range(50):
                retry = await http.ws_connect(url)
                again = await served_or_closed(retry)
                if again is None:
                    opened.append(retry)
                    break
                await retry.close()
                await asyncio.sleep(0.1)
            members = client.zcard(key)
            for ws in opened:
                await ws.close()
            return answers, refused, again, int(members)

    answers, refused, again, members = asyncio.run(run())
    # The cap counted the other process's three: CAP - 3 served here, the next refused.
    assert answers == [None] * (CAP - 3)
    assert refused == TOO_MANY_SOCKETS.code
    assert again is None
    assert members == CAP  # the other process's three and this one's
    # Closed: this process's entries leave the set; the other process's stay until they expire.
    deadline = time.monotonic() + 30
    while client.zcard(key) > 3 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert sorted(client.zrange(key, 0, -1)) == [f"elsewhere-{n}".encode() for n in range(3)]
    client.delete(key)
    assert_no_error(daphne.log_since(log_from))


@pytest.mark.asyncio
async def test_entries_are_refreshed_while_open_and_expire_after_a_process_dies():
    config = copy.deepcopy(layer_config())
    config.update(prefix=f"cap-{uuid.uuid4().hex[:8]}")
    layer = SizedRedisChannelLayer(**config)
    clock = [1000.0]
    alive, dead = AccountSockets(clock=lambda: clock[0]), AccountSockets(clock=lambda: clock[0])
    try:
        assert await dead.hold(layer, 7, "dead!1", cap=2)
        assert await alive.hold(layer, 7, "alive!1", cap=2)
        assert not await alive.hold(layer, 7, "alive!2", cap=2)  # two held: the cap
        assert await alive.hold(layer, 7, "alive!1", cap=2)  # holding again is no more
        # Time passes: the live process refreshes its entry, the dead one never does.
        clock[0] += SLOT_TTL_SECONDS * 2 / 3
        await alive.refresh(layer)
        clock[0] += SLOT_TTL_SECONDS * 2 / 3
        assert await alive.hold(layer, 7, "alive!2", cap=2)  # the dead entry has expired
        assert not await alive.hold(layer, 7, "alive!3", cap=2)
        await alive.release(layer, "alive!1")
        assert await alive.hold(layer, 7, "alive!3", cap=2)
        # Another account counts apart.
        assert await alive.hold(layer, 8, "alive!4", cap=2)
    finally:
        for account in (7, 8):
            connection = layer.connection(0)
            await connection.delete(f"{layer.prefix}:sockets:{account}")
        if alive.refresher is not None:
            alive.refresher.cancel()
        if dead.refresher is not None:
            dead.refresher.cancel()
        await layer.flush()


@pytest.mark.asyncio
async def test_without_redis_the_cap_counts_the_process_own_sockets():
    layer = InMemoryChannelLayer()
    sockets = AccountSockets()
    assert await sockets.hold(layer, 1, "a", cap=1)
    assert not await sockets.hold(layer, 1, "b", cap=1)
    await sockets.release(layer, "a")
    assert await sockets.hold(layer, 1, "b", cap=1)
