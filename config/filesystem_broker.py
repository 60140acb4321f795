"""kombu's filesystem transport — `make run`'s broker — made safe for a publisher and a
worker in different processes.

kombu (5.7) creates a message's file, then writes it. A worker polling the folder in
between takes the empty or half-written file, cannot decode it and stops (the same
failure as celery/kombu#1551), and `make run` stops with it. Here a message is written
in full under a name the worker does not pick up, then renamed into place: a rename
within one folder is atomic, so the worker finds the whole message or none. A file that
is still not a message (written by something else) is logged and dropped, not fatal.

Celery uses it through `broker_transport` (settings: CELERY_BROKER_TRANSPORT), which
kombu resolves by import path only when given explicitly, never from the URL.
"""

from __future__ import annotations

import logging
import os
import uuid
from queue import Empty
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

logger = logging.getLogger(__name__)

# kombu's worker reads the files named "<anything>.<queue>.msg"; this suffix keeps a
# message out of its sight until it is complete.
UNFINISHED = ".part"


class Channel(filesystem.Channel):
    # Both signatures are kombu's filesystem channel's, which differ from its virtual
    # channel's (kombu's stubs ignore the same override there).
    def _put(self, queue: str, payload: dict[str, Any], **kwargs: Any) -> None:  # type: ignore[override]
        # kombu's name: milliseconds first, so the worker reads older messages first.
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        path = os.path.join(self.data_folder_out, name)
        try:
            with open(path + UNFINISHED, "wb") as unfinished:
                unfinished.write(str_to_bytes(dumps(payload)))
            os.replace(path + UNFINISHED, path)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {path!r} to directory") from exc

    def _get(self, queue: str) -> dict[str, Any]:  # type: ignore[override]
        try:
            return super()._get(queue)
        except ValueError:  # json's decode error: the file was taken, and is not a message
            logger.exception("dropped a file of queue %r that is not a message", queue)
            raise Empty() from None


class Transport(filesystem.Transport):
    Channel = Channel
