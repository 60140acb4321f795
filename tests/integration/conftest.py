"""Real Celery workers against the real broker (Redis) and the test database.

Two worker processes, one of them also running beat with a one-second sweeper, are
started once per test process; tests that use them must commit (transaction=True)."""

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
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
WORKER_BOT_DELAY = "0.2"


def _wait_for_workers(names: list[str], timeout: float = 60) -> None:
    from config.celery import app

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        replies = app.control.ping(timeout=1.0) or []
        seen = {name for reply in replies for name in reply}
        if all(any(n in s for s in seen) for n in names):
            return
    raise RuntimeError(f"Celery workers {names} did not answer within {timeout} s")


@pytest.fixture(scope="session")
def celery_workers(django_db_setup, django_db_blocker) -> Iterator[None]:
    broker = settings.CELERY_BROKER_URL
    assert broker.startswith("redis://"), "the integration tests need the Redis broker"
    redis.Redis.from_url(broker).flushdb()  # leftovers of an earlier run must not fire
    db = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.test_settings",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_BROKER_URL": broker,
        "GAME_TASKS_ENABLED": "1",
        "BOT_DELAY_SECONDS": WORKER_BOT_DELAY,
        "SWEEP_SECONDS": "1",
        "DB_CONN_MAX_AGE": "0",
    }
    tag = os.environ.get("PYTEST_XDIST_WORKER", "main")
    schedule = Path(tempfile.mkdtemp()) / "beat-schedule"
    names = [f"w1-{tag}", f"w2-{tag}"]
    procs = []
    logs = []
    for i, name in enumerate(names):
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
        ]
        if i == 0:
            cmd += ["--beat", f"--schedule={schedule}"]
        log = tempfile.NamedTemporaryFile(prefix=f"celery-{name}-", suffix=".log", delete=False)
        logs.append(log)
        procs.append(subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT))
    try:
        _wait_for_workers(names)
        yield
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
        for log in logs:
            log.close()
        redis.Redis.from_url(broker).flushdb()
