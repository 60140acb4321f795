"""The Redis channel layer as this server runs it (settings.CHANNEL_LAYERS).

channels_redis' own layer, with two changes:

- **A pool that waits.** Its Redis connections come from one pool per event loop, and
  redis-py's plain pool refuses a connection beyond `max_connections` (100) with "Too
  many connections": 300 sockets closing at once each remove themselves from their
  groups, and two hundred of those removals failed. Here the pool is a
  `BlockingConnectionPool` of `CHANNELS_REDIS_POOL_SIZE` connections: a command beyond
  them waits up to `CHANNELS_REDIS_POOL_TIMEOUT` seconds for one to come free.
- **A socket process's messages in one round trip** a batch, not four a message
  (`receive_single`).
- **A change's notices in two round trips.** A change of a room sends each seated
  person's view to their group, the spectators' view and the notice to the room's
  (games/view_push.py); channels_redis' `group_send` costs four round trips to Redis a
  group. `group_send_many` reads every group's members in one pipeline and queues every
  message in one script, in the order given (each a little later than the one before,
  as the receiving end pops the lowest score first).
- **Who listens, asked from a request.** A change makes a view only for the groups that
  have members (games/view_push.py); `members_now` reads them in one pipeline on a plain
  (sync) Redis connection of the process's own, from the request's thread.
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
import os
import threading
import time
from typing import Any

import redis
from channels_redis.core import BoundedQueue, RedisChannelLayer
from redis import asyncio as aioredis

from games.live import EXCEPT_GROUPS

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

    def members_now(self, groups: list[str]) -> dict[str, list[str]] | None:
        """Each group's channels as Redis holds them now (those not expired), read in one
        round trip from sync code; None where they cannot be read so (a sharded layer,
        or a host given without an address): then every group counts as listening."""
        if len(self.hosts) != 1 or "address" not in self.hosts[0]:
            return None
        client = self._sync_client()
        floor = int(time.time()) - self.group_expiry
        reading = client.pipeline(transaction=False)
        for group in groups:
            reading.zrangebyscore(self._group_key(group), min=floor + 1, max="+inf")
        read = reading.execute()
        return {group: [n.decode() for n in names] for group, names in zip(groups, read, strict=True)}

    _sync: tuple[int, redis.Redis] | None = None
    _sync_lock = threading.Lock()

    def _sync_client(self) -> redis.Redis:
        # One client per process (a forked worker makes its own), with its own pool.
        with self._sync_lock:
            if self._sync is None or self._sync[0] != os.getpid():
                host = {k: v for k, v in self.hosts[0].items() if k != "address"}
                self._sync = (os.getpid(), redis.Redis.from_url(self.hosts[0]["address"], **host))
            return self._sync[1]

    async def group_send_many(self, sends: list[tuple[str, dict[str, Any]]]) -> None:
        """`group_send` of each (group, message), in order, in two round trips; what goes
        to one socket process's channels goes as one Redis message (`receive_single`)."""
        if len(self.hosts) != 1:  # sharded: each group's own connection, as channels_redis does
            for group, message in sends:
                await self.group_send(group, message)
            return
        connection = self.connection(0)
        now = time.time()
        # Every group named, each once: those sent to, and those a message skips.
        named = list(
            dict.fromkeys([group for group, _ in sends] + [g for _, m in sends for g in m.get(EXCEPT_GROUPS, ())])
        )
        reading = connection.pipeline(transaction=False)
        for group in named:
            key = self._group_key(group)
            reading.zremrangebyscore(key, min=0, max=int(now) - self.group_expiry)
            reading.zrange(key, 0, -1)
        read = (await reading.execute())[1::2]
        members = {group: [n.decode() for n in names] for group, names in zip(named, read, strict=True)}
        # Each Redis key's share, in the order sent: (group, its channels there, message).
        shares: dict[str, list[tuple[str, list[str], dict[str, Any]]]] = {}
        for group, message in sends:
            skipped = {name for other in message.get(EXCEPT_GROUPS, ()) for name in members[other]}
            message = {k: v for k, v in message.items() if k != EXCEPT_GROUPS}
            channels: dict[str, list[str]] = {}
            for name in (n for n in members[group] if n not in skipped):
                channels.setdefault(self.prefix + (self.non_local_name(name) if "!" in name else name), []).append(name)
            for key, names_there in channels.items():
                shares.setdefault(key, []).append((group, names_there, message))
        keys: list[str] = []
        items: list[bytes] = []
        capacities: list[int] = []
        groups: list[list[str]] = []
        for key, share in shares.items():
            capacity = self.get_capacity(share[0][1][0])
            if key.endswith("!") and len(share) > 1:
                batch = [[names_there, message] for _, names_there, message in share]
                keys.append(key)
                items.append(self.serialize({"__asgi_channel__": [], _BATCH: batch}))
                capacities.append(capacity)
                groups.append([group for group, _, _ in share])
                continue
            for group, names_there, message in share:
                keys.append(key)
                items.append(self.serialize({**message, "__asgi_channel__": names_there}))
                capacities.append(capacity)
                groups.append([group])
        if not keys:
            return
        # A score a little later for each message than the one before: the receiving end
        # pops the lowest first, so a socket hears a change's view before its notice.
        if now <= self._last_score:
            now = self._last_score + _SCORE_STEP
        self._last_score = now + _SCORE_STEP * (len(keys) - 1)
        over = await connection.eval(
            _QUEUE_LUA, len(keys), *keys, *items, *capacities, now, _SCORE_STEP, int(self.expiry)
        )
        dropped = collections.Counter(group for index in over or [] for group in groups[int(index) - 1])
        reached = collections.Counter(group for share in groups for group in share)
        for group, count in dropped.items():
            # channels_redis' own line, which DroppedNoticeLog turns into a counted warning.
            logging.getLogger("channels_redis.core").info(OVER_CAPACITY, count, reached[group], group)

    _last_score = 0.0

    async def receive_single(self, channel: str) -> tuple[Any, Any]:
        """The next messages of a channel. This process's own channel (its sockets', "!")
        takes every message waiting at once, in one round trip (ZPOPMIN of up to
        RECEIVE_BATCH), or waits for the next (BZPOPMIN) when none is, and shares them out
        to their sockets' buffers in order; a batch (`group_send_many`) is shared out as
        its messages would have been one by one.

        channels_redis' own takes one message in four round trips: a script that puts back
        its backup queue, the pop, the message's copy in the backup queue and that copy's
        removal once delivered. The backup keeps a message whose receive was cancelled
        between its pop and its delivery; here such a message (its process stopping) is
        lost, as a notice still queued when a process exits is: clients catch up from
        the event log, and from their pings."""
        if "!" not in channel:
            to, message = await super().receive_single(channel)
            return self._shared_out(to, message)
        key = self.prefix + channel
        connection = self.connection(self.consistent_hash(channel))
        while True:
            popped = await connection.zpopmin(key, count=RECEIVE_BATCH)
            if popped:
                contents = [member for member, _ in popped]
                break
            waited = await connection.bzpopmin(key, timeout=self.brpop_timeout)
            if waited is not None:
                contents = [waited[1]]
                break
        for content in contents:
            message = self.deserialize(content)
            to = message.pop("__asgi_channel__", [])
            to, message = self._shared_out(to, message)
            for name in [to] if isinstance(to, str) else to:
                self.receive_buffer[name].put_nowait(message)
        # Everything is in its socket's buffer, where `receive` looks next.
        return [], {}

    def _shared_out(self, to: Any, message: dict[str, Any]) -> tuple[Any, Any]:
        """A batch's messages put in their channels' buffers (nothing left to deliver);
        any other message as it came."""
        batch = message.pop(_BATCH, None)
        if batch is None:
            return to, message
        for names, item in batch:
            for name in names:
                self.receive_buffer[name].put_nowait(item)
        return [], message


# The field of a Redis message that carries several, for one socket process's channels.
_BATCH = "__gameserver_batch__"
# The most messages a socket process takes off its channel in one round trip.
RECEIVE_BATCH = 100

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
