"""Rate limits counted in fixed windows: one counter per client and window.

DRF's own throttles keep every request's timestamp of the last window in the cache and
rewrite that whole list on each request, so a 1200/min limit moves up to 1200 numbers
through Redis per call. These subclasses keep DRF's rates, scopes, identities and
`Retry-After` answers, and store one integer per window instead (an atomic increment,
core.counters); the per-user and anonymous rates, never taken back, count in batches
where they are large (`core.counters.take`: a Redis round trip once in a hundredth of
the limit, and a few requests of a window may be refused early, never one let past).
A client may burst up to twice the rate across a window boundary; for abuse limits
that is fine.

A client's address is REMOTE_ADDR unless `NUM_PROXIES` (settings) says how many proxies
of ours append to X-Forwarded-For: DRF then reads the address the outermost of them
saw, and whatever a client wrote into the header itself is ignored.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rest_framework import throttling

from core.counters import count, take, uncount

if TYPE_CHECKING:  # rest_framework.views imports this module, through the settings
    from rest_framework.request import Request
    from rest_framework.views import APIView


class FixedWindowMixin(throttling.SimpleRateThrottle):
    """Put first among the bases, before the DRF throttle whose key and rate it counts."""

    # Set from the rate (DRF's SimpleRateThrottle.__init__); both None when the rate is None.
    num_requests: int | None
    duration: int | None
    window_ends: int
    # The window's counter this request added one to (None when it counted nothing).
    counted: str | None = None
    # Whether a large limit is counted in batches, per process (core.counters.take): for
    # limits never taken back, where a few requests refused early in a window are fine.
    batched = False

    def allow_request(self, request: Request, view: APIView) -> bool:
        limit, duration = self.num_requests, self.duration
        if self.rate is None or limit is None or duration is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        now = self.timer()
        window = int(now // duration)
        self.window_ends = (window + 1) * duration
        self.now = now
        if self.batched:
            # Never taken back: counted in batches (core.counters.take).
            return take(f"{key}:{window}", duration + 1, limit)
        self.counted = f"{key}:{window}"
        return count(self.counted, duration + 1) <= limit

    def uncount(self) -> None:
        """Take back what `allow_request` counted (it was not what the limit counts)."""
        if self.counted is not None:
            uncount(self.counted)
            self.counted = None

    def wait(self) -> float:
        return max(1.0, self.window_ends - self.now)


class AnonRateThrottle(FixedWindowMixin, throttling.AnonRateThrottle):
    timer = time.time
    batched = True


class UserRateThrottle(FixedWindowMixin, throttling.UserRateThrottle):
    timer = time.time
    batched = True


class ScopedRateThrottle(FixedWindowMixin, throttling.ScopedRateThrottle):
    timer = time.time

    def allow_request(self, request: Request, view: APIView) -> bool:
        # DRF's scoped throttle reads the view's scope first, then counts.
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)


class SignInThrottle(FixedWindowMixin, throttling.SimpleRateThrottle):
    """A sign-in counter of one identity, named by the caller rather than read from the
    request (api/sign_in_limits.py decides what is counted, and takes back successes)."""

    timer = time.time

    def __init__(self, scope: str, ident: str) -> None:
        self.scope = scope
        super().__init__()
        self.ident = ident

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.ident}


class ClientSeedThrottle(FixedWindowMixin, throttling.SimpleRateThrottle):
    """`PUT rooms/{code}/client_seed` per seat (the account in the room): a seed is set
    a few times a match, not hundreds of times a minute."""

    scope = "client_seed"
    timer = time.time

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        user = getattr(request, "user", None)
        code = getattr(view, "kwargs", {}).get("code")
        if user is None or not user.is_authenticated or not isinstance(code, str):
            return None  # refused further on (not signed in, or no such room)
        return self.cache_format % {"scope": self.scope, "ident": f"{code}:{user.pk}"}


class ChatRoomThrottle(FixedWindowMixin, throttling.SimpleRateThrottle):
    """Lines said at one table by everyone together (`chat_room`): a crowd of
    spectators cannot flood a table's talk."""

    scope = "chat_room"
    timer = time.time

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        code = getattr(view, "kwargs", {}).get("code")
        if not isinstance(code, str):
            return None
        return self.cache_format % {"scope": self.scope, "ident": code}
