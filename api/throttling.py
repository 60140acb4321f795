"""Rate limits counted in fixed windows: one counter per client and window.

DRF's own throttles keep every request's timestamp of the last window in the cache and
rewrite that whole list on each request, so a 1200/min limit moves up to 1200 numbers
through Redis per call. These subclasses keep DRF's rates, scopes, identities and
`Retry-After` answers, and store one integer per window instead (an atomic increment).
A client may burst up to twice the rate across a window boundary; for abuse limits
that is fine.
"""

from __future__ import annotations

import time
from typing import Any

from rest_framework import throttling


class FixedWindowMixin:
    cache: Any
    rate: str | None
    num_requests: int
    duration: int
    timer: Any

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        now = self.timer()
        window = int(now // self.duration)
        self.window_ends = (window + 1) * self.duration
        counter = f"{key}:{window}"
        # add() makes the counter with the window's lifetime; incr() is atomic.
        self.cache.add(counter, 0, self.duration + 1)
        try:
            count = self.cache.incr(counter)
        except ValueError:  # expired between the two calls: a new window begins
            self.cache.add(counter, 1, self.duration + 1)
            count = 1
        self.now = now
        return count <= self.num_requests

    def wait(self) -> float:
        return max(1.0, self.window_ends - self.now)


class AnonRateThrottle(FixedWindowMixin, throttling.AnonRateThrottle):
    timer = time.time


class UserRateThrottle(FixedWindowMixin, throttling.UserRateThrottle):
    timer = time.time


class ScopedRateThrottle(FixedWindowMixin, throttling.ScopedRateThrottle):
    timer = time.time

    def allow_request(self, request: Any, view: Any) -> bool:
        # DRF's scoped throttle reads the view's scope first, then counts.
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)
