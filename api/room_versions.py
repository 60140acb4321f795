"""Where each room with a socket in this process stands, as the database and the room's
notices last told it: room sockets answer pings from here (api/consumers.py).

A ping is how a client tells a quiet room from a lost notice, so the answer must not
trust the notices alone: they can be lost (a process restarted between a commit and its
notice, a socket process's channel over capacity). So a room's record says when it was
last confirmed: by reading the database, or by a notice, as of the moment the notice was
sent (`at`, which the sender stamps; one delivered late confirms no more than it knew).
A ping is answered from a record confirmed within `LIVE_PING_FRESH_SECONDS`; an older
one is read again first, once for all the process's sockets of that room however many
ask at once. A room in play confirms itself by its notices and costs pings nothing; a
flood of pings costs at most one read per room per that many seconds; and a lost notice
is still caught by a ping once its room's record is older than that (a client that
heard nothing for longer, as the web client's checks after 10 quiet seconds, always is).

The records are kept on the channel layer (`versions_for`), which lives as long as the
process, and only for rooms with a socket open here.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from games import selectors
from games.selectors import RoomPosition

from .db_async import database_sync_to_async


@database_sync_to_async
def _read(code: str) -> RoomPosition | None:
    return selectors.room_positions(codes=[code]).get(code)


class Answer(NamedTuple):
    position: RoomPosition | None  # None: no such room
    confirmed_at: float
    read: bool  # whether the database was read for it


@dataclass
class _Record:
    position: RoomPosition
    confirmed_at: float  # wall-clock seconds, as notices are stamped
    listeners: int = 0


class RoomVersions:
    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.rooms: dict[str, _Record] = {}
        # Each room's read under way, with its number (reads are numbered as they begin).
        self.reading: dict[str, tuple[int, asyncio.Future[Answer]]] = {}
        self.reads_begun = 0

    def listen(self, code: str, position: RoomPosition, *, confirmed_at: float) -> None:
        """A socket of `code` opened, told `position` as confirmed at `confirmed_at`."""
        record = self._learn(code, position, confirmed_at)
        record.listeners += 1

    def forget(self, code: str) -> None:
        """A socket of `code` closed."""
        record = self.rooms.get(code)
        if record is not None:
            record.listeners -= 1
            if record.listeners <= 0:
                del self.rooms[code]

    def heard(self, code: str, position: RoomPosition, *, sent_at: float | None) -> None:
        """A notice of `code` arrived, sent at `sent_at` (None: not stamped, confirms nothing)."""
        if code in self.rooms:
            self._learn(code, position, sent_at if sent_at is not None else -float("inf"))

    def _learn(self, code: str, position: RoomPosition, at: float) -> _Record:
        record = self.rooms.get(code)
        if record is None:
            record = self.rooms[code] = _Record(position, at)
            return record
        # Notices of one room sent by two processes may cross: the later position stands
        # (version first, then the log: a client seed is logged with no change of version).
        if position > record.position:
            record.position = position
        # A notice stamped by a machine whose clock runs ahead confirms no further than now.
        record.confirmed_at = max(record.confirmed_at, min(at, self.clock()))
        return record

    def mark(self) -> int:
        """This moment, for `position(begun_after=)`: a read begun after it."""
        return self.reads_begun

    async def position(self, code: str, fresh_for: float, *, begun_after: int | None = None) -> Answer:
        """The room's position (None: no such room) and when it was confirmed: from its
        record if that was confirmed within `fresh_for` seconds, else from the database,
        read once for every socket of the room asking meanwhile. With `begun_after` (a
        `mark()`), only a read begun after that mark will do: a socket that has just
        joined the room's group must not share a read begun before it had joined."""
        record = self.rooms.get(code)
        if record is not None and self.clock() - record.confirmed_at < fresh_for:
            return Answer(record.position, record.confirmed_at, read=False)
        under_way = self.reading.get(code)
        if under_way is None or (begun_after is not None and under_way[0] <= begun_after):
            self.reads_begun += 1
            under_way = (self.reads_begun, asyncio.ensure_future(self._read_and_learn(code)))
            self.reading[code] = under_way
            under_way[1].add_done_callback(functools.partial(self._read_done, code, under_way))
        # A socket that closes while waiting does not cancel the others' read.
        return await asyncio.shield(under_way[1])

    def _read_done(self, code: str, done: tuple[int, asyncio.Future[Answer]], _: object) -> None:
        # A later read of the room may have begun meanwhile: it stays.
        if self.reading.get(code) is done:
            del self.reading[code]

    async def _read_and_learn(self, code: str) -> Answer:
        read_at = self.clock()
        position = await _read(code)
        if position is not None and code in self.rooms:
            # A notice heard meanwhile may already tell a later version.
            position = self._learn(code, position, read_at).position
        return Answer(position, read_at, read=True)


def versions_for(layer: Any) -> RoomVersions:
    """This process's records, kept on its channel layer (a new layer, as each test
    makes, starts with none)."""
    versions = getattr(layer, "room_versions", None)
    if versions is None:
        versions = layer.room_versions = RoomVersions()
    return versions
