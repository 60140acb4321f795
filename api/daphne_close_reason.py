"""daphne sends a close's reason, as the ASGI `websocket.close` message carries it.

daphne, which serves the sockets under `make run` (Channels' runserver is daphne's) and
in the deployment, drops the reason up to its latest release (4.2.3): its protocol hands
autobahn the code alone (django/daphne#374), so a client read 4401 with an empty reason
where the AsyncAPI document promises `unauthenticated`. Its WebSocket factory names the
protocol class it builds (`WebSocketFactory.protocol`), so the class here, daphne's own
with the close passed on whole, is put in its place when the ASGI application is loaded:
every daphne start (the `daphne` command, runserver, channels' live server) loads it
before it serves a socket.

The frame is written with autobahn's `sendCloseFrame`, as daphne writes its own 1011:
autobahn's public `sendClose` takes only 1000 and 3000-4999, not the protocol's 1011.
tests/live/test_close_reasons.py reads the reasons from real servers.
"""

from __future__ import annotations

from typing import Any

from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol


class ReasonedWebSocketProtocol(WebSocketProtocol):
    def handle_reply(self, message: dict[str, Any]) -> None:
        if message.get("type") == "websocket.close" and self.state != self.STATE_CONNECTING:
            code = message.get("code") or 1000
            reason = message.get("reason") or ""
            # At most the 123 bytes a close frame holds, cut between characters.
            utf8 = reason.encode()[:123].decode(errors="ignore").encode()
            self.sendCloseFrame(code=code, reasonUtf8=utf8 or None)
            return
        super().handle_reply(message)


def install() -> None:
    WebSocketFactory.protocol = ReasonedWebSocketProtocol
