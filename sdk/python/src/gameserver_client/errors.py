"""The API's one error shape, raised: `{"type": …, "errors": [{"code", "detail", "attr"}]}`.

Read from the answer's JSON rather than from the generated error models: the shape is
the same for every operation and status, and a code this version does not know is kept
as it is (v1 may add codes; a client treats one it does not know by its status)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import httpx


@dataclass(frozen=True)
class ErrorDetail:
    code: str
    detail: str
    attr: str | None = None


@dataclass
class ApiError(Exception):
    """An answer outside 2xx/3xx. `codes` are the stable error codes, in the answer's order."""

    status: int
    type: str
    errors: list[ErrorDetail] = field(default_factory=list)
    retry_after: str | None = None

    def __post_init__(self) -> None:
        super().__init__(self.status, self.type, self.errors)

    def __str__(self) -> str:
        said = "; ".join(f"{e.code}: {e.detail}" + (f" ({e.attr})" if e.attr else "") for e in self.errors)
        return f"{self.status} {self.type}: {said or 'no details'}"

    @property
    def codes(self) -> list[str]:
        return [e.code for e in self.errors]

    @classmethod
    def from_response(cls, response: httpx.Response) -> ApiError:
        body: Any
        try:
            body = response.json()
        except ValueError:
            body = None
        retry_after = response.headers.get("Retry-After")
        if not isinstance(body, dict):
            # Not the API's shape (a proxy's page, say): keep what the status says.
            return cls(response.status_code, "unknown", [], retry_after)
        errors = [
            ErrorDetail(str(e.get("code", "")), str(e.get("detail", "")), e.get("attr"))
            for e in body.get("errors") or []
            if isinstance(e, dict)
        ]
        return cls(response.status_code, str(body.get("type", "unknown")), errors, retry_after)


class SocketRefused(Exception):
    """The room socket was closed with a code retrying will not help: 4401 (no valid
    credentials, or banned), 4403 (an origin not trusted), 4404 (no such room)."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(f"socket closed with {code}: {reason or 'no reason given'}")
        self.code, self.reason = code, reason
