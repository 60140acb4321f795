"""WebSocket authentication: `?token=<token>` in the query string, else the session."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.auth import AuthMiddlewareStack
from django.contrib.auth.models import AnonymousUser
from rest_framework.authtoken.models import Token

from accounts.models import User

from .db_async import database_sync_to_async


@database_sync_to_async
def _user_for_token(key: str) -> User | AnonymousUser:
    token = Token.objects.select_related("user").filter(key=key).first()
    if token is None or not token.user.is_active:
        return AnonymousUser()
    user: User = token.user  # the stubs leave Token.user untyped
    return user


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
