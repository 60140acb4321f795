"""API calls that carry their credential in the `Authorization` header go past the
browser's middleware: no session is loaded, no session user is set up, no message
storage is made.

A call under the API's prefix whose `Authorization` header uses the `Token` or `Bearer`
scheme is decided by DRF's authentication alone: the account token, an app's or a
personal token either signs it in or refuses it (401), so the session behind a cookie
the browser may also send is never consulted. Sessions, the session's user and
messages are then work without a use (some 0.1 ms of a `GET state`'s 2 ms of CPU), so
these subclasses of Django's own middleware hand such a call straight on. Every other request
(the web pages, the admin, the OAuth pages, an API call signed in by its session cookie)
goes through them as before.

CSRF needs nothing of its own here: DRF's views are exempt from the middleware's check
(DRF checks the token itself when a call is signed in by its session), so for a token
call Django's CsrfViewMiddleware only looks for a cookie. It stays in MIDDLEWARE as
Django ships it, where `check --deploy` looks for it by name.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import HttpRequest

# The schemes DRF's authentication classes decide on (accounts/ and grants/), as DRF
# reads them: the header's first word, in any case.
_SCHEMES = frozenset(("token", "bearer"))


def is_token_call(request: HttpRequest) -> bool:
    """An API call whose credential is a token in its `Authorization` header."""
    if not request.path_info.startswith(settings.API_PATH_PREFIX):
        return False
    header = request.META.get("HTTP_AUTHORIZATION")
    if not header or not isinstance(header, str):
        return False
    return header.split(None, 1)[0].lower() in _SCHEMES


class _PassTokenCalls:
    """First among the bases of a Django middleware: a token call goes straight on."""

    get_response: Callable[[HttpRequest], Any]

    def __call__(self, request: HttpRequest) -> Any | Awaitable[Any]:
        if is_token_call(request):
            # Under ASGI this is the next layer's coroutine, awaited by the caller.
            return self.get_response(request)
        return super().__call__(request)  # type: ignore[misc]  # the Django middleware's own


class TokenCallsPassSessionMiddleware(_PassTokenCalls, SessionMiddleware):
    pass


class TokenCallsPassAuthenticationMiddleware(_PassTokenCalls, AuthenticationMiddleware):
    pass


class TokenCallsPassMessageMiddleware(_PassTokenCalls, MessageMiddleware):
    pass
