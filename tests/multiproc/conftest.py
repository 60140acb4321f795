"""Two of each process, as a deployment runs them (docs/operations/deployment.md): two gunicorn, two
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
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis
from django.conf import settings

from tests.servers import ROOT, daphne_argv, free_port, running, tell_to_stop, wait_until_serving

from .processes import (
    BEAT_READY,
    WORKER_READY,
    beat_argv,
    cluster_env,
    gunicorn_argv,
    own_database,
    print_log_tails,
    wait_for_line,
    worker_argv,
)

LOGS = ROOT / "var" / "test-logs"
START_SECONDS = 60


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
    # The environment every process shares: a command run with it acts on the deployment.
    env: dict[str, str]


def postgres_server() -> str:
    """The test run's PostgreSQL server, postgres://user@host:port."""
    db = settings.DATABASES["default"]
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    broker = settings.CELERY_BROKER_URL
    assert broker.startswith("redis://"), "several processes need the Redis broker and channel layer"
    tag = os.environ.get("PYTEST_XDIST_WORKER", "main")
    prefix = f"multiproc-{tag}-{os.getpid()}"
    # Named after the run's database, as pytest-django names its test databases.
    base = urlsplit(os.environ["DATABASE_URL"]).path.strip("/")
    logs: dict[str, Path] = {}
    waits: list[Callable[[], None]] = []
    procs: list[subprocess.Popen[Any]] = []
    cluster = Cluster(web=[], sockets=[], workers=[], logs=logs, env={})
    try:
        with ExitStack() as stack:
            database = stack.enter_context(own_database(postgres_server(), f"test_{base}_deploy_{tag}"))
            # The machine's processes share one folder of figures, as deployed
            # (docs/operations/metrics.md): any web or socket process shows all of them.
            metrics = tmp_path / "metrics"
            metrics.mkdir()
            env = cluster_env(database, broker, prefix, PROMETHEUS_MULTIPROC_DIR=str(metrics))
            cluster.env.update(env)

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
                cluster.web.append(web_server(f"gunicorn{n}", gunicorn_argv(port), port))
            for n in (1, 2):
                port = free_port()
                cluster.sockets.append(web_server(f"daphne{n}", daphne_argv(port), port))
            for n in (1, 2):
                name = f"w{n}-{tag}"
                proc, log = background(f"worker{n}", worker_argv(name), ready=WORKER_READY)
                cluster.workers.append(Worker(name, proc, log))
            background("beat", beat_argv(tmp_path / "beat-schedule"), ready=BEAT_READY)
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
