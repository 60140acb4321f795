"""A client of a deployment with several processes: HTTP calls to any web process, and
sockets on any socket process that keep everything they hear."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import aiohttp

PASSWORD = "a-long-secret-9"


class Api:
    """The HTTP API over one aiohttp session, at whichever web process a call names."""

    def __init__(self, http: aiohttp.ClientSession) -> None:
        self.http = http

    async def call(
        self, base: str, method: str, path: str, *, token: str | None = None, body: Any = None, status: int = 200
    ) -> Any:
        headers = {"Authorization": f"Token {token}"} if token else {}
        async with self.http.request(method, f"{base}/api/v1/{path}", json=body, headers=headers) as res:
            text = await res.text()
            assert res.status == status, f"{method} {base}/api/v1/{path}: {res.status} {text}"
            return await res.json() if text else None

    async def register(self, base: str, username: str) -> str:
        """A new account's token."""
        body = {"username": username, "password": PASSWORD}
        return (await self.call(base, "POST", "auth/register", body=body, status=201))["token"]


class Listener:
    """A WebSocket on one socket process; a task reads it into `heard` as messages come."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, where: str) -> None:
        self.ws = ws
        self.where = where
        self.heard: list[dict[str, Any]] = []
        self.reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, http: aiohttp.ClientSession, base: str, path: str, token: str) -> Listener:
        url = f"{base.replace('http', 'ws', 1)}/{path}?token={token}"
        # The origin a browser on the site would send (the server checks it against ALLOWED_HOSTS).
        ws = await http.ws_connect(url, origin=base, timeout=aiohttp.ClientWSTimeout(ws_receive=None, ws_close=5))
        return cls(ws, url.split("?")[0])

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type == aiohttp.WSMsgType.TEXT:
                self.heard.append(message.json())

    async def until(self, check: Callable[[list[dict[str, Any]]], bool], what: str, seconds: float = 10) -> None:
        """Wait until what was heard satisfies `check`, at most `seconds`."""
        deadline = time.monotonic() + seconds
        while not check(self.heard):
            if self.reader.done():
                raise AssertionError(f"{self.where} closed while waiting for {what}; heard {self.heard}")
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.where} did not hear {what} within {seconds} s; heard {self.heard}")
            await asyncio.sleep(0.05)

    async def close(self) -> None:
        await self.ws.close()
        await self.reader
