"""Every answer under /api/ is JSON in the error shape, whichever layer refuses.

DRF views already answer their errors that way. What happens before or around them
does not: Django's 404 for an unknown path (or a room code that cannot exist), its 400
for a suspicious request, its 500 page. This middleware sits outside those layers and
turns any such answer under the API's prefix into the one shape, with a stable code
chosen by status. Before anything else reads the request it also refuses what no
endpoint could serve, so the later layers never see it:

- a URI longer than `API_MAX_URI_CHARS`: 414 `uri_too_long`. Front servers cut request
  lines at about 4 KB with their own answers; below that, the client reads ours;
- a declared body longer than `API_MAX_BODY_BYTES`: 413 `body_too_large`, unread;
- a header value holding a control character: 400 `invalid_character` (a NUL would
  reach PostgreSQL by way of the token or the Idempotency-Key);
- a multipart body whose boundary is missing or not one RFC 2046 allows: 400
  `bad_request` (no endpoint reads multipart, which is 415 otherwise; a layer that
  parsed the form, such as a CSRF check on a session, would fail on it without a word);
- a Content-Type Django could not read as it made the request (api/http_requests.py):
  400 `bad_request` too. Under daphne as under gunicorn: daphne no longer parses form
  bodies itself (api/daphne_bodies.py).

Details name the limit or the header, never what was sent.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.utils.http import parse_header_parameters
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.middleware import language_of

from .parsers import content_length

# Field values may hold tabs (RFC 9110); no other control character.
_HEADER_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f]")
_HEADER_NAME = re.compile("[A-Z0-9_]{1,64}")
# RFC 2046 §5.1.1: 1 to 70 of these characters, the last not a space.
_BOUNDARY = re.compile(r"[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]")

# The code for an answer of a status that came from outside DRF.
CODES_BY_STATUS = {
    400: "bad_request",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    414: "uri_too_long",
    415: "unsupported_media_type",
}
DETAILS = {
    "bad_request": gettext_lazy("The request is malformed."),
    "permission_denied": gettext_lazy("You may not do that."),
    "not_found": gettext_lazy("There is nothing at this address."),
    "method_not_allowed": gettext_lazy("This method is not allowed here."),
    "body_too_large": gettext_lazy("The body is too long."),
    # Translators: the address is the URL of the request.
    "uri_too_long": gettext_lazy("The address is too long."),
    "unsupported_media_type": gettext_lazy("Send the body as JSON, with Content-Type: application/json."),
    "server_error": gettext_lazy("Server Error (500)"),
}


def error_response(status: int, code: str, detail: str, attr: str | None = None) -> JsonResponse:
    kind = "server_error" if status >= 500 else "client_error"
    return JsonResponse({"type": kind, "errors": [{"code": code, "detail": detail, "attr": attr}]}, status=status)


def _header_name(meta_key: str) -> str | None:
    """`HTTP_IDEMPOTENCY_KEY` -> `Idempotency-Key`, for the error's `attr`."""
    name = meta_key.removeprefix("HTTP_")
    if not _HEADER_NAME.fullmatch(name):
        return None
    return "-".join(part.capitalize() for part in name.split("_"))


def refusal(request: HttpRequest) -> JsonResponse | None:
    """The answer to a request no endpoint may see, or None."""
    meta = request.META
    limit = settings.API_MAX_URI_CHARS
    if len(meta.get("PATH_INFO", "")) + len(meta.get("QUERY_STRING", "")) > limit:
        detail = ngettext(
            "The address may be at most %(limit)s character long.",
            "The address may be at most %(limit)s characters long.",
            limit,
        ) % {"limit": limit}
        return error_response(414, "uri_too_long", detail)
    declared = content_length(meta)
    if declared is not None and declared > settings.API_MAX_BODY_BYTES:
        detail = ngettext(
            "The body may be at most %(limit)s byte long.",
            "The body may be at most %(limit)s bytes long.",
            settings.API_MAX_BODY_BYTES,
        ) % {"limit": settings.API_MAX_BODY_BYTES}
        return error_response(413, "body_too_large", detail)
    for key, value in meta.items():
        if (key.startswith("HTTP_") or key == "CONTENT_TYPE") and isinstance(value, str):
            if _HEADER_CONTROL.search(value):
                detail = _("A header may not hold control characters.")
                return error_response(400, "invalid_character", detail, _header_name(key))
    content_type = meta.get("CONTENT_TYPE", "")
    if getattr(request, "content_type_unreadable", False):
        detail = _("The Content-Type header cannot be read; the API reads JSON bodies only.")
        return error_response(400, "bad_request", detail, "Content-Type")
    if isinstance(content_type, str) and content_type.lower().lstrip().startswith("multipart/"):
        try:
            boundary = parse_header_parameters(content_type)[1].get("boundary", "")
        except ValueError:
            boundary = ""
        if not _BOUNDARY.fullmatch(boundary):
            detail = _("The multipart body's boundary is missing or malformed; the API reads JSON bodies only.")
            return error_response(400, "bad_request", detail, "Content-Type")
    return None


class ApiErrorsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.prefix = settings.API_PATH_PREFIX

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path_info.startswith(self.prefix):
            return self.get_response(request)
        refused = refusal(request)
        if refused is not None:
            # Refused before the language middleware chose the request's language: written
            # again in it (only a refusal pays for choosing it here).
            with translation.override(language_of(request)):
                return refusal(request) or refused
        response = self.get_response(request)
        if response.status_code < 400 or response.get("Content-Type", "").startswith("application/json"):
            return response
        # A page from Django itself (or a view's non-JSON failure): the API's shape instead.
        status = response.status_code
        code = CODES_BY_STATUS.get(status, "server_error" if status >= 500 else "bad_request")
        # Django's refusal may come before the language middleware chose the request's.
        with translation.override(language_of(request)):
            answer = error_response(status, code, str(DETAILS[code]))
        for header in ("Allow", "Retry-After", "WWW-Authenticate"):
            if header in response:
                answer[header] = response[header]
        return answer
