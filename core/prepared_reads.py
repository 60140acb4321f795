"""The hottest reads as prepared statements, without the ORM's per-row machinery.

Every request authenticates its token and most read a room's table. Django's default
PostgreSQL cursor binds parameters on the client, so PostgreSQL parses and plans each of
these statements anew on every request. Here they run through a server-binding psycopg
cursor on Django's own connection; with the connection's `prepare_threshold` set (see
`DATABASES` in settings) psycopg prepares a statement after a few uses and PostgreSQL
then skips parsing and planning. The rest of the ORM keeps Django's default cursor.

Rows come back as plain tuples in the statement's column order, so callers build what they need
(`Model.from_db`) without a RawQuerySet's column-matching on every call. The statement
still goes through Django's cursor wrapper: the connection's health check, thread check
and, in tests, query logging all apply as usual.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection


def fetch_one(sql: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
    """The first row (or None) of one read, `%s` placeholders."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            import psycopg  # only where PostgreSQL is the database

            # Server-side binding (and so preparation) for this one statement.
            cursor.cursor = psycopg.Cursor(connection.connection)
        cursor.execute(sql, params)
        return cursor.fetchone()
