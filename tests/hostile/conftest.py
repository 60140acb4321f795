"""Hostile input through the real HTTP stack: gunicorn, as production runs the API
(sync workers, DEBUG off), on this worker's PostgreSQL test database.

The server commits what it does, so tests are transactional (the database is emptied
after each). Players and their tokens are made in this process; everything else (rooms,
seats, moves) goes over HTTP. What the database holds is read here, through the ORM.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.db import connection

from .support import Table, token_client

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "var" / "test-logs"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _database_url() -> str:
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture(scope="session")
def gunicorn_url(django_db_setup: Any, django_db_blocker: Any) -> Iterator[str]:
    port = _free_port()
    tag = os.environ.get("PYTEST_XDIST_WORKER", "main")
    LOGS.mkdir(parents=True, exist_ok=True)
    with django_db_blocker.unblock():
        database_url = _database_url()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.test_settings",
        "DATABASE_URL": database_url,
        "DEBUG": "0",
        "BOT_DELAY_SECONDS": "0",
        "GAME_TASKS_ENABLED": "0",
        # No connection outlives its request, so the flush after each test waits on none.
        "DB_CONN_MAX_AGE": "0",
    }
    log = open(LOGS / f"gunicorn-hostile-{tag}.log", "w")  # closed at teardown
    cmd = [sys.executable, "-m", "gunicorn", "config.wsgi", "-w", "1", "-b", f"127.0.0.1:{port}"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {proc.returncode}; see {log.name}")
            try:
                if httpx.get(url + "/api/v1/games/", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer within 30 s; see {log.name}")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


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
