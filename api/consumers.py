"""The room's change notices: `{"type": "changed", "version": N}` after every change.

Clients then fetch their own view over HTTP, so nothing game-specific (and nothing
hidden) ever travels on the socket. A client may also send `{"type": "ping"}` at any
time; the answer, `{"type": "pong", "version": N}`, carries the room's version read
from the database, so a client that hears nothing for a while can tell a quiet room
from a missed notice or a dead connection.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games import live, live_watch, selectors

from .db_async import database_sync_to_async

# Close codes in the 4000 range mirror the HTTP statuses a client already knows.
CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404


@database_sync_to_async
def _room_version(code: str) -> int | None:
    return selectors.room_versions(codes=[code]).get(code)


class RoomConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        self.code = self.scope["url_route"]["kwargs"]["code"]
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(CLOSE_UNAUTHENTICATED, "unauthenticated")
            return
        version = await _room_version(self.code)
        if version is None:
            await self.refuse(CLOSE_NOT_FOUND, "no such room")
            return
        # Only a socket that is served joins the room's group (and leaves it on disconnect).
        self.group = live.group_name(self.code)
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.watch = live_watch.watch_for(self.channel_layer)
        if self.watch is not None:
            self.watch.add(self.code, version)
        await self.accept()
        # The version now, so a client that reconnects knows at once whether it missed anything.
        await self.send_json({"type": "changed", "version": version})

    async def refuse(self, code: int, reason: str) -> None:
        """Accept, then close with `code`. A close before the accept fails the handshake,
        and a browser then only ever sees 1006, whatever the reason; after the accept the
        client receives the code and can tell "sign in again" from "no such room" and from
        a dropped connection worth retrying."""
        await self.accept()
        await self.close(code=code, reason=reason)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            if self.watch is not None:
                self.watch.discard(self.code)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        # The socket only announces; everything a client does goes through the HTTP API.
        if isinstance(content, dict) and content.get("type") == "ping" and hasattr(self, "group"):
            await self.send_json({"type": "pong", "version": await _room_version(self.code)})

    async def room_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "changed", "version": event["version"]})
