"""How the database is emptied after each transactional test (the browser tests, the live
servers', the Celery workers'): the rows of the tables that hold any are deleted, in one
transaction, with every table locked as Django's TRUNCATE would lock it.

Django's own flush truncates all of the project's fifty-odd tables, whatever the test
wrote, then recreates every content type and permission (post_migrate): about a second
on two busy cores, after each of some five hundred tests. Deleting the few rows a test
wrote costs a tenth of that. What post_migrate would recreate (content types and
permissions, which the migrations made) is kept as it is, and with it the ids that
ContentType's cache holds. The locks make a server still finishing a transaction on the
way out wait for it to end, as TRUNCATE does, so that none of its rows survive into the
next test. Django's foreign keys are checked at commit (DEFERRABLE INITIALLY DEFERRED),
when every row that pointed at a deleted one is gone too.

That server's commit checks its foreign keys, and so asks for a share of a table the
emptying may already have locked, while the emptying waits for the table the server
wrote: PostgreSQL breaks that deadlock by ending one of the two transactions. Whichever
it ends, the server's write is then either committed or undone, and the emptying is
tried again.

A test case that names its `available_apps` or asks for a serialized rollback is
emptied by Django's own flush, as is any database but PostgreSQL.
"""

from __future__ import annotations

from typing import Any

import psycopg
from django.db import OperationalError, connections, transaction
from django.test import TransactionTestCase

# What post_migrate makes, and the record of the migrations applied.
KEPT = frozenset({"django_content_type", "auth_permission", "django_migrations"})

TRIES = 5


def empty(alias: str) -> None:
    for tries_left in reversed(range(TRIES)):
        try:
            _empty_once(alias)
            return
        except OperationalError as error:
            if not isinstance(error.__cause__, psycopg.errors.DeadlockDetected) or not tries_left:
                raise


def _empty_once(alias: str) -> None:
    connection = connections[alias]
    quote = connection.ops.quote_name
    tables = sorted(set(connection.introspection.django_table_names(only_existing=True, include_views=False)) - KEPT)
    if not tables:
        return
    with transaction.atomic(using=alias), connection.cursor() as cursor:
        cursor.execute(f"LOCK TABLE {', '.join(quote(t) for t in tables)} IN ACCESS EXCLUSIVE MODE")
        probe = " UNION ALL ".join(f"SELECT %s WHERE EXISTS (SELECT 1 FROM {quote(t)})" for t in tables)
        cursor.execute(probe, tables)
        for (table,) in cursor.fetchall():
            cursor.execute(f"DELETE FROM {quote(table)}")


_django_flush = TransactionTestCase._fixture_teardown


def _fixture_teardown(self: Any) -> None:
    aliases = self._databases_names(include_mirrors=False)
    if self.available_apps is not None or self.serialized_rollback:
        _django_flush(self)
    elif any(connections[alias].vendor != "postgresql" for alias in aliases):
        _django_flush(self)
    else:
        for alias in aliases:
            empty(alias)


def install() -> None:
    """Every transactional test of the process is emptied so (tests/conftest.py)."""
    TransactionTestCase._fixture_teardown = _fixture_teardown  # type: ignore[method-assign]
