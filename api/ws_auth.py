"""WebSocket authentication: `?token=<token>` in the query string, else the session.

The token is the player's own (the web client's), or an app's OAuth2 access token or a
personal token with the `read` scope: a socket only tells what `read` lets one see.

A token is a credential the client holds and sends on purpose, so a socket that brings
one is served from anywhere: native apps and scripts send no `Origin`, frontends on
other sites send theirs. The session cookie is different: a browser attaches it to a
socket opened by any page, so another site's page could listen as the player
(cross-site WebSocket hijacking). The session therefore counts only on a socket from an
origin the site trusts: one of its own hosts (`ALLOWED_HOSTS`) or a frontend listed in
`CORS_ALLOWED_ORIGINS`, the list HTTP's CORS answers use. A socket without a token from
another origin is closed with 4403; one without a token and without an `Origin` (no
browser sent it) is served without the session, as anonymous, and so closed with 4401.

The credential is read again whenever one of the account's may have ended, and the
socket closed when it no longer works (api/socket_credentials.py).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import ParseResult, urlparse

from channels.auth import AuthMiddlewareStack
from channels.security.websocket import OriginValidator
from django.conf import settings
from django.contrib.auth.models import AnonymousUser

from .consumers import ForeignOriginConsumer
from .db_async import database_sync_to_async
from .socket_credentials import Opened, token_of, token_opened
from .socket_limits import FrameRateLimit


@database_sync_to_async
def _token_opened(key: str) -> Opened:
    return token_opened(key)


def _origin(scope: dict[str, Any]) -> ParseResult | None:
    for name, value in scope.get("headers", []):
        if name == b"origin":
            return urlparse(value.decode("latin1"))
    return None


def trusted_origins() -> list[str]:
    """The origins whose pages may use the session on a socket: the site's own hosts (any
    scheme and port, as Channels reads `ALLOWED_HOSTS`) and the frontends CORS allows."""
    hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not hosts:
        # Django's own reading of an empty ALLOWED_HOSTS under DEBUG.
        hosts = ["localhost", "127.0.0.1", "[::1]"]
    return hosts + list(settings.CORS_ALLOWED_ORIGINS)


class _SocketAuthMiddleware:
    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.with_session = AuthMiddlewareStack(inner)
        self.refuse_origin = ForeignOriginConsumer.as_asgi()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        token = token_of(scope)
        if token is not None:
            # The session is not read at all: a token, even a bad one, is the socket's only credential.
            opened = await _token_opened(token)
            signed_in = {"user": opened.user, "credential": opened.credential, "credential_expires": opened.expires}
            return await self.inner({**scope, **signed_in}, receive, send)
        origin = _origin(scope)
        if origin is None:
            return await self.inner({**scope, "user": AnonymousUser()}, receive, send)
        # Read per socket, so that settings changed at run time (tests) apply.
        if not OriginValidator(None, trusted_origins()).valid_origin(origin):
            return await self.refuse_origin(scope, receive, send)
        return await self.with_session(scope, receive, send)


def token_or_session_auth(inner: Any) -> Any:
    """`inner` behind the credentials, with the rate of the frames it is sent limited
    per socket and per account (api/socket_limits.py)."""
    return _SocketAuthMiddleware(FrameRateLimit(inner))
