"""Django's PostgreSQL backend, with the health check skipped for a connection that was
in use a moment ago.

With CONN_HEALTH_CHECKS Django pings a kept connection (`SELECT 1`, a round trip) before
each request uses it, so that a connection the database dropped while it sat idle is
replaced instead of failing the request. A busy worker's connection served a request a
few milliseconds earlier; pinging it again costs a round trip per request and tells
nothing new. Here a connection is pinged only when no request has used it for
`FRESH_SECONDS`. A connection the server drops within that moment fails one request, as
any would without a health check; Django then replaces it.
"""

from __future__ import annotations

import time

from django.db.backends.postgresql import base

FRESH_SECONDS = 1.0


class DatabaseWrapper(base.DatabaseWrapper):
    # When a request last began to use this connection (checked or not).
    _last_used = float("-inf")

    def close_if_health_check_failed(self) -> None:
        if self.connection is None or not self.health_check_enabled or self.health_check_done:
            return
        now = time.monotonic()
        if now - self._last_used < FRESH_SECONDS:
            self.health_check_done = True
        else:
            super().close_if_health_check_failed()
        self._last_used = now
