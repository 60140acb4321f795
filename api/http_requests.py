"""Requests whose Content-Type Django cannot read reach the API's error answers.

Django reads the Content-Type header as it makes the request object, and raises
BadRequest where it cannot (a parameter in RFC 2231's form naming a charset that does not
exist, `boundary*=bogus''x`; a header longer than it reads). Its handlers make the
request before any middleware runs and catch nothing of that: the WSGI server and
daphne answered a bare 500 page. These request classes, the handlers' own
(config/wsgi.py, config/asgi.py), keep such a request with no content type and mark it
(`content_type_unreadable`); api.middleware refuses it under the API's prefix, 400
`bad_request` on `Content-Type`, as it refuses a multipart boundary it cannot use, and
elsewhere it is a request with no body Django reads.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import BadRequest
from django.core.handlers.asgi import ASGIRequest
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpRequest


class _ContentTypeKept(HttpRequest):
    content_type_unreadable = False

    def _set_content_type_params(self, meta: dict[str, Any]) -> None:
        try:
            super()._set_content_type_params(meta)  # type: ignore[misc]
        except BadRequest:
            self.content_type, self.content_params = "", {}
            self.content_type_unreadable = True


class ApiWSGIRequest(_ContentTypeKept, WSGIRequest):
    pass


class ApiASGIRequest(_ContentTypeKept, ASGIRequest):
    pass
