"""Change notices from other processes when the channel layer cannot carry them.

The in-memory channel layer (the embedded start, no Redis) reaches only the sockets of
the process that sends. But the Celery worker and beat change rooms too: computer
players move, deadlines run out, the next hand starts. So a process that serves
sockets on that layer reads, every LIVE_WATCH_SECONDS, the versions of the rooms it has
listeners for, in one indexed query, and announces each room that moved to the room's
group exactly as a notice from the layer would arrive. Any writer in any process is
heard within that interval, and nothing but the database everyone already shares is
needed. (With the Redis layer every process announces its own changes, and this stays
off.)
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import InMemoryChannelLayer
from django.conf import settings

from . import live, selectors

logger = logging.getLogger(__name__)


class VersionWatch:
    """The rooms with listeners in this process, the version last announced for each,
    and the loop that reads their versions while there is any."""

    def __init__(self, layer: Any, interval: float) -> None:
        self.layer = layer
        self.interval = interval
        self.listeners: Counter[str] = Counter()
        self.announced: dict[str, int] = {}
        self.task: asyncio.Task[None] | None = None

    def add(self, code: str, version: int) -> None:
        """A socket of room `code` that has been told `version` is listening."""
        self.listeners[code] += 1
        self.announced[code] = max(version, self.announced.get(code, version))
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._run())

    def discard(self, code: str) -> None:
        self.listeners[code] -= 1
        if self.listeners[code] <= 0:
            del self.listeners[code]
            self.announced.pop(code, None)

    async def _run(self) -> None:
        while self.listeners:
            await asyncio.sleep(self.interval)
            try:
                await self.check()
            except Exception:  # the next round tries again; clients also check by themselves
                logger.exception("could not read the versions of watched rooms")

    async def check(self) -> None:
        """Announce every watched room whose version moved since it was last announced."""
        codes = list(self.listeners)
        if not codes:
            return
        positions = await database_sync_to_async(selectors.room_positions)(codes=codes)
        for code, (version, seq) in positions.items():
            if code in self.announced and version > self.announced[code]:
                self.announced[code] = version
                await self.layer.group_send(live.group_name(code), live.room_changed_message(version, seq))


def watch_for(layer: Any) -> VersionWatch | None:
    """This process's watch for `layer` (kept on the layer, which lives as long as the
    process), or None where the layer already carries every process's notices or the
    watch is switched off."""
    if not isinstance(layer, InMemoryChannelLayer) or settings.LIVE_WATCH_SECONDS <= 0:
        return None
    watch = getattr(layer, "version_watch", None)
    if watch is None:
        watch = layer.version_watch = VersionWatch(layer, settings.LIVE_WATCH_SECONDS)
    return watch
