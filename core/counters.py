"""Counters in fixed windows, the one way rate limits count (the API's throttles,
api/throttling.py, and the services' own caps such as the confirmation mails to one
address): one integer per identity and window, in Redis where the cache is Redis (one
atomic command per count), else in the cache of the process (the one-process start).

A large limit (the API's per-user rate, 1200 a minute) is counted in batches (`take`):
a process reserves `limit // BATCH_PARTS` at once from the window's counter in Redis
(one INCRBY) and grants from its reservation, so a request costs a Redis round trip
once in that many instead of every time. Nobody is ever granted past the limit (a
reservation past it grants only what is left); the price is that another process's
unused reservation may refuse a client early: in a window, at most (processes - 1) times
batch requests (with 4 workers, 36 of 1200). A limit under twice BATCH_PARTS is counted
one by one, exactly, as is any counter that may be taken back (`uncount`).
"""

from __future__ import annotations

import math
import os
import threading
from typing import Any

import redis
from django.conf import settings
from django.core.cache import cache

# Add one to a window's counter, starting its expiry with the window: one command, run
# atomically by Redis (a pipeline of INCR and EXPIRE costs the client twice the work).
_COUNT_SCRIPT = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return count
"""
# Reserve ARGV[2] of a window's counter at once (`take`), starting its expiry with the window.
_RESERVE_SCRIPT = """
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
if count == tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return count
"""
# Take one back from a window's counter that still exists (an expired window stays gone:
# a DECR of a missing key would make one that never expires).
_UNCOUNT_SCRIPT = """
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end
return 0
"""


def _redis_counter() -> Any:
    """The counting script bound to a Redis client where the cache is Redis, else None.

    The client keeps one connection rather than a pool (a quarter less of the client's
    CPU per command), so it is one per thread (a socket process serves moves from
    several, api/socket_moves.py) and is made anew in a forked process.
    """
    mine = _clients.__dict__
    if mine.get("pid") != os.getpid() or mine.get("url") != getattr(settings, "REDIS_URL", ""):
        url = getattr(settings, "REDIS_URL", "")
        client = redis.Redis.from_url(url, single_connection_client=True) if url else None
        mine["pid"], mine["url"] = os.getpid(), url
        mine["count"] = client.register_script(_COUNT_SCRIPT) if client is not None else None
        mine["uncount"] = client.register_script(_UNCOUNT_SCRIPT) if client is not None else None
        mine["reserve"] = client.register_script(_RESERVE_SCRIPT) if client is not None else None
        with _reserving:
            _reserved.clear()
    return mine["count"]


_clients = threading.local()


# A batch is a limit's share this large: 1200 a minute reserves 12 at once.
BATCH_PARTS = 100
# What this process has reserved and not yet granted, by window counter; forgotten all
# at once past this many windows (what it still held is only ever refused, never granted).
_reserved: dict[str, int] = {}
_RESERVED_MOST = 10_000
# Socket moves take from worker threads of the socket process (api/socket_moves.py).
_reserving = threading.Lock()


def take(key: str, ttl: int, limit: int) -> bool:
    """Count one request in a window's counter: whether it is within `limit`. Counted in
    batches where the limit is large (above), else one by one."""
    batch = limit // BATCH_PARTS
    if batch < 2 or _redis_counter() is None:
        return count(key, ttl) <= limit
    with _reserving:
        left = _reserved.get(key, 0)
        if left > 0:
            _reserved[key] = left - 1
            return True
        total = int(_clients.reserve(keys=[f"throttle:{key}"], args=[ttl, batch]))
        granted = min(batch, max(0, limit - (total - batch)))
        if len(_reserved) >= _RESERVED_MOST:
            _reserved.clear()
        _reserved[key] = max(0, granted - 1)
        return granted > 0


def count(key: str, ttl: int) -> int:
    """Add one to a window's counter and return it, in one round trip on Redis."""
    counter = _redis_counter()
    if counter is not None:
        return int(counter(keys=[f"throttle:{key}"], args=[ttl]))
    # The local-memory cache of the one-process start: add() then an atomic incr().
    cache.add(key, 0, ttl)
    try:
        return cache.incr(key)
    except ValueError:  # expired between the two calls: a new window begins
        cache.add(key, 1, ttl)
        return 1


def uncount(key: str) -> None:
    """Take back one from a window's counter (a sign-in that succeeded, for one);
    nothing once the window is over."""
    if _redis_counter() is not None:
        _clients.uncount(keys=[f"throttle:{key}"])
        return
    try:
        cache.decr(key)
    except ValueError:  # the window is over: its counter is gone
        pass


def over_limit(key: str, *, limit: int, seconds: int, now: float) -> int | None:
    """Count one in the window of `seconds` that `now` falls in: the whole seconds until
    that window ends when the count is past `limit`, else None."""
    window = int(now // seconds)
    if count(f"{key}:{window}", seconds + 1) <= limit:
        return None
    return max(1, math.ceil((window + 1) * seconds - now))
