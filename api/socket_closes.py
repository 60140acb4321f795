"""Every way the server closes a socket: its code, the reason text sent with it, and what
it tells a client. The AsyncAPI document's `x-close-codes` are made from this table
(api/asyncapi_document.py), so what the server sends and what the document promises are
one list.

Codes in the 4000 range mirror the HTTP statuses a client already knows; 1011 and 1013
are the WebSocket protocol's own "server error" and "try again later" (RFC 6455, 7.4,
and IANA's registry). A reason is at most 123 bytes of UTF-8, the
room a close frame has for it (RFC 6455, 5.5).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SocketClose:
    code: int
    reason: str
    description: str

    def message(self) -> dict[str, object]:
        """The ASGI message that closes a socket this way."""
        return {"type": "websocket.close", "code": self.code, "reason": self.reason}


UNAUTHENTICATED = SocketClose(
    4401, "unauthenticated", "No valid credentials (no token and no trusted session, or a bad token). Sign in again."
)
BANNED = SocketClose(
    4401,
    "banned",
    "The account was banned while the socket was open; every socket of it is closed, and the HTTP API answers "
    "its token `401 banned` with the moderator's reason.",
)
CREDENTIAL_ENDED = SocketClose(
    4401,
    "credentials ended",
    "The credential the socket was opened with ended while it was open: signed out, a token or an app's access "
    "revoked, the password changed, the account closed. Nothing more is sent on it; sign in again.",
)
ORIGIN_NOT_ALLOWED = SocketClose(
    4403,
    "origin not allowed",
    "No token, from a page on an origin the site does not trust (its session is not lent to it). On a path "
    "that names no socket it is checked before the path.",
)
NO_SUCH_ROOM = SocketClose(4404, "no such room", "No room has this code (or it was deleted while the socket was open).")
NO_SUCH_SOCKET = SocketClose(4404, "no such socket", "The path names no socket.")
RATE_LIMITED = SocketClose(
    4429,
    "rate limited",
    "The socket, or its account's sockets together, sent frames faster than allowed (or the account opened "
    "sockets faster). Reconnect after a pause; a client that only pings when quiet never meets it.",
)
TOO_MANY_SOCKETS = SocketClose(
    4409,
    "too many sockets",
    "The account already holds WS_ACCOUNT_SOCKETS_MAX (30) sockets open, on every socket process together. "
    "Close one first; retrying after a backoff (full jitter) opens it once another has closed.",
)
TRY_AGAIN_LATER = SocketClose(
    1013,
    "try again later",
    "The server is too busy to open the socket now (more handshakes waiting than it takes at once, or the "
    "socket not ready within its budget); nothing was wrong with the request. Reconnect after a random wait "
    "between 0 and a ceiling that doubles with each attempt (exponential backoff with full jitter).",
)
SERVER_ERROR = SocketClose(
    1011,
    "server error",
    "The server could not answer (its database out of reach while it read where the room is). Reconnect "
    "with a backoff.",
)

# What each channel of the AsyncAPI document may be closed with, in the document's order.
CHANNEL_CLOSES: dict[str, tuple[SocketClose, ...]] = {
    "room": (
        UNAUTHENTICATED,
        BANNED,
        CREDENTIAL_ENDED,
        ORIGIN_NOT_ALLOWED,
        NO_SUCH_ROOM,
        TOO_MANY_SOCKETS,
        RATE_LIMITED,
        TRY_AGAIN_LATER,
        SERVER_ERROR,
    ),
    "me": (
        UNAUTHENTICATED,
        BANNED,
        CREDENTIAL_ENDED,
        ORIGIN_NOT_ALLOWED,
        TOO_MANY_SOCKETS,
        RATE_LIMITED,
        TRY_AGAIN_LATER,
        SERVER_ERROR,
    ),
    "unknown": (NO_SUCH_SOCKET, ORIGIN_NOT_ALLOWED, TRY_AGAIN_LATER, SERVER_ERROR),
}

ALL: tuple[SocketClose, ...] = tuple(dict.fromkeys(close for closes in CHANNEL_CLOSES.values() for close in closes))
