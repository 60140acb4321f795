"""How fast a socket, and an account's sockets together, may send: token buckets.

Every frame a client sends costs its socket one token and its account one token, and
every socket an account opens costs the account one (api/consumers.py); a bucket holds
at most `burst` tokens and gains `rate` a second (WS_SOCKET_* and WS_ACCOUNT_* settings).
A socket whose bucket, or whose account's, is empty is closed with 4429, and whatever it
sends after is dropped unread.

A move (an `action` frame, api/socket_moves.py) is not a frame of those buckets: it is
an HTTP request, counted by HTTP's throttle as a POST is, so a person moving as fast as
the table lets them is never closed. Its socket has a bucket of moves of its own
(WS_ACTION_*: by default as many a second as HTTP's per-user rate allows, twice that at
once) so that a flood of moves is closed with 4429 too, rather than queued.

The frames are counted here, in ASGI middleware between the server and the consumer,
and not in the consumer: daphne parses a flood's frames as fast as they come and queues
each for the application, while a Channels consumer takes its messages one at a time,
each through several tasks, so a consumer that counted them fell ever further behind and
answered its first pings only after seconds (and everybody else's with it). Read here,
straight from the server's queue, a flood's frames are counted, and after the close
dropped, as fast as the server parses them (a task takes all it has queued at every turn
of the event loop), and what reaches the consumer is at most a burst. The server then
drops the connection once the client answers the close, or its close handshake times
out (autobahn's one second).

A bucket refuses rather than waits (as a leaky-bucket limiter such as aiolimiter does):
a socket has nothing to delay, only to stop. Buckets live in the socket process: an
account's sockets spread over several daphne processes have a bucket in each, and each
process is protected alike.

Two more limits stand before a socket is served:

- **The handshakes a process takes at once** (`HandshakeGate`, the outermost middleware
  of the sockets). daphne answers HTTP 403 to any handshake the application has not
  accepted within its `--websocket_connect_timeout` (5 s), and autobahn drops the
  connection at the same time (aiohttp retries such a GET once, unseen); a consumer
  accepts a socket once it is served, its credentials and, for a room, the room read,
  and all of a process's database work waited on the one thread channels'
  `database_sync_to_async` runs it on (api/db_async.py): 300 sockets at once on a
  loaded machine waited past the timeout, and their clients, told nothing but 403,
  reconnected into the same queue. A process is now *overloaded* when more than
  WS_HANDSHAKES_WAITING_MAX handshakes are waiting to be served (the next one is closed
  at once, reading nothing), or when one is not served within WS_ACCEPT_BUDGET_SECONDS
  (3 s, under daphne's timeout): such a socket is accepted and closed with 1013, "try
  again later", which a client retries after a backoff with full jitter. A socket the
  gate closed is its application's no more (what it says goes nowhere); the
  application still hears the disconnect, and cleans up as after any close. Should the
  event loop be so late that even the gate's close comes after daphne's timeout,
  daphne's protocol closes it with 1013 itself rather than answering 403
  (api/daphne_close_reason.py).
- **The sockets an account holds open** (`AccountSockets`), WS_ACCOUNT_SOCKETS_MAX on
  all socket processes together: each open socket is an entry of a sorted set in the
  channel layer's Redis, scored with when it expires; its process refreshes its
  entries every `SLOT_REFRESH_SECONDS`, and a socket's entry goes when it closes. A
  process that dies leaves entries that expire `SLOT_TTL_SECONDS` later. One over the
  cap is closed with 4409. Without Redis (the one-process start) the count is the
  process's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from django.conf import settings

from . import socket_metrics as metrics
from .socket_closes import RATE_LIMITED, SERVER_ERROR, TRY_AGAIN_LATER, SocketClose
from .socket_moves import is_action

logger = logging.getLogger(__name__)


@dataclass
class TokenBucket:
    rate: float  # tokens gained per second
    burst: float  # tokens held at most
    tokens: float = field(init=False)
    at: float | None = field(init=False, default=None)  # when `tokens` was counted

    def __post_init__(self) -> None:
        self.tokens = self.burst

    def take(self, now: float) -> bool:
        """Take a token if there is one (False: the bucket is empty)."""
        if self.at is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def full_at(self) -> float:
        """When the bucket is full again if nothing is taken: then it is as good as new."""
        if self.at is None:
            return -float("inf")
        return self.at + (self.burst - self.tokens) / self.rate if self.rate > 0 else float("inf")


class AccountBuckets:
    """One bucket per account, for all of its sockets in this process. A bucket that has
    filled up again is forgotten (a new one is the same), so the table holds only the
    accounts that sent something within the last `burst / rate` seconds."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.buckets: dict[int, TokenBucket] = {}
        self.swept_at = clock()

    def take(self, account: int) -> bool:
        now = self.clock()
        self._sweep(now)
        bucket = self.buckets.get(account)
        if bucket is None:
            bucket = self.buckets[account] = TokenBucket(self.rate, self.burst)
        return bucket.take(now)

    def _sweep(self, now: float) -> None:
        # At most once per refill time, so a sweep costs O(1) per take on average.
        if now - self.swept_at < self.burst / max(self.rate, 1e-9):
            return
        self.swept_at = now
        for account in [a for a, bucket in self.buckets.items() if bucket.full_at() <= now]:
            del self.buckets[account]


