"""The Redis channel layer as this server runs it (settings.CHANNEL_LAYERS).

channels_redis' own layer, with two changes:

- **A pool that waits.** Its Redis connections come from one pool per event loop, and
  redis-py's plain pool refuses a connection beyond `max_connections` (100) with "Too
  many connections": 300 sockets closing at once each remove themselves from their
  groups, and two hundred of those removals failed. Here the pool is a
  `BlockingConnectionPool` of `CHANNELS_REDIS_POOL_SIZE` connections: a command beyond
  them waits up to `CHANNELS_REDIS_POOL_TIMEOUT` seconds for one to come free.
- **A change's notices in two round trips.** A change of a room sends each seated
  person's view to their group, the spectators' view and the notice to the room's
  (games/view_push.py); channels_redis' `group_send` costs four round trips to Redis a
  group. `group_send_many` reads every group's members in one pipeline and queues every
  message in one script, in the order given (each a little later than the one before,
  as the receiving end pops the lowest score first).
- **A dropped notice is a warning, and counted.** channels_redis drops a group message
  for a channel already holding `capacity` messages (a socket process that is paused or
  too busy to read) and says so only in an INFO line; a socket's own buffer in the
  socket process drops its oldest message when full, silently. Both are logged at
  WARNING here and counted in `gameserver_notices_dropped_total` (api/socket_metrics.py).
"""

from __future__ import annotations

import collections
import functools
import logging
import time
from typing import Any

from channels_redis.core import BoundedQueue, RedisChannelLayer
from redis import asyncio as aioredis

from .socket_metrics import NOTICE_DROPPED_IN_PROCESS, NOTICE_DROPPED_IN_REDIS, notices_dropped

logger = logging.getLogger(__name__)

# The line channels_redis.core logs (at INFO) when a group message found channels over
# capacity: the count it dropped, the group's size, the group. tests/sockets_load checks
# that a drop still produces it.
OVER_CAPACITY = "%s of %s channels over capacity in group %s"


class DroppedNoticeLog(logging.Filter):
    """On channels_redis.core's logger (settings.LOGGING): its over-capacity line becomes
    a WARNING and its count is added to the dropped notices."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg == OVER_CAPACITY and isinstance(record.args, tuple) and record.args:
            dropped = record.args[0]
            notices_dropped.labels(NOTICE_DROPPED_IN_REDIS).inc(dropped if isinstance(dropped, int) else 1)
            record.msg = "notice dropped: " + OVER_CAPACITY + " (CHANNELS_CAPACITY)"
            record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        return True


class _SocketBuffer(BoundedQueue):
    """A socket's notices waiting in the socket process; full, it drops the oldest."""

    def put_nowait(self, item: Any) -> None:
        if self.full():
            notices_dropped.labels(NOTICE_DROPPED_IN_PROCESS).inc()
            logger.warning("notice dropped: a socket's buffer holds %s unread (CHANNELS_CAPACITY)", self.maxsize)
        super().put_nowait(item)


class SizedRedisChannelLayer(RedisChannelLayer):
    def __init__(self, *, pool_size: int, pool_timeout: float, **config: Any) -> None:
        super().__init__(**config)
        self.pool_size = pool_size
        self.pool_timeout = pool_timeout
        buffer = functools.partial(_SocketBuffer, self.capacity)
        self.receive_buffer: collections.defaultdict[str, _SocketBuffer] = collections.defaultdict(buffer)

    def create_pool(self, index: int) -> Any:
        host = dict(self.hosts[index])
        if "address" not in host:
            # A host given otherwise (Redis Sentinel's `sentinels`): channels_redis' own pool.
            return super().create_pool(index)
        return aioredis.BlockingConnectionPool.from_url(
            host.pop("address"), max_connections=self.pool_size, timeout=self.pool_timeout, **host
        )

    async def group_send_many(self, sends: list[tuple[str, dict[str, Any]]]) -> None:
        """`group_send` of each (group, message), in order, in two round trips."""
        if len(self.hosts) != 1:  # sharded: each group's own connection, as channels_redis does
            for group, message in sends:
                await self.group_send(group, message)
            return
        connection = self.connection(0)
        now = time.time()
        reading = connection.pipeline(transaction=False)
        for group, _ in sends:
            key = self._group_key(group)
            reading.zremrangebyscore(key, min=0, max=int(now) - self.group_expiry)
            reading.zrange(key, 0, -1)
        members = (await reading.execute())[1::2]
        keys: list[str] = []
        messages: list[bytes] = []
        capacities: list[int] = []
        groups: list[str] = []
        for (group, message), names in zip(sends, members, strict=True):
            _, by_key, capacity = self._map_channel_keys_to_connection([n.decode() for n in names], message)
            for key, serialized in by_key.items():
                keys.append(key)
                messages.append(serialized)
                capacities.append(capacity[key])
                groups.append(group)
        if not keys:
            return
        # A score a little later for each message than the one before: the receiving end
        # pops the lowest first, so a socket hears a change's view before its notice.
        if now <= self._last_score:
            now = self._last_score + _SCORE_STEP
        self._last_score = now + _SCORE_STEP * (len(keys) - 1)
        over = await connection.eval(
            _QUEUE_LUA, len(keys), *keys, *messages, *capacities, now, _SCORE_STEP, int(self.expiry)
        )
        dropped = collections.Counter(groups[int(index) - 1] for index in over or [])
        for group, count in dropped.items():
            # channels_redis' own line, which DroppedNoticeLog turns into a counted warning.
            logging.getLogger("channels_redis.core").info(OVER_CAPACITY, count, groups.count(group), group)

    _last_score = 0.0


# Far above a score's precision at today's times (2**-22 s), far below a round trip.
_SCORE_STEP = 1e-5

# KEYS: channel keys (one may repeat); ARGV: each key's message, then each key's capacity,
# then the first score, the step between scores and the expiry. Drops a message for a
# channel at capacity, as channels_redis' group_send does, and answers their positions.
_QUEUE_LUA = """
local n = #KEYS
local first, step, expiry = tonumber(ARGV[2 * n + 1]), tonumber(ARGV[2 * n + 2]), tonumber(ARGV[2 * n + 3])
local over = {}
for i = 1, n do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, math.floor(first) - expiry)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[n + i]) then
        redis.call('ZADD', KEYS[i], string.format('%.6f', first + (i - 1) * step), ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        table.insert(over, i)
    end
end
return over
"""
