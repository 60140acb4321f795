"""WebSocket authentication: `?token=<token>` in the query string, else the session."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.auth import AuthMiddlewareStack
from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from accounts.selectors import user_for_token

from .db_async import database_sync_to_async


@database_sync_to_async
def _user_for_token(key: str) -> User | AnonymousUser:
    user = user_for_token(key=key)
    return user if user is not None and user.is_active else AnonymousUser()


class _TokenAuthMiddleware:
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        query = parse_qs(scope.get("query_string", b"").decode())
        if "token" in query:
            scope = {**scope, "user": await _user_for_token(query["token"][0])}
        return await self.inner(scope, receive, send)


def token_or_session_auth(inner: Any) -> Any:
    # The session stack runs first and sets scope["user"]; a token, when given, wins.
    return AuthMiddlewareStack(_TokenAuthMiddleware(inner))