_account_buckets: AccountBuckets | None = None


def account_buckets() -> AccountBuckets:
    """This process's buckets of accounts (made anew when the settings change, as in tests)."""
    global _account_buckets
    rate, burst = settings.WS_ACCOUNT_RATE, settings.WS_ACCOUNT_BURST
    if _account_buckets is None or (_account_buckets.rate, _account_buckets.burst) != (rate, burst):
        _account_buckets = AccountBuckets(rate, burst)
    return _account_buckets


def _limit_exceeded(bucket: TokenBucket, account: int | None) -> str | None:
    """Which limit a frame exceeds, if any, once its tokens are taken."""
    if not bucket.take(time.monotonic()):
        return metrics.LIMIT_SOCKET
    if account is not None and not account_buckets().take(account):
        return metrics.LIMIT_ACCOUNT
    return None


def _is_action(message: dict[str, Any]) -> bool:
    """A text frame that is a move: read whole, as the consumer will (a frame that only
    says "action" somewhere inside is not one)."""
    text = message.get("text")
    if not text or '"action"' not in text:
        return False
    try:
        return is_action(orjson.loads(text))
    except orjson.JSONDecodeError:
        return False


CLOSE_MESSAGE = RATE_LIMITED.message()
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class FrameRateLimit:
    """ASGI middleware for sockets, inside the authentication (it reads `scope["user"]`)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> Any:
        if scope["type"] != "websocket":
            return await self.inner(scope, receive, send)
        user = scope.get("user")
        account = user.pk if user is not None and user.is_authenticated else None
        bucket = TokenBucket(settings.WS_SOCKET_RATE, settings.WS_SOCKET_BURST)
        moves = TokenBucket(settings.WS_ACTION_RATE, settings.WS_ACTION_BURST)
        passed: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        closed = False

        async def pump() -> None:
            """Take everything the server has queued, at once: the consumer's pace (a
            message takes it several turns of the event loop) must not decide when a
            flood is seen."""
            nonlocal closed
            try:
                while True:
                    message = await receive()
                    if message["type"] == "websocket.receive":
                        if closed:
                            continue  # after the close, unread
                        if _is_action(message):
                            limit = None if moves.take(time.monotonic()) else metrics.LIMIT_ACTIONS
                        else:
                            limit = _limit_exceeded(bucket, account)
                        if limit is not None:
                            closed = True
                            metrics.sockets_closed_rate_limited.labels(limit).inc()
                            await send(CLOSE_MESSAGE)
                            continue
                    passed.put_nowait(message)
                    if message["type"] == "websocket.disconnect":
                        return
            except Exception:
                # The consumer must still hear the end, or it would wait for ever in its groups.
                logger.exception("could not read a socket's frames")
                passed.put_nowait({"type": "websocket.disconnect", "code": 1011})

        async def unless_closed(message: dict[str, Any]) -> None:
            # What the consumer still says after the close (the answers to the pings
            # it has yet to read) goes nowhere: the server refuses it with an error.
            nonlocal closed
            if closed and message["type"] in ("websocket.send", "websocket.close"):
                return
            await send(message)
            if message["type"] == "websocket.close":
                closed = True  # the consumer's own close: what follows is not read either

        pumping = asyncio.ensure_future(pump())
        try:
            return await self.inner(scope, passed.get, unless_closed)
        finally:
            pumping.cancel()


ACCEPT_MESSAGE = {"type": "websocket.accept"}


async def refuse_at_once(close: SocketClose, receive: Receive, send: Send) -> None:
    """Accept a socket whose handshake was read and close it as `close` says, without the
    application (daphne answers a close before the accept 403, which a client cannot tell
    from any other failure); what the client sends after is dropped until it is gone."""
    await send(ACCEPT_MESSAGE)
    await send(close.message())
    while (await receive())["type"] != "websocket.disconnect":
        pass


class GateVerdict:
    """What the gate decided of one socket, in its scope (`handshake_gate`): `closed` once
    the gate closed it with 1013 for taking too long. Its application goes on opening it
    unseen, and stops at its next step (`NoticeConsumer.refused_meanwhile`): a refused
    socket's presence, groups and reads would be work for nobody on a machine already
    too busy."""

    closed = False


class HandshakeGate:
    """ASGI middleware for sockets, outermost: the handshakes waiting in this process are
    counted from their start (daphne makes the application instance as the handshake
    arrives) until the application accepts or closes; past WS_HANDSHAKES_WAITING_MAX, or
    past WS_ACCEPT_BUDGET_SECONDS for one, the socket is accepted and closed with 1013."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.waiting = 0

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> Any:
        if scope["type"] != "websocket":
            return await self.inner(scope, receive, send)
        if self.waiting >= settings.WS_HANDSHAKES_WAITING_MAX:
            metrics.sockets_refused_busy.labels(metrics.BUSY_WAITING).inc()
            return await refuse_at_once(TRY_AGAIN_LATER, receive, send)
        self.waiting += 1
        verdict = GateVerdict()
        scope = {**scope, "handshake_gate": verdict}
        answered = False  # the application accepted or closed, or the gate closed the socket
        closed_here = False

        def answer() -> None:
            nonlocal answered
            if not answered:
                answered = True
                self.waiting -= 1

        async def close_here(close: SocketClose) -> None:
            nonlocal closed_here
            answer()
            closed_here = verdict.closed = True
            await send(ACCEPT_MESSAGE)
            await send(close.message())

        async def passed_on(message: dict[str, Any]) -> None:
            if closed_here:
                return  # the gate closed this socket: nothing the application says reaches it
            answer()
            await send(message)

        async def budget() -> None:
            await asyncio.sleep(settings.WS_ACCEPT_BUDGET_SECONDS)
            if not answered:
                metrics.sockets_refused_busy.labels(metrics.BUSY_BUDGET).inc()
                await close_here(TRY_AGAIN_LATER)

        timer = asyncio.ensure_future(budget())
        try:
            return await self.inner(scope, receive, passed_on)
        except Exception:
            # Failed before it answered (its database or Redis out of reach): a close the
            # client can read rather than daphne's 500; the error is logged as ever.
            if not answered:
                with contextlib.suppress(Exception):
                    await close_here(SERVER_ERROR)
            raise
        finally:
            timer.cancel()
            answer()


