"""Servers that tests start as processes of their own — daphne, gunicorn, `make run` —
and the test database's address for them."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def daphne_argv(port: int) -> list[str]:
    """daphne serving the ASGI application on `port`, as deploy/Procfile starts it."""
    return [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url() -> str:
    """The address of the database this test process uses (its xdist worker's)."""
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def server_env(database: str, **extra: str) -> dict[str, str]:
    """The environment of a server on the test database: test settings, computer players
    moving inside the request that made it their turn, no deadline tasks, and no kept
    connection for the flush after each test to wait on."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.test_settings",
        "DATABASE_URL": database,
        "BOT_DELAY_SECONDS": "0",
        "GAME_TASKS_ENABLED": "0",
        "DB_CONN_MAX_AGE": "0",
        **extra,
    }


def wait_until_serving(proc: subprocess.Popen[Any], url: str, what: str, log_name: str, seconds: float) -> None:
    """Wait until the server started as `proc` answers the API at `url`."""
    deadline = time.monotonic() + seconds
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}; see {log_name}")
        try:
            if httpx.get(url + "/api/v1/games/", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not answer within {seconds} s; see {log_name}")
        time.sleep(0.2)


@contextmanager
def running(argv: list[str], *, env: dict[str, str], log_path: Path) -> Iterator[subprocess.Popen[Any]]:
    """Run `argv` in a process group of its own, logging to `log_path`; stop it (and all it
    started) after."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "w") as log:
        proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        _running[proc.pid] = (proc, log_path)
        try:
            yield proc
        finally:
            del _running[proc.pid]
            # A server told to stop finishes what it is doing (run.sh waits for Celery);
            # whatever outlives it in its group is stopped after it.
            tell_to_stop(proc)
            try:
                proc.wait(40)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            _told_to_stop.discard(proc.pid)


_told_to_stop: set[int] = set()
# What `running` has started and not yet stopped, with its log: a failing test reports
# those that ended on their own (see died_servers), whose log is otherwise out of sight.
_running: dict[int, tuple[subprocess.Popen[Any], Path]] = {}


def died_servers(lines: int = 60) -> list[tuple[str, str]]:
    """(title, last lines of the log) of each process `running` started that has exited
    although nobody told it to stop."""
    died = []
    for pid, (proc, log_path) in list(_running.items()):
        if pid in _told_to_stop or proc.poll() is None:
            continue
        tail = "\n".join(log_path.read_text(errors="replace").splitlines()[-lines:])
        command = " ".join(map(str, proc.args)) if isinstance(proc.args, list) else str(proc.args)
        died.append((f"{command} exited with {proc.returncode}; {log_path} ends", tail))
    return died


def tell_to_stop(proc: subprocess.Popen[Any]) -> None:
    """Ask a process that `running` started to stop (SIGTERM, once), without waiting for
    it: several then stop side by side, and `running` waits for each."""
    if proc.pid in _told_to_stop or proc.poll() is not None:
        return
    _told_to_stop.add(proc.pid)
    proc.terminate()
    try:
        # A paused process (SIGSTOP) acts on the signal only once it runs again.
        os.killpg(proc.pid, signal.SIGCONT)
    except ProcessLookupError:
        pass


@contextmanager
def serving(
    what: str, argv: list[str], *, port: int, env: dict[str, str], log_path: Path, start_seconds: float = 30
) -> Iterator[str]:
    """Run `argv` (a server listening on `port`) as `running` does; yield its URL once it
    answers."""
    with running(argv, env=env, log_path=log_path) as proc:
        url = f"http://127.0.0.1:{port}"
        wait_until_serving(proc, url, what, str(log_path), seconds=start_seconds)
        yield url


# Only what a newcomer's shell has: none of the test suite's settings (PostgreSQL, Redis,
# test settings, throttles, bot delay) may leak into the `make run` server.
NEWCOMER_ENV = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "USER", "TZ")


@dataclass(frozen=True)
class MakeRun:
    url: str
    env: dict[str, str]  # the server's environment, for manage.py on the same database

    def shell(self, code: str) -> str:
        """`manage.py shell -c code` as run.sh runs manage.py (it exports DEBUG=1), on the
        same database; what it printed."""
        done = subprocess.run(
            [sys.executable, "manage.py", "shell", "--verbosity", "0", "-c", code],
            cwd=ROOT,
            env={**self.env, "DEBUG": "1"},
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout


@contextmanager
def make_run_serving(var: Path, log_path: Path) -> Iterator[MakeRun]:
    """The server exactly as `make run` starts it once the virtualenv exists
    (scripts/run.sh: SQLite, the filesystem broker, the in-memory channel layer, the
    default bot delay, migrations at start), on the fresh folder `var`. Its start is
    given minutes: it migrates a new database first, slowly on a busy machine."""
    port = free_port()
    env = {k: os.environ[k] for k in NEWCOMER_ENV if k in os.environ}
    env.update(VENV=sys.prefix, VAR_DIR=str(var), PORT=str(port))
    argv = ["bash", str(ROOT / "scripts" / "run.sh")]
    with serving("make run", argv, port=port, env=env, log_path=log_path, start_seconds=300) as url:
        yield MakeRun(url=url, env=env)
    assert "database is locked" not in log_path.read_text(), f"SQLite refused a writer; see {log_path}"
