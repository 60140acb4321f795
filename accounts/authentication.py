"""Token authentication with the lookup in one prepared SQL statement.

DRF's TokenAuthentication builds an ORM query (token joined to user) on every request;
compiling it costs more than running it, and every API call pays it. This does the
same lookup with the same answers — an unknown token or an inactive (banned) account
is refused at once — without the query compiler. Nothing is cached, so a revoked
token or a ban takes effect on the very next request.
"""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from config import prepared_reads

from .models import User
from .selectors import ban_reason_for_token

# Named columns, never `u.*`: a prepared statement must keep its result's shape when a
# migration adds a column while a server process holds it.
_COLUMNS = [f.column for f in User._meta.concrete_fields]
_ATTNAMES = [f.attname for f in User._meta.concrete_fields]


def banned(reason: str) -> exceptions.AuthenticationFailed:
    """The answer to a banned account's sign-in or token: code `banned`, with the reason."""
    return exceptions.AuthenticationFailed(f"This account is banned. The moderator's reason: {reason}", code="banned")


def _lookup_sql() -> str:
    user_table = User._meta.db_table
    token_table = Token._meta.db_table
    columns = ", ".join(f'u."{c}"' for c in _COLUMNS)
    return f'SELECT {columns} FROM "{user_table}" u JOIN "{token_table}" t ON t.user_id = u.id WHERE t.key = %s'


_SQL = _lookup_sql()


class TokenAuthentication(authentication.TokenAuthentication):
    """`Authorization: Token <key>`, as DRF's, answered by one prepared statement."""

    def authenticate_credentials(self, key: str) -> tuple[User, Any]:
        if connection.vendor == "postgresql":
            row = prepared_reads.fetch_one(_SQL, [key])
            user = None if row is None else User.from_db(connection.alias, _ATTNAMES, row)
        else:
            # SQLite (the one-process start) returns dates as text: the ORM converts them.
            user = next(iter(User.objects.raw(_SQL, [key])), None)
        if user is None:
            # Only a failed lookup pays for this one: a token revoked by a ban says why.
            reason = ban_reason_for_token(key=key)
            if reason is not None:
                raise banned(reason)
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not user.is_active:
            if user.banned_at is not None:
                raise banned(user.ban_reason)
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        # `request.auth` is the token; nothing reads its creation time, so no second query.
        return user, Token(key=key, user=user)
