"""Retries that honour `Retry-After`, and never play a move twice.

httpx-retries does the waiting (the answer's `Retry-After`, in seconds or as a date,
else an exponential backoff with jitter); what this module adds is the choice of
policy for each request, by what repeating it could do:

- A request safe to send again, a read or a POST carrying an `Idempotency-Key` (every
  move this package sends has one: the server answers a repeated key with its first
  answer, never applying the move twice), is retried on 429, on 503 and when the
  network fails midway.
- Any other request is retried only when the server cannot have acted on it: a 429
  (throttles refuse before any work) and a connection that never opened.
"""

from __future__ import annotations

import httpx
from httpx_retries import Retry, RetryTransport

IDEMPOTENCY_KEY = "Idempotency-Key"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"})


def safe_to_repeat(request: httpx.Request) -> bool:
    return request.method in SAFE_METHODS or IDEMPOTENCY_KEY in request.headers


class RetryAfterTransport(RetryTransport):
    """A transport for httpx clients: `attempts` retries at most, a wait of at most
    `longest_wait` seconds each (a longer `Retry-After` is cut to it) and `total_wait`
    in all."""

    def __init__(
        self,
        transport: httpx.BaseTransport | httpx.AsyncBaseTransport | None = None,
        *,
        attempts: int = 5,
        longest_wait: float = 60.0,
        total_wait: float = 120.0,
        backoff: float = 0.5,
    ) -> None:
        self.repeatable = Retry(
            total=attempts,
            max_backoff_wait=longest_wait,
            total_timeout=total_wait,
            backoff_factor=backoff,
            allowed_methods=["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE", "POST", "PATCH"],
            status_forcelist=[429, 503],
        )
        self.not_repeatable = Retry(
            total=attempts,
            max_backoff_wait=longest_wait,
            total_timeout=total_wait,
            backoff_factor=backoff,
            allowed_methods=["POST", "PATCH"],
            status_forcelist=[429],
            retry_on_exceptions=[httpx.ConnectError, httpx.ConnectTimeout],
        )
        super().__init__(transport=transport, retry=self.repeatable)

    def _policy(self, request: httpx.Request) -> None:
        request.extensions.setdefault("retry", self.repeatable if safe_to_repeat(request) else self.not_repeatable)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self._policy(request)
        return super().handle_request(request)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self._policy(request)
        return await super().handle_async_request(request)
