"""OpenAPI additions: the table of stable error codes in the document's description."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from games.errors import ERROR_CODES

from .inputs import IDEMPOTENCY_KEY_MAX

INTRO = """\
Turn-based trick-taking games (Hearts, Moon, Kali Tidi) over REST.

Authenticate with `Authorization: Token <token>` (from `auth/register`, `auth/token` or
`auth/guest`). Every error has the shape
`{{"type": "client_error"|"server_error"|"validation_error", "errors": [{{"code", "detail", "attr"}}]}}`.
Send `Idempotency-Key: <uuid>` with an action to make retries safe.

## Limits
What is beyond them is refused with the error below and changes nothing.
- A JSON body: at most {body} bytes, an action at most {action} (`413 body_too_large`).
- Objects and arrays nest at most {depth} deep (`400 too_deep`).
- No string of a body, and no header, holds a control character or invalid Unicode
  (`400 invalid_character`).
- The path and query: at most {uri} characters (`414 uri_too_long`).
- `Idempotency-Key`: 1 to {key} visible ASCII characters (`400 invalid`).
- Numbers such as `version` and `after`: ASCII digits from 0 to 2147483647 (`400 invalid`).
- An action holds only the fields its type defines (`400 invalid`, `attr` naming the field).

## Error codes
| code | status | meaning |
|---|---|---|
"""


def add_error_codes(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    rows = "\n".join(f"| `{code}` | {status} | {meaning} |" for code, (status, meaning) in ERROR_CODES.items())
    intro = INTRO.format(
        body=settings.API_MAX_BODY_BYTES,
        action=settings.API_MAX_ACTION_BYTES,
        depth=settings.API_MAX_JSON_DEPTH,
        uri=settings.API_MAX_URI_CHARS,
        key=IDEMPOTENCY_KEY_MAX,
    )
    result.setdefault("info", {})["description"] = intro + rows + "\n"
    return result
