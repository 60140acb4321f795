"""core.postgresql: the health check pings a kept connection only when it sat idle."""

from __future__ import annotations

import time

import pytest
from django.db import connections

from core.postgresql.base import FRESH_SECONDS

# The backend's own object: `django.db.connection` is a proxy, not the wrapper class.
connection = connections["default"]

pytestmark = pytest.mark.django_db


def test_a_connection_idle_for_a_while_is_pinged_and_one_just_used_is_not(monkeypatch):
    assert connection.health_check_enabled
    pings = []
    monkeypatch.setattr(type(connection), "is_usable", lambda self: pings.append(1) or True)

    def new_request_uses_the_connection() -> None:
        connection.health_check_done = False  # as Django does when a request begins
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")

    connection._last_used = time.monotonic() - FRESH_SECONDS - 1
    new_request_uses_the_connection()
    assert pings == [1]
    new_request_uses_the_connection()
    new_request_uses_the_connection()
    assert pings == [1]
    connection._last_used = time.monotonic() - FRESH_SECONDS - 1
    new_request_uses_the_connection()
    assert pings == [1, 1]


def test_a_failed_ping_replaces_the_connection(monkeypatch):
    monkeypatch.setattr(type(connection), "is_usable", lambda self: False)
    closed = []
    monkeypatch.setattr(type(connection), "close", lambda self: closed.append(1))
    connection._last_used = time.monotonic() - FRESH_SECONDS - 1
    connection.health_check_done = False
    connection.close_if_health_check_failed()
    assert closed == [1]
