"""How fast a socket, and an account's sockets together, may send: token buckets.

Every frame a client sends costs its socket one token and its account one token, and
every socket an account opens costs the account one; a bucket holds at most `burst`
tokens and gains `rate` a second. A socket whose bucket, or whose account's, is empty is
closed with 4429 (api/consumers.py): a flood is cut off after a burst, whatever it sends,
before its frames are even decoded, so one account cannot slow the other sockets of a
process.

A bucket refuses rather than waits (as a leaky-bucket limiter such as aiolimiter does):
a socket has nothing to delay, only to stop. Buckets live in the socket process: an
account's sockets spread over several daphne processes have a bucket in each, and each
process is protected alike.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field


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
