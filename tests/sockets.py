"""WebSocket clients of the ASGI application, in this process (channels' communicator).
`room_socket` and `user_socket` connect as the browser does, from the site's own origin;
`socket_client` as any other client, with whatever origin, token and cookie it sends.
Tests that use them take the `close_thread_connections` fixture (tests/conftest.py)."""

from __future__ import annotations

from channels.testing import WebsocketCommunicator

from config.asgi import application

SITE_ORIGIN = "http://testserver"
HEADERS = [(b"origin", SITE_ORIGIN.encode()), (b"host", b"testserver")]


def _query(token: str | None) -> str:
    return f"?token={token}" if token else ""


def room_socket(code: str, token: str | None, *, views: bool = False) -> WebsocketCommunicator:
    """A room's socket; with `views`, as the web client opens it (views pushed), else with
    `views=0` (notices alone), as the tests of notices and pings read it."""
    query = _query(token)
    if not views:
        query += "&views=0" if query else "?views=0"
    return WebsocketCommunicator(application, f"/ws/rooms/{code}/{query}", headers=HEADERS)


def user_socket(token: str | None) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, f"/ws/me/{_query(token)}", headers=HEADERS)


def socket_client(
    path: str, *, token: str | None = None, origin: str | None = None, session: str | None = None
) -> WebsocketCommunicator:
    """A socket to `path` sending only what is given: no `Origin` header unless `origin`,
    no cookie unless `session` (a session key)."""
    headers = [(b"host", b"testserver")]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if session is not None:
        headers.append((b"cookie", f"sessionid={session}".encode()))
    return WebsocketCommunicator(application, path + _query(token), headers=headers)


async def refused_with(ws: WebsocketCommunicator) -> tuple[int, str]:
    """The close a refused client receives: the socket is accepted first (so that a browser
    sees the code, not 1006), then closed without a single notice."""
    connected, _ = await ws.connect()
    assert connected, "refusals are accepted first, then closed"
    message = await ws.receive_output(timeout=3)
    assert message["type"] == "websocket.close", message
    return message["code"], message.get("reason", "")


async def heard_more(ws: WebsocketCommunicator, timeout: float = 0.3) -> list[dict]:
    """What the socket sent within `timeout` (`[]`: nothing), so that an assertion that
    it sent nothing more shows what it sent instead."""
    heard = []
    while not await ws.receive_nothing(timeout=timeout):
        heard.append(await ws.receive_output(timeout=1))
    return heard
