"""Hostile input through the real HTTP stack: gunicorn, as production runs the API
(sync workers, DEBUG off), on this worker's PostgreSQL test database.

The server commits what it does, so tests are transactional (the database is emptied
after each). Players and their tokens are made in this process; everything else (rooms,
seats, moves) goes over HTTP. What the database holds is read here, through the ORM.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.servers import database_url, free_port, server_env, serving

from .support import Table, token_client

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "var" / "test-logs"


@pytest.fixture(scope="session")
def gunicorn_url(django_db_setup: Any, django_db_blocker: Any) -> Iterator[str]:
    port = free_port()
    with django_db_blocker.unblock():
        env = server_env(database_url(), DEBUG="0")
    argv = [sys.executable, "-m", "gunicorn", "config.wsgi", "-w", "1", "-b", f"127.0.0.1:{port}"]
    log_path = LOGS / f"gunicorn-hostile-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    with serving("gunicorn", argv, port=port, env=env, log_path=log_path) as url:
        yield url


@pytest.fixture
def table(gunicorn_url: str, transactional_db: Any, make_user: Any) -> Iterator[Table]:
    users = [make_user() for _ in range(4)]
    clients = [token_client(gunicorn_url, user) for user in users]
    res = clients[0].post("/api/v1/rooms/", json={"game": "hearts", "options": {}})
    assert res.status_code == 201, res.text
    code = res.json()["code"]
    for client in clients[1:]:
        assert client.post(f"/api/v1/rooms/{code}/join", json={}).status_code == 201
    assert clients[0].post(f"/api/v1/rooms/{code}/start").status_code == 200
    yield Table(gunicorn_url, code, clients, users)
    for client in clients:
        client.close()
