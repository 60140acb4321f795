"""How a deployment's processes are started, for the tests here (conftest.py) and for the
soak (scripts/soak.py): the shared environment, each kind of process's command line, a
database of the deployment's own, and waiting for a process to be ready.

Nothing here reads Django's settings: the caller says which PostgreSQL server and which
Redis to use.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from tests.servers import ROOT, server_env

LOG_TAIL_LINES = 40
PY = sys.executable
CELERY = [PY, "-m", "celery", "-A", "config"]


def cluster_env(database: str, broker: str, prefix: str, **extra: str) -> dict[str, str]:
    """The one environment every process of the deployment shares: the test settings on
    `database`, Redis at `broker` as the Celery broker, cache and channel layer, with
    broker keys and channel names under `prefix` (so that no other worker or socket
    server using that Redis database takes its tasks or hears its notices). `extra`
    overrides any of it."""
    return server_env(
        database,
        **{
            "DEBUG": "0",
            "REDIS_URL": broker,
            "CELERY_BROKER_URL": broker,
            "CELERY_KEY_PREFIX": f"{prefix}:",
            "CHANNELS_REDIS_URL": broker,
            "CHANNELS_PREFIX": prefix,
            "GAME_TASKS_ENABLED": "1",
            # Computer players move inside the change that makes it their turn, in whichever
            # process makes it: what a test waits for is then only the clock.
            "BOT_DELAY_SECONDS": "0",
            "SWEEP_SECONDS": "1",
            "PYTHONUNBUFFERED": "1",
            **extra,
        },
    )


def gunicorn_argv(port: int, *, workers: int = 1) -> list[str]:
    """As deployed (deploy/gunicorn.conf.py): the application preloaded before the port is
    bound, and each worker beating (uptime)."""
    conf = ["-c", str(ROOT / "deploy" / "gunicorn.conf.py")]
    return [PY, "-m", "gunicorn", *conf, "config.wsgi", "-w", str(workers), "-b", f"127.0.0.1:{port}"]


def worker_argv(name: str, queues: str | None = None, concurrency: int = 0) -> list[str]:
    """A Celery worker of one process (solo pool; `concurrency`: that many pool
    processes) named `name`@host, taking `queues` (comma-separated, as -Q; None: every
    queue, the players' clocks' included)."""
    pool = ["--pool=prefork", f"--concurrency={concurrency}"] if concurrency else ["--pool=solo"]
    options = [*pool, "--loglevel=INFO", "-n", f"{name}@%h", "--without-gossip", "--without-mingle"]
    return [*CELERY, "worker", *options, *(["-Q", queues] if queues else [])]


# What a worker logs once it takes tasks.
WORKER_READY = " ready."
# What beat logs once it has sent its first task: then it has reached the broker.
BEAT_READY = "Sending due task"


def beat_argv(schedule: Path) -> list[str]:
    return [*CELERY, "beat", "--loglevel=INFO", f"--schedule={schedule}"]


@contextmanager
def own_database(server: str, name: str, *, keep: bool = False) -> Iterator[str]:
    """A new database `name` on the PostgreSQL server at `server` (postgres://user@host:port),
    migrated; its URL. Dropped after, whoever is still connected, unless `keep`."""
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        try:
            url = f"{server}/{name}"
            env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.test_settings", "DATABASE_URL": url}
            migrate = [PY, "manage.py", "migrate", "--noinput"]
            done = subprocess.run(migrate, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, f"migrate failed:\n{done.stdout}\n{done.stderr}"
            yield url
        finally:
            if not keep:
                admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def wait_for_line(
    proc: subprocess.Popen[Any], log: Path, marker: str, what: str, seconds: float, since: int = 0
) -> None:
    """Wait until `proc` writes `marker` to its log (after the first `since` bytes)."""
    deadline = time.monotonic() + seconds
    while marker not in log.read_bytes()[since:].decode(errors="replace"):
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}; see {log}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not log {marker!r} within {seconds} s; see {log}")
        time.sleep(0.2)


def print_log_tails(logs: dict[str, Path], lines: int = LOG_TAIL_LINES) -> None:
    for name, path in logs.items():
        text = path.read_text(errors="replace").splitlines() if path.exists() else ["(no log)"]
        print(f"----- {name}: last {lines} lines of {path} -----")
        print("\n".join(text[-lines:]))
