"""The room socket (`ws/rooms/{code}/`), with catch-up as api/asyncapi.yaml describes it.

The feed keeps the `seq` of the last event it has read. A `view` frame whose `after` is
that seq carries the change's events: they are taken as they are. Any other notice (a
`changed`, a `pong`, a `view` after a gap) whose `seq` is greater is caught up over HTTP:
`GET rooms/{code}/events?after=<seq>`, following each answer's `Link: rel="next"` until
none is left. After a drop the socket is opened again (websockets' reconnecting
`connect`, with its backoff) and its opening notice says at once whether anything was
missed. So every event comes once, in order, none missing.

A quiet socket is pinged (`{"type": "ping"}`) after `quiet` seconds, so that a lost
notice is noticed too. Closes that reconnecting cannot cure (4401, 4403, 4404) raise
`SocketRefused`. After any other close the feed waits before reconnecting: a random time
between 0 and a ceiling that starts at `pause` seconds and doubles with each attempt
that was not served, up to `longest_pause` (exponential backoff with full jitter), so
that clients a busy server refused (1013 `try again later`, 4409 `too many sockets`,
4429 `rate limited`) do not come back together; a socket that was served starts the
waits again."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from gameserver_client.errors import ApiError, SocketRefused
from gameserver_client.retries import RetryAfterTransport

REFUSED = {4401, 4403, 4404}
RATE_LIMITED = 4429
TOO_MANY_SOCKETS = 4409
TRY_AGAIN_LATER = 1013


def full_jitter(attempt: int, first: float, longest: float) -> float:
    """The wait before reconnecting after `attempt` attempts in a row were not served."""
    return random.uniform(0, min(longest, first * 2**attempt))


@dataclass
class RoomUpdate:
    """The room moved to `version`; `events` are the ones you had not read, in order;
    `view` is your new view (JSON, as `GET state` answers it) when the server pushed it,
    else None (read it with GameServer.state)."""

    version: int
    seq: int
    events: list[dict[str, Any]] = field(default_factory=list)
    view: dict[str, Any] | None = None


def socket_url(base_url: str, code: str, token: str, *, views: bool) -> str:
    scheme, netloc, path, _, _ = urlsplit(base_url)
    query = {"token": token} if views else {"token": token, "views": "0"}
    ws = "wss" if scheme == "https" else "ws"
    return urlunsplit((ws, netloc, f"{path.rstrip('/')}/ws/rooms/{code}/", urlencode(query), ""))


class RoomFeed:
    """`async for update in RoomFeed(base_url, token, code):` each change of the room.

    `last_seq`: the last event already read (0: the feed reads the whole log first).
    `views`: whether the server pushes your view with each change (one frame a move)."""

    def __init__(
        self,
        base_url: str,
        token: str,
        code: str,
        *,
        last_seq: int = 0,
        views: bool = True,
        quiet: float = 10.0,
        pause: float = 1.0,
        longest_pause: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.base_url, self.code = base_url.rstrip("/"), code
        self.last_seq, self.version = last_seq, -1
        self.quiet, self.pause, self.longest_pause = quiet, pause, longest_pause
        self.failures = 0  # attempts in a row that were not served
        self.url = socket_url(self.base_url, code, token, views=views)
        self.http = httpx.AsyncClient(
            base_url=self.base_url,
            headers={"Authorization": f"Bearer {token}"},
            transport=RetryAfterTransport(transport),
            timeout=30,
        )
        self.socket: ClientConnection | None = None
        self.connections = 0

    async def __aenter__(self) -> RoomFeed:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        await self.http.aclose()

    async def catch_up(self) -> list[dict[str, Any]]:
        """Every event after `last_seq`, page by page; `last_seq` moves to the last."""
        url: str | None = f"/api/v1/rooms/{self.code}/events?after={self.last_seq}"
        events: list[dict[str, Any]] = []
        while url is not None:
            res = await self.http.get(url)
            if res.status_code != 200:
                raise ApiError.from_response(res)
            page = [e for e in res.json() if e["seq"] > self.last_seq]
            events.extend(page)
            if page:
                self.last_seq = page[-1]["seq"]
            url = res.links.get("next", {}).get("url")
        return events

    async def _take(self, message: dict[str, Any]) -> RoomUpdate | None:
        kind = message.get("type")
        if kind not in ("changed", "view", "pong"):
            return None  # a message a later v1 adds: not this feed's
        version, seq = int(message["version"]), int(message["seq"])
        if kind == "view" and int(message["after"]) <= self.last_seq:
            events = [e for e in message["events"] if e["seq"] > self.last_seq]
        elif seq > self.last_seq:
            events = await self.catch_up()
        else:
            events = []
        # `seq` counts the room's whole log: a reader's own events may skip numbers
        # (others' private events), so the notice's seq, not the last event read, is
        # where the next catch-up starts. Everything at or before it has been read.
        self.last_seq = max(self.last_seq, seq)
        if version <= self.version and not events:
            return None
        self.version = max(self.version, version)
        return RoomUpdate(version, seq, events, message.get("view") if kind == "view" else None)

    async def _frames(self, socket: ClientConnection) -> AsyncIterator[dict[str, Any]]:
        while True:
            try:
                frame = await asyncio.wait_for(socket.recv(), timeout=self.quiet)
            except TimeoutError:
                await socket.send(json.dumps({"type": "ping"}))
                continue
            yield json.loads(frame)

    def __aiter__(self) -> AsyncIterator[RoomUpdate]:
        return self.updates()

    async def updates(self) -> AsyncIterator[RoomUpdate]:
        async for socket in connect(self.url, open_timeout=30, max_size=2**22):
            self.socket, self.connections = socket, self.connections + 1
            try:
                async for message in self._frames(socket):
                    self.failures = 0  # served: a refused socket is closed before it says anything
                    update = await self._take(message)
                    if update is not None:
                        yield update
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else None
                if code in REFUSED:
                    raise SocketRefused(code or 0, closed.rcvd.reason if closed.rcvd else "") from closed
                await asyncio.sleep(full_jitter(self.failures, self.pause, self.longest_pause))
                self.failures += 1
                continue  # any other close is worth a reconnect: `connect` opens the next

    def drop(self) -> None:
        """Drops the connection as a network would, without a closing handshake (for
        trying the catch-up): the feed reconnects and catches up by itself."""
        if self.socket is not None:
            self.socket.transport.abort()
