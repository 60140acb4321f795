"""Checks on what arrives outside the JSON body: path segments and headers.

Each is checked against what it can be before anything queries with it (the body is
the parser's business, api/parsers.py; query parameters are serializers').
"""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from rest_framework.exceptions import ErrorDetail, ValidationError

from games.codes import CODE_PATTERN
from games.models import IdempotentRequest

IDEMPOTENCY_KEY_HEADER = "Idempotency-Key"
IDEMPOTENCY_KEY_MAX = IdempotentRequest._meta.get_field("key").max_length
# Visible ASCII: a UUID, a ULID or any token a client makes fits, and the key is stored
# and compared as it was sent.
IDEMPOTENCY_KEY_PATTERN = f"[\\x21-\\x7e]{{1,{IDEMPOTENCY_KEY_MAX}}}"
_IDEMPOTENCY_KEY = re.compile(IDEMPOTENCY_KEY_PATTERN)


class RoomCodeConverter:
    """`<room_code:code>` in a URL: only what can be a room code routes to a view, so a
    path segment with a NUL or the wrong length is a 404 before any query."""

    regex = CODE_PATTERN

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


def idempotency_key(value: str | None) -> str | None:
    """The request's Idempotency-Key (None without one), refused unless it is whole: a key
    cut to the column's length could collide with another sharing its prefix."""
    if not value:
        return None
    if not _IDEMPOTENCY_KEY.fullmatch(value):
        # Translators: the header is the name of an HTTP header (Idempotency-Key), as it is written.
        detail = _("An %(header)s is 1 to %(max)s visible ASCII characters.") % {
            "header": IDEMPOTENCY_KEY_HEADER,
            "max": IDEMPOTENCY_KEY_MAX,
        }
        raise ValidationError({IDEMPOTENCY_KEY_HEADER: [ErrorDetail(detail, code="invalid")]})
    return value
