"""The Redis channel layer as this server runs it (settings.CHANNEL_LAYERS).

channels_redis' own layer, with two changes:

- **A pool that waits.** Its Redis connections come from one pool per event loop, and
  redis-py's plain pool refuses a connection beyond `max_connections` (100) with "Too
  many connections": 300 sockets closing at once each remove themselves from their
  groups, and two hundred of those removals failed. Here the pool is a
  `BlockingConnectionPool` of `CHANNELS_REDIS_POOL_SIZE` connections: a command beyond
  them waits up to `CHANNELS_REDIS_POOL_TIMEOUT` seconds for one to come free.
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
