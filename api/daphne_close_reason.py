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
autobahn's public `sendClose` takes only 1000 and 3000-4999, not the protocol's 1011
and 1013. tests/live/test_close_reasons.py reads the reasons from real servers.

The same class also lets a client read the close it is sent. autobahn ends a server's
connection with an abort, a TCP reset, both when the client answers the close and when
it has not within `closeHandshakeTimeout` (1 s): on a loaded machine a client reads the
close frame later than that, its answer then meets the reset, and aiohttp (as browsers
whose answer fails) reports 1006 instead of the code the frame carried (the flooding
sockets' 4429, the busy server's 1013). A close frame in twisted's buffer is also
thrown away by an abort. Here the client is given CLOSE_HANDSHAKE_SECONDS to answer,
and the connection is ended gracefully: the server half-closes it (FIN, after all it
has written), reads and drops whatever still comes (a flood's frames left unread at the
close would make the kernel reset it after all), and closes once the client has, or
after LINGER_SECONDS. tests/socket_load/test_flood.py holds a flood's sockets to 4429 as
the client reads it.

And it never answers a handshake 403 for being slow. daphne rejects (403) a handshake
the application has not accepted within `--websocket_connect_timeout`, and autobahn
drops the connection at the same moment (`openHandshakeTimeout`, set to the same): a
client can tell neither from a refusal of its credentials. The application's gate
closes such a socket with 1013 before (api/socket_limits.py, HandshakeGate); should its
event loop be too late even for that, the socket whose handshake was read is accepted
here and closed with 1013, "try again later", and what the application says for it
after goes nowhere (it hears the disconnect as ever).
"""

from __future__ import annotations

from typing import Any, cast

from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
from twisted.internet import reactor
from twisted.internet.interfaces import IReactorTime

from .socket_closes import TRY_AGAIN_LATER

# How long a client has to answer the server's close (autobahn's own: 1 s), and how long
# a connection the server ended waits, half-closed, for the client to close it.
CLOSE_HANDSHAKE_SECONDS = 5.0
LINGER_SECONDS = 5.0


class ReasonedWebSocketProtocol(WebSocketProtocol):
    lingering: Any = None  # the call that ends a half-closed connection at last
    refused_busy = False  # closed here for being slow to accept: the application is not heard

    def refuse_busy(self) -> bool:
        """Accept and close with 1013 a handshake read but not accepted in time; False if
        the handshake itself was not read (autobahn then drops the connection)."""
        if self.state != self.STATE_CONNECTING or not hasattr(self, "handshake_deferred"):
            return False
        self.refused_busy = True
        self.serverAccept()
        self.sendCloseFrame(code=TRY_AGAIN_LATER.code, reasonUtf8=TRY_AGAIN_LATER.reason.encode())
        return True

    def check_timeouts(self) -> None:
        if self.state == self.STATE_CONNECTING and self.duration() > self.server.websocket_connect_timeout >= 0:
            if self.refuse_busy():
                return
        super().check_timeouts()

    def onOpenHandshakeTimeout(self) -> None:
        if not self.refuse_busy():
            super().onOpenHandshakeTimeout()

    def _connectionMade(self) -> None:
        super()._connectionMade()
        self.closeHandshakeTimeout = CLOSE_HANDSHAKE_SECONDS

    def _closeConnection(self, abort: bool = False) -> None:
        transport = self.transport
        if self.lingering is not None or not hasattr(transport, "loseWriteConnection"):
            super()._closeConnection(abort)
            return
        transport.loseWriteConnection()
        # (zope's interface declares callLater without `self`: mypy reads its arguments shifted)
        self.lingering = cast(IReactorTime, reactor).callLater(LINGER_SECONDS, transport.abortConnection)  # type: ignore[arg-type]

    def dataReceived(self, data: bytes) -> None:
        if self.lingering is not None:
            return  # after the close: read, so that the kernel has nothing to reset for, and dropped
        super().dataReceived(data)

    def connectionLost(self, reason: Any) -> None:
        if self.lingering is not None and self.lingering.active():
            self.lingering.cancel()
        super().connectionLost(reason)

    def handle_reply(self, message: dict[str, Any]) -> None:
        if self.refused_busy:
            return
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
