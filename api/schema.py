"""OpenAPI additions: the table of stable error codes in the document's description."""

from __future__ import annotations

from typing import Any

from games.errors import ERROR_CODES

INTRO = """\
Turn-based trick-taking games (Hearts, Moon, Kali Tidi) over REST.

Authenticate with `Authorization: Token <token>` (from `auth/register`, `auth/token` or
`auth/guest`). Every error has the shape
`{"type": "client_error"|"server_error"|"validation_error", "errors": [{"code", "detail", "attr"}]}`.
Send `Idempotency-Key: <uuid>` with an action to make retries safe.

## Error codes
| code | status | meaning |
|---|---|---|
"""


def add_error_codes(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    rows = "\n".join(f"| `{code}` | {status} | {meaning} |" for code, (status, meaning) in ERROR_CODES.items())
    result.setdefault("info", {})["description"] = INTRO + rows + "\n"
    return result
