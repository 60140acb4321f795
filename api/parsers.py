"""The API's one parser: JSON, bounded and checked before any view sees it.

DRF's JSONParser reads whatever body arrives (beyond DATA_UPLOAD_MAX_MEMORY_SIZE Django
raises an exception that surfaces as a 500), lets deep nesting overflow the decoder's
recursion, and hands on strings that PostgreSQL refuses (a NUL in `jsonb` or text) or
that cannot be written back as UTF-8 (lone surrogates, which then break the renderer of
any answer that echoes them). Each of these is refused here with a 4xx, for every
endpoint at once, so nothing past this point ever sees such a body:

- a body longer than the view's `max_body_bytes` (else `API_MAX_BODY_BYTES`): 413;
- bytes that are not UTF-8, or text that is not JSON (NaN and Infinity included): 400
  `parse_error`;
- an object that names a key twice: 400 `duplicate_key` (decoders disagree on which
  one counts: the first, the last, or a refusal, so a proxy or a client library may
  read another body than the server would);
- arrays and objects nested deeper than `API_MAX_JSON_DEPTH`: 400 `too_deep`;
- a string (value or key) holding a control character or a lone surrogate: 400
  `invalid_character`, `attr` naming where;
- a number that no column could hold (beyond 64 bits, or not finite): 400 `invalid`.

Error details never quote the body: what was sent may be exactly what cannot be shown.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from itertools import takewhile
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework.exceptions import APIException, ErrorDetail, ParseError, ValidationError
from rest_framework.parsers import BaseParser

from core.errors import shown_name

# C0 controls (NUL, tab and newline included: no field of the API holds them), DEL, C1
# controls, and the surrogate code points, which only `\u` escapes can produce (raw
# surrogates are not UTF-8) and which no UTF-8 answer can carry back.
FORBIDDEN_CHARACTERS = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
# No number of the API needs more than a signed 64-bit integer (PostgreSQL's bigint);
# jsonb refuses infinities and NaN.
INT_MIN, INT_MAX = -(2**63), 2**63 - 1


class PayloadTooLarge(APIException):
    status_code = 413
    default_code = "body_too_large"

    def __init__(self, limit: int) -> None:
        super().__init__(
            ngettext(
                "The body may be at most %(limit)s byte long here.",
                "The body may be at most %(limit)s bytes long here.",
                limit,
            )
            % {"limit": limit}
        )


def content_length(meta: dict[str, Any]) -> int | None:
    try:
        return int(meta.get("CONTENT_LENGTH") or "")
    except ValueError:
        return None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class _DuplicateKey(Exception):
    """Not a ValueError: the decoder's own errors are, and they answer `parse_error`."""


def _object_without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _DuplicateKey
    return found


def _error(path: tuple[Any, ...], detail: str, code: str) -> ValidationError:
    error = [ErrorDetail(detail, code=code)]
    # The path as far as it reads as names and indexes: a key may be anything (a
    # kilobyte, a dot), and `attr` only quotes what is plainly a name.
    shown = list(takewhile(lambda part: isinstance(part, int) or shown_name(part), path))
    if not shown:
        return ValidationError(error)
    # drf-standardized-errors writes a nested field as its dotted path in `attr`.
    return ValidationError({".".join(str(part) for part in shown): error})


def _too_deep(max_depth: int) -> ValidationError:
    detail = ngettext(
        # Translators: how many levels deep JSON objects and arrays may nest.
        "Objects and arrays nest at most %(max_depth)s deep.",
        "Objects and arrays nest at most %(max_depth)s deep.",
        max_depth,
    ) % {"max_depth": max_depth}
    # No attr: the decoder may give up before it knows where, and the path to a deep
    # value is itself as long as the nesting.
    return _error((), detail, "too_deep")


def check_parsed(data: Any, max_depth: int) -> None:
    """Refuse anything a parsed body must not hold (see the module's docstring).

    Iterative, so that checking depth can never itself run out of stack. Keys enter the
    path only once checked, so an `attr` never carries what it reports.
    """
    stack: list[tuple[Any, int, tuple[Any, ...]]] = [(data, 1, ())]
    while stack:
        value, depth, path = stack.pop()
        if isinstance(value, str):
            if FORBIDDEN_CHARACTERS.search(value):
                raise _error(path, _("Text may not hold control characters or invalid Unicode."), "invalid_character")
        elif isinstance(value, dict):
            if depth > max_depth:
                raise _too_deep(max_depth)
            for key, item in value.items():
                if FORBIDDEN_CHARACTERS.search(key):
                    raise _error(
                        path, _("A name may not hold control characters or invalid Unicode."), "invalid_character"
                    )
                stack.append((item, depth + 1, (*path, key)))
        elif isinstance(value, list):
            if depth > max_depth:
                raise _too_deep(max_depth)
            stack.extend((item, depth + 1, (*path, index)) for index, item in enumerate(value))
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if not INT_MIN <= value <= INT_MAX:
                raise _error(path, _("Numbers must fit in 64 bits."), "invalid")
        elif isinstance(value, float) and not math.isfinite(value):
            raise _error(path, _("Numbers must be finite."), "invalid")


class JSONParser(BaseParser):
    media_type = "application/json"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None) -> Any:
        context = parser_context or {}
        limit = getattr(context.get("view"), "max_body_bytes", None) or settings.API_MAX_BODY_BYTES
        request = context.get("request")
        declared = content_length(request.META) if request is not None else None
        # Refused before reading when the client says how long it is; otherwise read one
        # byte past the limit to know.
        if declared is not None and declared > limit:
            raise PayloadTooLarge(limit)
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise PayloadTooLarge(limit)
        try:
            # JSON is UTF-8 (RFC 8259), whatever charset a Content-Type may claim.
            data = json.loads(
                raw.decode("utf-8"), parse_constant=_refuse_constant, object_pairs_hook=_object_without_duplicates
            )
        except RecursionError:
            raise _too_deep(settings.API_MAX_JSON_DEPTH) from None
        except _DuplicateKey:
            # No attr: the key may be anything, and where it sits is not known here.
            raise _error((), _("An object of the body names the same key twice."), "duplicate_key") from None
        except ValueError:  # UnicodeDecodeError and JSONDecodeError included
            raise ParseError(_("The body is not valid JSON in UTF-8.")) from None
        check_parsed(data, settings.API_MAX_JSON_DEPTH)
        return data
