"""Token authentication with the lookup in one plain SQL statement.

DRF's TokenAuthentication builds an ORM query (token joined to user) on every request;
compiling it costs more than running it, and every API call pays it. This does the
same lookup with the same answers — an unknown token or an inactive (banned) account
is refused at once — without the query compiler. Nothing is cached, so a revoked
token or a ban takes effect on the very next request.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from .models import User


def _lookup_sql() -> str:
    user_table = User._meta.db_table
    token_table = Token._meta.db_table
    return f'SELECT u.* FROM "{user_table}" u JOIN "{token_table}" t ON t.user_id = u.id WHERE t.key = %s'


class TokenAuthentication(authentication.TokenAuthentication):
    """`Authorization: Token <key>`, as DRF's, answered by one raw query."""

    _sql: str | None = None

    def authenticate_credentials(self, key: str) -> tuple[User, Any]:
        if TokenAuthentication._sql is None:
            TokenAuthentication._sql = _lookup_sql()
        user = next(iter(User.objects.raw(TokenAuthentication._sql, [key])), None)
        if user is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        # `request.auth` is the token; nothing reads its creation time, so no second query.
        return user, Token(key=key, user=user)
