"""The credential a socket was opened with: read when it opens, and read again when it
may have ended.

A socket is opened with one credential: a token in its URL (the account's own, a personal
token or an app's access token) or, from a page of a trusted origin, the site's session
(api/ws_auth.py). HTTP reads its credential on every request; a socket reads it when it
opens (`token_opened`) and again when a change that can end one tells the account's
sockets to (api/credential_ends.py), and when the credential's own time is up (an app's
access token expires, a session too). `ended` says how a socket whose credential no
longer works is closed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from importlib import import_module
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qs

from django.conf import settings
from django.contrib.auth import get_user
from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from accounts.selectors import user_for_token
from grants.authentication import socket_grant
from grants.scopes import READ

from . import socket_closes
from .db_async import database_sync_to_async
from .socket_closes import SocketClose


@dataclass(frozen=True)
class Opened:
    """What a socket's token signs it in as."""

    user: User | AnonymousUser
    # The credential as HTTP sends it (scheme, token): a move over the socket is that
    # credential's HTTP request (api/socket_moves.py). None when the token does not work.
    credential: tuple[str, str] | None
    # When the credential stops working by itself (an app's access token), else None.
    expires: datetime | None


def token_of(scope: dict[str, Any]) -> str | None:
    """The socket's `?token=`, if it came with one."""
    values = parse_qs(scope.get("query_string", b"").decode("latin1")).get("token")
    return values[0] if values else None


def token_opened(key: str) -> Opened:
    """The account a socket's token signs in as, in the scheme that token signs in with."""
    user, scheme, expires = user_for_token(key=key), "Token", None
    if user is None:
        grant = socket_grant(key, READ)
        if grant is not None:
            user, scheme, expires = grant.user, "Bearer", grant.expires
    if user is None or not user.is_active:
        return Opened(AnonymousUser(), None, None)
    return Opened(user, (scheme, key), expires)


def _session_user(session_key: str) -> User | None:
    """The account a session signs in as now, read afresh as HTTP reads it (Django's own
    check of the session's hash: a new password, a ban or a closure ends it)."""
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    user = get_user(SimpleNamespace(session=store))  # type: ignore[arg-type]
    return user if isinstance(user, User) else None


def _still_signed_in(scope: dict[str, Any]) -> User | None:
    token = token_of(scope)
    if token is not None:
        user = token_opened(token).user
        return user if isinstance(user, User) else None
    session = scope.get("session")
    key = getattr(session, "session_key", None)
    return _session_user(key) if key else None


@database_sync_to_async
def ended(scope: dict[str, Any]) -> SocketClose | None:
    """None while the socket's credential still signs in its account; else how the socket
    is closed: `banned` when the account is, `credentials ended` otherwise."""
    opened_as = scope["user"]
    now = _still_signed_in(scope)
    if now is not None and now.pk == opened_as.pk and now.is_active:
        return None
    if User.objects.filter(pk=opened_as.pk, banned_at__isnull=False).exists():
        return socket_closes.BANNED
    return socket_closes.CREDENTIAL_ENDED


@database_sync_to_async
def expires(scope: dict[str, Any]) -> datetime | None:
    """When the socket's credential stops working by itself: an app's access token's
    expiry, the session's; None for a token that lasts until it is revoked."""
    if token_of(scope) is not None:
        return scope.get("credential_expires")
    session = scope.get("session")
    if getattr(session, "session_key", None) is None:
        return None
    expiry: datetime = session.get_expiry_date()  # type: ignore[union-attr]
    return expiry
