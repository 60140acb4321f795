"""Announcing room changes to WebSocket listeners, from web processes and workers alike."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)


def group_name(code: str) -> str:
    return f"room.{code}"


def room_changed(code: str, version: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(code), {"type": "room.changed", "version": version})
    except Exception:  # a notice lost is caught up by the client's poll of the event log
        logger.exception("could not announce change of room %s", code)


def announce_after_commit(room: object) -> None:
    """Announce the room's version as it stands at commit, once per transaction."""
    if getattr(room, "_announce_pending", False):
        return
    room._announce_pending = True  # type: ignore[attr-defined]

    def send() -> None:
        room._announce_pending = False  # type: ignore[attr-defined]
        room_changed(room.code, room.version)  # type: ignore[attr-defined]

    transaction.on_commit(send)
