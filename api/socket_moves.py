"""Moves over the room's socket: an action frame is a `POST rooms/{code}/actions`.

A socket of `ws/rooms/{code}/` may send

    {"type": "action", "id": ID, "version": N, "action": {...}, "idempotency_key": KEY}

(`id` and `idempotency_key` optional) and is answered on that socket, in the order its
frames came, with

    {"type": "result", "id": ID, "status": 200, "view": {...}}
    {"type": "result", "id": ID, "status": 409, "error": {...}, "retry_after": S}

`view` is what the POST answers, `error` the API's error body for that status, and
`retry_after` (seconds) is there where HTTP sends `Retry-After`.

It is not a second way to move. The frame becomes that very HTTP request: the body its
`version` and `action` (and any other field, which the body's checks refuse as HTTP's
do), the `Idempotency-Key` header its `idempotency_key`, the credential the socket's
own (its `?token=`, sent as the scheme that token signed it in with; or the session
cookie of a socket the site's own page opened, whose origin was checked as it opened,
which is what CSRF's check is for). Django's own request handler serves it, middleware,
authentication, scopes, throttles, body checks, idempotency, the service and its lock
and the error shapes all as they serve HTTP, in a worker thread as the socket's reads
are. So a revoked token answers 401 at the next move, a spectator 403 `not_seated`, a
stale version 409 `stale_version`, a flood of moves 429 `throttled` by the same
counter as HTTP's, and an answer lost with its connection is asked for again with the
same idempotency key over either.
"""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import orjson
from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.core.handlers.base import BaseHandler
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpResponseBase
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.middleware import language_of

from .db_async import close_thread_connections

ACTION = "action"
RESULT = "result"
# A client's name for its frame, echoed in the answer: a string this long at most.
ID_MAX = 64
# The frame's own fields; every other one is the body's.
_FRAME_FIELDS = ("type", "id", "idempotency_key")


def is_action(content: Any) -> bool:
    return isinstance(content, dict) and content.get("type") == ACTION


class _Handler(BaseHandler):
    """Django's request handler with the project's middleware, as a WSGI server runs it."""

    def __init__(self) -> None:
        super().__init__()
        self.load_middleware()


_handler: _Handler | None = None


def _django() -> _Handler:
    global _handler
    if _handler is None:
        _handler = _Handler()
    return _handler


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value).decode("latin1")
    return None


def _request(scope: dict[str, Any], code: str, body: bytes, key: Any) -> WSGIRequest:
    """The POST the frame stands for, as a WSGI server would hand it to Django."""
    host = _header(scope, b"host") or "localhost"
    server = scope.get("server") or ("localhost", 80)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": "POST",
        "SCRIPT_NAME": "",
        "PATH_INFO": reverse("room-actions", kwargs={"code": code}),
        "QUERY_STRING": "",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1]),
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": (scope.get("client") or ("", 0))[0],
        "HTTP_HOST": host,
        "HTTP_ACCEPT": "application/json",
        "wsgi.input": io.BytesIO(body),
        "wsgi.url_scheme": "https" if scope.get("scheme") == "wss" else "http",
    }
    # What a proxy of ours told the socket's handshake, and what language it asked in.
    for name in (b"x-forwarded-for", b"x-forwarded-proto", b"accept-language", b"user-agent"):
        value = _header(scope, name)
        if value is not None:
            environ["HTTP_" + name.decode().upper().replace("-", "_")] = value
    credential = scope.get("credential")
    if credential is not None:
        scheme, token = credential
        environ["HTTP_AUTHORIZATION"] = f"{scheme} {token}"
    else:
        cookie = _header(scope, b"cookie")
        if cookie is not None:
            environ["HTTP_COOKIE"] = cookie
    if isinstance(key, str):
        environ["HTTP_IDEMPOTENCY_KEY"] = key
    request = WSGIRequest(environ)
    if credential is None:
        # The session's socket came from a page of a trusted origin (api/ws_auth.py):
        # a cross-site page cannot send on it, which is all CSRF's check proves.
        request._dont_enforce_csrf_checks = True  # type: ignore[attr-defined]
    return request


def _refused_frame(attr: str, detail: str) -> dict[str, Any]:
    """The API's error body for a frame field HTTP has no place for (its `id`)."""
    return {"type": "validation_error", "errors": [{"code": "invalid", "detail": detail, "attr": attr}]}


def _result(ident: Any, status: int, field: str, body: bytes, retry_after: str | None = None) -> str:
    """The answer's text, the body spliced in as the handler wrote it."""
    head = orjson.dumps({"type": RESULT, "id": ident, "status": status})[:-1]
    tail = b"" if retry_after is None else b',"retry_after":' + orjson.dumps(int(retry_after))
    return (head + b',"' + field.encode() + b'":' + body + tail + b"}").decode()


def _answer(ident: Any, response: HttpResponseBase) -> str:
    status = response.status_code
    body = getattr(response, "content", b"")
    retry_after = response.headers.get("Retry-After")
    if retry_after is not None and not retry_after.isdigit():
        retry_after = None
    if status == 200:
        return _result(ident, status, "view", body)
    try:
        orjson.loads(body)
    except orjson.JSONDecodeError:
        body = orjson.dumps(
            {
                "type": "server_error",
                "errors": [{"code": "error", "detail": _("A server error occurred."), "attr": None}],
            }
        )
    return _result(ident, status, "error", body, retry_after)


def _language(scope: dict[str, Any], code: str) -> str:
    """The language the frame's request is answered in, as the handler chooses it: this
    thread's last one may be another socket's."""
    return language_of(_request(scope, code, b"", None))


def _submit(scope: dict[str, Any], code: str, content: dict[str, Any]) -> str:
    ident = content.get("id")
    if ident is not None and not (isinstance(ident, str) and len(ident) <= ID_MAX):
        with translation.override(_language(scope, code)):
            detail = ngettext(
                "An action frame's id is a string of at most %(max)s character.",
                "An action frame's id is a string of at most %(max)s characters.",
                ID_MAX,
            ) % {"max": ID_MAX}
        return _result(None, 400, "error", orjson.dumps(_refused_frame("id", detail)))
    key = content.get("idempotency_key")
    if key is not None and not isinstance(key, str):
        with translation.override(_language(scope, code)):
            detail = _("An action frame's idempotency_key is a string.")
        return _result(ident, 400, "error", orjson.dumps(_refused_frame("idempotency_key", detail)))
    # Too long a body is refused 413 by the view's parser, as HTTP's is.
    body = orjson.dumps({k: v for k, v in content.items() if k not in _FRAME_FIELDS})
    response = _django().get_response(_request(scope, code, body, key))
    # Answered after the handler chose the request's language: "A server error" is in it.
    return _answer(ident, response)


# Moves are served by threads of their own, as gunicorn's workers serve POSTs: one move
# waiting for the database (the room's lock) holds up no other room's, and none of the
# socket process's reads (channels runs those one at a time, in one thread).
_threads = ThreadPoolExecutor(max_workers=settings.SOCKET_MOVE_THREADS, thread_name_prefix="socket-move")

submit = DatabaseSyncToAsync(_submit, thread_sensitive=False, executor=_threads)
"""`_submit` from the socket's event loop: the frame's answer, as the text to send."""


def close_connections() -> None:
    """Close every move thread's database connections (kept for DB_CONN_MAX_AGE)."""
    close_thread_connections(_threads, settings.SOCKET_MOVE_THREADS)
