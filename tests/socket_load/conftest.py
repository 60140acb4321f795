"""Sockets under load through a real daphne process, as production serves them: on this
test run's PostgreSQL test database and Redis channel layer (the same prefix as this
process, so that the notices this process sends reach it).

The server commits nothing itself here, but reads what the tests commit, so the tests
are transactional. Its log is read by the tests: whatever a test makes the server do
must leave no error there.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from tests.servers import ROOT, daphne_argv, database_url, free_port, running, server_env, wait_until_serving

LOGS = ROOT / "var" / "test-logs"
# The server's record of a room's position answers pings for this long after it was
# confirmed (LIVE_PING_FRESH_SECONDS): short, so that a test waits little for a read.
FRESH_SECONDS = 1.0


def closing_connections[**P, R](func: Callable[P, R]) -> Callable[P, R]:
    """`func` for another thread (asyncio.to_thread): its database connection is closed
    after, or the test database cannot be dropped at the end of the run."""

    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        finally:
            connections.close_all()

    return run


# Busy processes a test of the sockets under load runs beside the server (as the browser
# tests' second suite does, E2E_LOAD): on this project's 2-core machine, two of them keep
# every core taken, whatever else runs.
BUSY_PROCESSES = int(os.environ.get("SOCKET_LOAD_BUSY") or 2)


@pytest.fixture
def busy_machine() -> Iterator[int]:
    """The machine kept busy for the test: BUSY_PROCESSES processes spinning."""
    burners = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"], stdin=subprocess.DEVNULL)
        for _ in range(BUSY_PROCESSES)
    ]
    try:
        yield BUSY_PROCESSES
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


@dataclass
class Daphne:
    url: str
    pid: int
    log: Path

    def log_size(self) -> int:
        return self.log.stat().st_size

    def log_since(self, offset: int) -> str:
        with open(self.log, "rb") as f:
            f.seek(offset)
            return f.read().decode(errors="replace")

    def pause(self) -> None:
        os.kill(self.pid, signal.SIGSTOP)

    def resume(self) -> None:
        os.kill(self.pid, signal.SIGCONT)


@pytest.fixture(scope="module")
def daphne(django_db_setup: Any, django_db_blocker: Any) -> Iterator[Daphne]:
    port = free_port()
    with django_db_blocker.unblock():
        # Connections kept, as deployed: opening a new one for each of 300 sockets' reads
        # takes longer than daphne waits for a socket to be accepted (5 s).
        env = server_env(database_url(), DEBUG="0", DB_CONN_MAX_AGE="60", LIVE_PING_FRESH_SECONDS=str(FRESH_SECONDS))
    argv = daphne_argv(port)
    log_path = LOGS / f"daphne-socket-load-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    with running(argv, env=env, log_path=log_path) as proc:
        url = f"http://127.0.0.1:{port}"
        wait_until_serving(proc, url, "daphne", str(log_path), seconds=60)
        yield Daphne(url, proc.pid, log_path)
