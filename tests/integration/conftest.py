"""Real Celery workers against the real broker (Redis) and the test database.

Two worker processes, one of them also running beat with a one-second sweeper and
pickup, are started once per test process; tests that use them must commit
(transaction=True)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from django.conf import settings

from tests.servers import database_url

ROOT = Path(__file__).resolve().parents[2]
WORKER_BOT_DELAY = "0.2"
# Due times further ahead than this are queued by the workers' beat pickup, every second.
WORKER_TASK_HORIZON = 4


def wait_for_workers(names: list[str], timeout: float = 60) -> None:
    from config.celery import app

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        replies = app.control.ping(timeout=1.0) or []
        seen = {name for reply in replies for name in reply}
        if all(any(n in s for s in seen) for n in names):
            return
    raise RuntimeError(f"Celery workers {names} did not answer within {timeout} s")


def worker_env() -> dict[str, str]:
    """What a worker of the test run needs: the test database and the test broker."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.test_settings",
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "GAME_TASKS_ENABLED": "1",
        "BOT_DELAY_SECONDS": WORKER_BOT_DELAY,
        "SWEEP_SECONDS": "1",
        "GAME_TASK_HORIZON_SECONDS": str(WORKER_TASK_HORIZON),
        "GAME_TASK_PICKUP_SECONDS": "1",
        "DB_CONN_MAX_AGE": "0",
    }


def start_worker(name: str, *args: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen, Path]:
    """A `celery worker` process named `name` (solo pool) and the file it logs to."""
    cmd = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "--pool=solo",
        "--loglevel=INFO",
        "-n",
        f"{name}@%h",
        "--without-gossip",
        "--without-mingle",
        *args,
    ]
    with tempfile.NamedTemporaryFile(prefix=f"celery-{name}-", suffix=".log", delete=False) as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env or worker_env(), stdout=log, stderr=subprocess.STDOUT)
    return proc, Path(log.name)


@pytest.fixture(scope="session")
def celery_workers(django_db_setup, django_db_blocker) -> Iterator[None]:
    broker = settings.CELERY_BROKER_URL
    assert broker.startswith("redis://"), "the integration tests need the Redis broker"
    redis.Redis.from_url(broker).flushdb()  # leftovers of an earlier run must not fire
    tag = os.environ.get("PYTEST_XDIST_WORKER", "main")
    schedule = Path(tempfile.mkdtemp()) / "beat-schedule"
    names = [f"w1-{tag}", f"w2-{tag}"]
    procs = [
        start_worker(names[0], "--beat", f"--schedule={schedule}")[0],
        start_worker(names[1])[0],
    ]
    try:
        wait_for_workers(names)
        yield
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
        redis.Redis.from_url(broker).flushdb()
