"""Two of each process, as a deployment runs them (README, Deployment): two gunicorn, two
daphne, two Celery workers and one beat, all with the same environment, on the test
run's PostgreSQL server and Redis.

The deployment has a database of its own, made and migrated for it: the Celery workers
other tests start (tests/integration) sweep the test database for overdue rooms, and
would otherwise act in this deployment's rooms. Its broker keys and channel names carry
a prefix of their own, so that no other worker or socket server of the test run (they
share this Redis database) takes its tasks or hears its notices. Each process logs to
var/test-logs/multiproc-<xdist worker>-<process>.log; the logs' ends are printed when
the processes have stopped, which pytest shows with a failed test.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest
import redis
from django.conf import settings
from psycopg import sql

from tests.servers import ROOT, free_port, running, server_env, tell_to_stop, wait_until_serving

LOGS = ROOT / "var" / "test-logs"
START_SECONDS = 60
LOG_TAIL_LINES = 40


@dataclass
class Worker:
    name: str
    proc: subprocess.Popen[Any]
    log: Path

    def pause(self) -> None:
        """Stop the process where it stands (SIGSTOP): it takes no message and runs no
        task until it is resumed or stopped for good."""
        os.kill(self.proc.pid, signal.SIGSTOP)

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


@dataclass
class Cluster:
    web: list[str]  # the gunicorn processes' URLs
    sockets: list[str]  # the daphne processes' URLs
    workers: list[Worker]
    logs: dict[str, Path]


def cluster_env(database: str, prefix: str) -> dict[str, str]:
    """The one environment every process of the deployment shares."""
    broker = settings.CELERY_BROKER_URL
    return server_env(
        database,
        DEBUG="0",
        REDIS_URL=broker,
        CELERY_BROKER_URL=broker,
        CELERY_KEY_PREFIX=f"{prefix}:",
        CHANNELS_REDIS_URL=broker,
        CHANNELS_PREFIX=prefix,
        GAME_TASKS_ENABLED="1",
        # Computer players move inside the change that makes it their turn, in whichever
        # process makes it: what a test waits for is then only the clock.
        BOT_DELAY_SECONDS="0",
        SWEEP_SECONDS="1",
        PYTHONUNBUFFERED="1",
    )


@contextmanager
def own_database(name: str) -> Iterator[str]:
    """A new database `name` on the test run's PostgreSQL server, migrated; its URL.
    Dropped after, whoever is still connected."""
    db = settings.DATABASES["default"]
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    server = f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        try:
            url = f"{server}/{name}"
            env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.test_settings", "DATABASE_URL": url}
            migrate = [sys.executable, "manage.py", "migrate", "--noinput"]
            done = subprocess.run(migrate, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, f"migrate failed:\n{done.stdout}\n{done.stderr}"
            yield url
        finally:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def wait_for_line(proc: subprocess.Popen[Any], log: Path, marker: str, what: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while marker not in log.read_text(errors="replace"):
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}; see {log}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not log {marker!r} within {seconds} s; see {log}")
        time.sleep(0.2)


def print_log_tails(logs: dict[str, Path]) -> None:
    for name, path in logs.items():
        lines = path.read_text(errors="replace").splitlines() if path.exists() else ["(no log)"]
        print(f"----- {name}: last {LOG_TAIL_LINES} lines of {path} -----")
        print("\n".join(lines[-LOG_TAIL_LINES:]))


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    broker = settings.CELERY_BROKER_URL
    assert broker.startswith("redis://"), "several processes need the Redis broker and channel layer"
    tag = os.environ.get("PYTEST_XDIST_WORKER", "main")
    prefix = f"multiproc-{tag}-{os.getpid()}"
    # Named after the run's database, as pytest-django names its test databases.
    base = urlsplit(os.environ["DATABASE_URL"]).path.strip("/")
    py = sys.executable
    celery = [py, "-m", "celery", "-A", "config"]
    logs: dict[str, Path] = {}
    waits: list[Callable[[], None]] = []
    procs: list[subprocess.Popen[Any]] = []
    cluster = Cluster(web=[], sockets=[], workers=[], logs=logs)
    try:
        with ExitStack() as stack:
            env = cluster_env(stack.enter_context(own_database(f"test_{base}_deploy_{tag}")), prefix)

            def start(name: str, argv: list[str]) -> tuple[subprocess.Popen[Any], Path]:
                logs[name] = LOGS / f"multiproc-{tag}-{name}.log"
                procs.append(stack.enter_context(running(argv, env=env, log_path=logs[name])))
                return procs[-1], logs[name]

            def web_server(name: str, argv: list[str], port: int) -> str:
                proc, log = start(name, argv)
                url = f"http://127.0.0.1:{port}"
                waits.append(lambda: wait_until_serving(proc, url, name, str(log), START_SECONDS))
                return url

            def background(name: str, argv: list[str], ready: str) -> tuple[subprocess.Popen[Any], Path]:
                proc, log = start(name, argv)
                waits.append(lambda: wait_for_line(proc, log, ready, name, START_SECONDS))
                return proc, log

            # Everything starts at once; then each is waited for.
            for n in (1, 2):
                port = free_port()
                argv = [
                    py,
                    "-m",
                    "gunicorn",
                    "-c",
                    "deploy/gunicorn.conf.py",
                    "config.wsgi",
                    "-w",
                    "1",
                    "-b",
                    f"127.0.0.1:{port}",
                ]
                cluster.web.append(web_server(f"gunicorn{n}", argv, port))
            for n in (1, 2):
                port = free_port()
                argv = [py, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"]
                cluster.sockets.append(web_server(f"daphne{n}", argv, port))
            for n in (1, 2):
                name = f"w{n}-{tag}"
                options = ["--pool=solo", "--loglevel=INFO", "-n", f"{name}@%h", "--without-gossip", "--without-mingle"]
                proc, log = background(f"worker{n}", [*celery, "worker", *options], ready=" ready.")
                cluster.workers.append(Worker(name, proc, log))
            schedule = f"--schedule={tmp_path / 'beat-schedule'}"
            # Ready once it has sent its first sweep: then it has reached the broker.
            background("beat", [*celery, "beat", "--loglevel=INFO", schedule], ready="Sending due task")
            for wait in waits:
                wait()
            yield cluster
            for proc in procs:
                tell_to_stop(proc)
    finally:
        print_log_tails(logs)
        client = redis.Redis.from_url(broker)
        for key in client.scan_iter(match=f"{prefix}*", count=1000):
            client.delete(key)
