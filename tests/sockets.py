"""WebSocket clients of the ASGI application, in this process (channels' communicator),
connecting as the browser does: from the site's own origin. Tests that use them take the
`close_thread_connections` fixture (tests/conftest.py)."""

from __future__ import annotations

from channels.testing import WebsocketCommunicator

from config.asgi import application

HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


def _query(token: str | None) -> str:
    return f"?token={token}" if token else ""


def room_socket(code: str, token: str | None) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, f"/ws/rooms/{code}/{_query(token)}", headers=HEADERS)


def user_socket(token: str | None) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, f"/ws/me/{_query(token)}", headers=HEADERS)
