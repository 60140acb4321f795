"""Every close a client can provoke arrives with its code and its reason, as the AsyncAPI
document lists them (api/socket_closes.py), from the servers that serve the sockets here:
`make run` (scripts/run.sh: Channels' runserver, which is daphne, on SQLite) and the
deployment's daphne (deploy/Procfile, on PostgreSQL, here through a proxy the test can
cut). The client is the `websockets` library, sending no `Origin` unless a case needs one,
as an app or a script does."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from api import socket_closes
from api.socket_closes import SocketClose
from tests.servers import ROOT, daphne_argv, database_url, free_port, server_env, serving
from tests.tcp_proxy import TcpProxy

pytestmark = pytest.mark.timeout(300)

LOGS = ROOT / "var" / "close-reasons"
FOREIGN = "https://elsewhere.example"


@dataclass
class Server:
    name: str
    url: str
    proxy: TcpProxy | None = None  # the database's, where the test may cut it

    @property
    def ws(self) -> str:
        return "ws" + self.url.removeprefix("http")

    def sign_up(self) -> str:
        """A guest's token, as any client gets one."""
        answer = httpx.post(f"{self.url}/api/v1/auth/guest", json={"display_name": "Closer"}, timeout=30)
        assert answer.status_code == 201, answer.text
        return str(answer.json()["token"])

    def new_room(self, token: str) -> str:
        answer = httpx.post(
            f"{self.url}/api/v1/rooms/",
            json={"game": "hearts", "options": {}},
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        )
        assert answer.status_code == 201, answer.text
        return str(answer.json()["code"])


def _log(name: str) -> Path:
    return LOGS / f"{name}-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"


@pytest.fixture(scope="module")
def deployment(django_db_setup: Any, django_db_blocker: Any) -> Iterator[Server]:
    """daphne as deploy/Procfile starts it (`--proxy-headers`, DEBUG off), on the test
    database, reached through a proxy."""
    with django_db_blocker.unblock():
        database = urlsplit(database_url())
    proxy = TcpProxy((database.hostname or "127.0.0.1", database.port or 5432))
    proxy.start()
    through_proxy = database._replace(netloc=database.netloc.rsplit("@", 1)[0] + f"@127.0.0.1:{proxy.port}")
    # Every ping reads the database, so that a cut is met at the next one.
    env = server_env(urlunsplit(through_proxy), DEBUG="0", LIVE_PING_FRESH_SECONDS="0")
    port = free_port()
    try:
        with serving(
            "daphne", [*daphne_argv(port), "--proxy-headers"], port=port, env=env, log_path=_log("daphne")
        ) as url:
            yield Server("deployment", url, proxy)
    finally:
        proxy.cut()


@pytest.fixture(params=["make run", "deployment"])
def server(request: pytest.FixtureRequest) -> Server:
    if request.param == "make run":
        return Server("make run", request.getfixturevalue("make_run").url)
    return request.getfixturevalue("deployment")


async def closed_with(
    url: str, *, origin: str | None = None, send: list[str] | tuple[str, ...] = ()
) -> tuple[int | None, str | None]:
    """Open `url`, send `send`, and read until the server closes: its code and reason."""
    async with websockets.connect(url, origin=origin, open_timeout=30) as ws:  # type: ignore[arg-type]
        for frame in send:
            await ws.send(frame)
        try:
            while True:
                await asyncio.wait_for(ws.recv(), timeout=15)
        except ConnectionClosed as closed:
            frame = closed.rcvd
            return (frame.code, frame.reason) if frame is not None else (None, None)


def as_sent(close: SocketClose) -> tuple[int, str]:
    return close.code, close.reason


@pytest.mark.django_db(transaction=True)
def test_every_refusal_carries_its_code_and_reason(server: Server) -> None:
    token = server.sign_up()
    ws = server.ws
    cases: list[tuple[str, str | None, SocketClose]] = [
        (f"{ws}/ws/rooms/QX7K2M/?token=not-a-token", None, socket_closes.UNAUTHENTICATED),
        (f"{ws}/ws/me/", None, socket_closes.UNAUTHENTICATED),
        (f"{ws}/ws/rooms/NOPE99/?token={token}", None, socket_closes.NO_SUCH_ROOM),
        (f"{ws}/ws/rooms/NOPE99?token={token}", None, socket_closes.NO_SUCH_ROOM),
        (f"{ws}/ws/nothing/here?token={token}", None, socket_closes.NO_SUCH_SOCKET),
        (f"{ws}/ws/me/", FOREIGN, socket_closes.ORIGIN_NOT_ALLOWED),
        (f"{ws}/ws/nothing/here", FOREIGN, socket_closes.ORIGIN_NOT_ALLOWED),
    ]
    for url, origin, expected in cases:
        got = asyncio.run(closed_with(url, origin=origin))
        assert got == as_sent(expected), (server.name, url, origin)


@pytest.mark.django_db(transaction=True)
def test_a_flood_is_closed_as_rate_limited(server: Server) -> None:
    token = server.sign_up()
    # More pings at once than a socket's burst (10 by default).
    got = asyncio.run(closed_with(f"{server.ws}/ws/me/?token={token}", send=['{"type": "ping"}'] * 30))
    assert got == as_sent(socket_closes.RATE_LIMITED), server.name


@pytest.mark.django_db(transaction=True)
def test_a_ping_the_database_cannot_answer_closes_as_a_server_error(deployment: Server) -> None:
    assert deployment.proxy is not None
    token = deployment.sign_up()
    code = deployment.new_room(token)

    async def ping_after_the_cut() -> tuple[int | None, str | None]:
        async with websockets.connect(f"{deployment.ws}/ws/rooms/{code}/?token={token}&views=0") as ws:
            assert '"changed"' in str(await asyncio.wait_for(ws.recv(), timeout=15))
            deployment.proxy.cut()  # type: ignore[union-attr]
            await ws.send('{"type": "ping"}')
            try:
                while True:
                    await asyncio.wait_for(ws.recv(), timeout=30)
            except ConnectionClosed as closed:
                frame = closed.rcvd
                return (frame.code, frame.reason) if frame is not None else (None, None)

    try:
        assert asyncio.run(ping_after_the_cut()) == as_sent(socket_closes.SERVER_ERROR)
    finally:
        deployment.proxy.start()
