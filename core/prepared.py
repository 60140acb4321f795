"""The hot path's statements, bound on the server and prepared, without the ORM.

Every request authenticates its token, most read a room's table, and every move writes
its rows. Django's default PostgreSQL cursor binds parameters on the client: psycopg
quotes each value into the SQL text (costly for a move's sixty-odd values) and
PostgreSQL parses and plans the result anew each time. These run through a
server-binding cursor on Django's own connection instead (core/postgresql); with the connection's
`prepare_threshold` (see `DATABASES` in settings) psycopg prepares a statement after a
few uses and PostgreSQL then skips parsing and planning. The rest of the ORM keeps
Django's default cursor.

Rows come back as plain tuples in the statement's column order, so callers build what
they need (`Model.from_db`) without a RawQuerySet's column-matching on every call. The
statement still goes through Django's cursor wrapper: the connection's health check,
thread check and, in tests, query logging all apply as usual. On other databases the
same calls run through Django's cursor.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection


def fetch_one(sql: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
    """The first row (or None) of one read, `%s` placeholders."""
    with _cursor() as cursor:
        cursor.execute(sql, params)
        row: tuple[Any, ...] | None = cursor.fetchone()
        return row


def execute(sql: str, params: Sequence[Any]) -> None:
    """Run one statement that returns nothing the caller reads, `%s` placeholders."""
    with _cursor() as cursor:
        cursor.execute(sql, params)


def _cursor() -> Any:
    # Server-side binding (and so preparation) on PostgreSQL (core/postgresql).
    if connection.vendor == "postgresql":
        return connection.server_binding_cursor()  # type: ignore[attr-defined]  # core.postgresql only
    return connection.cursor()