# A socket's entry in its account's set lasts this long unless refreshed; its process
# refreshes all of its entries this often (one Redis round trip).
SLOT_TTL_SECONDS = 60.0
SLOT_REFRESH_SECONDS = 20.0

# Drop the expired entries, then add this one if the account holds fewer than the cap:
# one atomic command. KEYS[1]: the account's set; ARGV: now, expiry, member, cap, ttl (ms).
_HOLD_SCRIPT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZSCORE', KEYS[1], ARGV[3]) then return 1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
"""


class AccountSockets:
    """The sockets each account holds open, on every socket process together (in the
    channel layer's Redis), or in this process alone (any other layer)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.held: dict[str, int] = {}  # this process's entries: socket -> account
        self.local: dict[int, set[str]] = {}  # without Redis: each account's sockets
        self.refresher: asyncio.Task[None] | None = None

    @staticmethod
    def _redis(layer: Any, account: int) -> tuple[Any, str] | None:
        if not hasattr(layer, "consistent_hash") or not hasattr(layer, "connection"):
            return None
        key = f"{layer.prefix}:sockets:{account}"
        return layer.connection(layer.consistent_hash(key)), key

    async def hold(self, layer: Any, account: int, socket: str, cap: int) -> bool:
        """Count `socket` among `account`'s open sockets, if it holds fewer than `cap`."""
        redis = self._redis(layer, account)
        if redis is None:
            mine = self.local.setdefault(account, set())
            if len(mine) >= cap and socket not in mine:
                return False
            mine.add(socket)
            self.held[socket] = account
            return True
        connection, key = redis
        now = self.clock()
        held = await connection.eval(
            _HOLD_SCRIPT, 1, key, now, now + SLOT_TTL_SECONDS, socket, cap, int(SLOT_TTL_SECONDS * 1000)
        )
        if not held:
            return False
        self.held[socket] = account
        loop = asyncio.get_running_loop()
        if self.refresher is None or self.refresher.done() or self.refresher.get_loop() is not loop:
            self.refresher = loop.create_task(self._refresh_all(layer))
        return True

    async def release(self, layer: Any, socket: str) -> None:
        account = self.held.pop(socket, None)
        if account is None:
            return
        redis = self._redis(layer, account)
        if redis is None:
            mine = self.local.get(account, set())
            mine.discard(socket)
            if not mine:
                self.local.pop(account, None)
            return
        connection, key = redis
        await connection.zrem(key, socket)

    async def refresh(self, layer: Any) -> None:
        """Push back the expiry of every entry this process holds (one pipeline a host)."""
        expiry = self.clock() + SLOT_TTL_SECONDS
        by_connection: dict[int, tuple[Any, list[tuple[str, str]]]] = {}
        for socket, account in list(self.held.items()):
            redis = self._redis(layer, account)
            if redis is None:
                continue
            connection, key = redis
            by_connection.setdefault(id(connection), (connection, []))[1].append((key, socket))
        for connection, entries in by_connection.values():
            pipe = connection.pipeline(transaction=False)
            for key, socket in entries:
                pipe.zadd(key, {socket: expiry})
                pipe.pexpire(key, int(SLOT_TTL_SECONDS * 1000))
            await pipe.execute()

    async def _refresh_all(self, layer: Any) -> None:
        while self.held:
            await asyncio.sleep(SLOT_REFRESH_SECONDS)
            try:
                await self.refresh(layer)
            except Exception:  # the next round tries again; an entry lasts three rounds
                logger.exception("could not refresh the account sockets' entries")


_account_sockets = AccountSockets()


def account_sockets() -> AccountSockets:
    """This process's record of the sockets it holds for their accounts."""
    return _account_sockets
