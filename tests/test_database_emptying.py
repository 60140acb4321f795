"""The emptying after each transactional test (tests/database_emptying.py) against a
server that commits on the way out."""

from __future__ import annotations

import threading
import time
from typing import Any

import psycopg
import pytest
from django.db import connection, connections

from tests.database_emptying import empty
from tests.servers import database_url


def _waiting_locks(table: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = %s::regclass", [table])
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_a_servers_commit_that_deadlocks_with_the_emptying_leaves_nothing_behind(make_user: Any) -> None:
    """A server's transaction wrote a row pointing at a person, and commits while the
    emptying holds the people's table and waits for the row's: the commit's foreign key
    check and the emptying wait for each other, and PostgreSQL ends one of them. The
    emptying still leaves every table empty."""
    from accounts.models import User
    from privacy.models import DataExport

    person = make_user()
    server = psycopg.connect(database_url())
    with server.cursor() as cursor:
        cursor.execute(
            "INSERT INTO privacy_dataexport (user_id, requested_at, digest) VALUES (%s, now(), '')", [person.pk]
        )

    outcome: dict[str, BaseException | None] = {}

    def emptying() -> None:
        try:
            empty("default")
            outcome["error"] = None
        except BaseException as error:  # reported by the test's own thread
            outcome["error"] = error
        finally:
            connections.close_all()

    thread = threading.Thread(target=emptying)
    thread.start()
    # The tables are locked in name order: the people's before the exports'.
    deadline = time.monotonic() + 30
    while not _waiting_locks("privacy_dataexport"):
        assert time.monotonic() < deadline, "the emptying never waited for the server's table"
        time.sleep(0.05)
    try:
        server.commit()  # its foreign key check now waits for the people's table
    except psycopg.errors.DeadlockDetected:
        server.rollback()  # PostgreSQL chose the server's transaction to end
    finally:
        server.close()
    thread.join(60)

    assert not thread.is_alive()
    assert outcome["error"] is None
    assert not User.objects.exists()
    assert not DataExport.objects.exists()
