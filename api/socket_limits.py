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
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from django.conf import settings

from . import socket_metrics as metrics
from .socket_closes import RATE_LIMITED
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
