"""Django's PostgreSQL backend, with a cursor that binds on the server for the hot
path's statements (core/prepared.py), the health check skipped for a connection that
was in use a moment ago, and JSON values written by orjson (operations.py).

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
from typing import Any

from django.db.backends.postgresql import base
from django.utils.asyncio import async_unsafe

from .operations import DatabaseOperations

FRESH_SECONDS = 1.0


class DatabaseWrapper(base.DatabaseWrapper):
    # JSON values written by orjson (operations.py).
    ops_class = DatabaseOperations
    # When a request last began to use this connection (checked or not).
    _last_used = float("-inf")
    # Django sets the health check's flags in __init__; django-stubs leave them out.
    health_check_enabled: bool
    health_check_done: bool

    @async_unsafe
    def server_binding_cursor(self) -> Any:
        """A cursor, checked and wrapped as Django's own (health check, errors, query
        logging), whose statements bind on the server and so may be prepared; the ORM's
        cursors keep binding on the client."""
        self.close_if_health_check_failed()
        self.ensure_connection()
        with self.wrap_database_errors:
            # django-stubs know neither _prepare_cursor nor ServerBindingCursor's arguments.
            return self._prepare_cursor(base.ServerBindingCursor(self.connection))  # type: ignore[attr-defined,call-arg]

    def close_if_health_check_failed(self) -> None:
        if self.connection is None or not self.health_check_enabled or self.health_check_done:
            return
        now = time.monotonic()
        if now - self._last_used < FRESH_SECONDS:
            self.health_check_done = True
        else:
            super().close_if_health_check_failed()
        self._last_used = now
