"""What scripts/bench.py measures: a target is a server it starts and the move a table
makes on it. Both targets run under gunicorn the same way (sync workers on 127.0.0.1, a
free port), each on a fresh PostgreSQL database of its own, and are driven by the same
client (`Client`, over aiohttp).

- `Game`: this project as in production (PostgreSQL, Redis). A table is four guest
  players at a game of Hearts; a move GETs `rooms/{code}/state` as the player to act and
  POSTs one of its legal actions to `rooms/{code}/actions` with the view's version.
- `Bare`: the bare baseline (../shared/bench-bare from the repository, see its README):
  a DRF endpoint with no auth, no engine, no events. A table is one round row; a move
  GETs `state/<id>` and POSTs `move/<id>` with the version read.
"""

from __future__ import annotations

import asyncio
import os
import random
import socket
import subprocess
import sys
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import aiohttp
import httpx
import psycopg
from bench_measure import ServerCPU, available, backends, tree

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: the engines' package, for its legal actions

from games.rules import get as game_rules  # noqa: E402
from games.rules import templates  # noqa: E402

HEARTS = game_rules("hearts")
ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"
# The bare baseline sits beside the repository's checkout (../shared/bench-bare).
DEFAULT_BARE_DIR = ROOT.parent / "shared" / "bench-bare"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def recreate_database(name: str, template: str | None = None) -> str:
    """A new, empty database `name` (a copy of `template`, when given, which nobody may be
    connected to)."""
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    return f"postgres://postgres@127.0.0.1:5432/{name}"


def drop_database(name: str) -> None:
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Client:
    """The few calls a table makes, over aiohttp: a lighter client leaves more of the
    shared cores to the server than httpx's async client does."""

    def __init__(self, session: aiohttp.ClientSession, base: str) -> None:
        self.session = session
        self.base = base

    async def call(self, method: str, path: str, headers: dict[str, str], body: Any = None) -> tuple[int, Any]:
        async with self.session.request(method, self.base + path, json=body, headers=headers) as res:
            return res.status, await res.json(content_type=None)


@dataclass
class Move:
    """One move as the client saw it: its GET, its POST (none when the view offered no
    action) and how the POST ended."""

    get_ms: float
    post_ms: float | None
    outcome: Literal["accepted", "stale", "error", "none"]


class Table(ABC):
    @abstractmethod
    async def move(self) -> Move: ...


class Server:
    """gunicorn serving one target, stopped by `stop`."""

    def __init__(self, target: Target, workers: int) -> None:
        self.target = target
        self.workers = workers
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        self.process = self.launch(port)

    def launch(self, port: int) -> subprocess.Popen[bytes]:
        """Start gunicorn on `port`."""
        command = [sys.executable, "-m", "gunicorn", self.target.app, "-w", str(self.workers)]
        return subprocess.Popen(
            [*command, "-b", f"127.0.0.1:{port}", "--log-level", "warning"],
            cwd=self.target.cwd,
            env=self.target.env(),
        )

    def cpu(self) -> ServerCPU | None:
        """gunicorn's master and workers, and the PostgreSQL backends of its database."""
        if not available():
            return None
        return ServerCPU({"gunicorn": tree(self.process.pid), "postgres": backends(ADMIN_URL, self.target.database)})

    def wait_until_up(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.target.name}: gunicorn exited during start-up")
            try:
                if httpx.get(self.base + self.target.health_path, timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        raise RuntimeError(f"{self.target.name}: the server did not answer in time")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Target(ABC):
    name: str
    app: str  # gunicorn's WSGI application, importable from `cwd`
    health_path: str  # answers 200 once the server is up

    def __init__(self, database: str, cwd: Path) -> None:
        self.database = database
        self.cwd = cwd

    @abstractmethod
    def env(self) -> dict[str, str]: ...

    @abstractmethod
    def set_up(self) -> None:
        """A fresh database, migrated and filled with what the tables need."""

    @abstractmethod
    async def tables(self, client: Client, count: int) -> list[Table]:
        """`count` tables ready to move, each with its own round or game."""

    def start(self, workers: int) -> Server:
        return Server(self, workers)

    def tear_down(self) -> None:
        drop_database(self.database)

    def manage(self, *args: str) -> None:
        subprocess.run([sys.executable, "manage.py", *args], cwd=self.cwd, env=self.env(), check=True)


# -- the game ------------------------------------------------------------------------


def concrete(template: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action of the Hearts tables played here, with random picks."""
    return templates.concrete(template, HEARTS.action_fields[template["type"]], rng)


class GameTable(Table):
    def __init__(self, client: Client, tokens: list[str], rng: random.Random) -> None:
        self.client = client
        self.tokens = tokens
        self.rng = rng
        self.code = ""
        self.to_act: list[int] = []

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Token {self.tokens[seat]}"}

    async def open(self) -> None:
        _, room = await self.client.call(
            "POST", "/api/v1/rooms/", self.auth(0), {"game": "hearts", "options": {"target": 500}}
        )
        self.code = room["code"]
        for seat in (1, 2, 3):
            await self.client.call("POST", f"/api/v1/rooms/{self.code}/join", self.auth(seat), {})
        _, view = await self.client.call("POST", f"/api/v1/rooms/{self.code}/start", self.auth(0))
        self.to_act = view["to_act"]

    async def move(self) -> Move:
        if not self.to_act:
            await self.open()
        seat = self.rng.choice(self.to_act)
        t0 = time.perf_counter()
        _, view = await self.client.call("GET", f"/api/v1/rooms/{self.code}/state", self.auth(seat))
        get_ms = (time.perf_counter() - t0) * 1000
        # Not the claim, listed at every trick: a player claims once a hand at most, and
        # a refused claim (most of them here) is a search, not a move.
        legal = [a for a in view.get("you", {}).get("legal_actions") or [] if a.get("type") != "claim"]
        if not legal:
            self.to_act = view["to_act"] if view["status"] == "playing" else []
            return Move(get_ms, None, "none")
        body = {"version": view["version"], "action": concrete(self.rng.choice(legal), self.rng)}
        t0 = time.perf_counter()
        status, answer = await self.client.call("POST", f"/api/v1/rooms/{self.code}/actions", self.auth(seat), body)
        post_ms = (time.perf_counter() - t0) * 1000
        if status == 200:
            self.to_act = answer["to_act"] if answer["status"] == "playing" else []
            return Move(get_ms, post_ms, "accepted")
        if status == 409 and answer["errors"][0]["code"] == "stale_version":
            return Move(get_ms, post_ms, "stale")
        self.to_act = view["to_act"]
        return Move(get_ms, post_ms, "error")


class Game(Target):
    name = "game"
    app = "config.wsgi"
    health_path = "/api/v1/games/"

    def __init__(self, database: str) -> None:
        super().__init__(database, ROOT)
        self.runs = 0
        self.prefix = f"bench{os.getpid()}-{self.name}"

    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "0",
            "SECRET_KEY": "benchmark-only-secret-key-" + "b" * 40,
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_COOKIES": "0",
            "SECURE_HSTS_SECONDS": "0",
            "THROTTLE_USER": "100000000/min",
            "THROTTLE_ANON": "100000000/min",
            "THROTTLE_AUTH": "100000000/min",
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{self.database}",
            # Cache (throttling) and change notices on Redis, as in production; the
            # notices under a prefix of this run's own, which nobody else's sockets hear.
            "REDIS_URL": self.redis_url(),
            "CHANNELS_PREFIX": self.prefix,
            "DB_CONN_MAX_AGE": "600",
            # Computer-player timing and deadline tasks are not what is measured here.
            "GAME_TASKS_ENABLED": "0",
            "LOG_LEVEL": "WARNING",
        }

    @staticmethod
    def redis_url() -> str:
        return os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")

    def set_up(self) -> None:
        recreate_database(self.database)
        self.manage("migrate", "--noinput", "-v0")

    async def tables(self, client: Client, count: int) -> list[Table]:
        self.runs += 1
        tokens = await register_players(client, 4 * count, f"{self.runs}-{int(time.time())}")
        rng = random.Random(7)
        group = [GameTable(client, tokens[4 * i : 4 * i + 4], random.Random(rng.random())) for i in range(count)]
        for start in range(0, count, 20):
            await asyncio.gather(*(t.open() for t in group[start : start + 20]))
        return [*group]


async def register_players(client: Client, count: int, tag: str) -> list[str]:
    async def one(i: int) -> str:
        # Guests: no password hashing, which would dominate the set-up of hundreds of players.
        status, answer = await client.call("POST", "/api/v1/auth/guest", {}, {"display_name": f"bench {tag} {i}"})
        if status != 201:
            raise RuntimeError(f"guest sign-up failed: {status} {answer}")
        return str(answer["token"])

    tokens: list[str] = []
    for start in range(0, count, 50):
        tokens += await asyncio.gather(*(one(i) for i in range(start, min(count, start + 50))))
    return tokens


# -- the bare baseline ---------------------------------------------------------------


class BareTable(Table):
    def __init__(self, client: Client, round_id: int) -> None:
        self.client = client
        self.round_id = round_id

    async def move(self) -> Move:
        t0 = time.perf_counter()
        _, view = await self.client.call("GET", f"/state/{self.round_id}", {})
        get_ms = (time.perf_counter() - t0) * 1000
        body = {"type": "play", "card": "QS", "version": view["version"]}
        t0 = time.perf_counter()
        status, _ = await self.client.call("POST", f"/move/{self.round_id}", {}, body)
        post_ms = (time.perf_counter() - t0) * 1000
        return Move(get_ms, post_ms, "accepted" if status == 200 else "error")


class Bare(Target):
    name = "bare"
    app = "bare.wsgi:application"
    health_path = "/state/1"

    def __init__(self, database: str, directory: Path, rows: int) -> None:
        super().__init__(database, directory)
        self.rows = rows
        missing = [p for p in ("manage.py", "seed.py", "bare/wsgi.py") if not (directory / p).is_file()]
        if missing:
            raise SystemExit(
                f"bench: the bare baseline is not at {directory} (no {', '.join(missing)}); "
                "pass --bare-dir or set BENCH_BARE_DIR, or measure the game alone with --target game"
            )

    def env(self) -> dict[str, str]:
        # bare/settings.py connects as postgres to 127.0.0.1:5432, database $BARE_DB.
        return {**os.environ, "DJANGO_SETTINGS_MODULE": "bare.settings", "BARE_DB": self.database}

    def set_up(self) -> None:
        recreate_database(self.database)
        self.manage("migrate", "--noinput", "-v0")
        subprocess.run(
            [sys.executable, "seed.py", str(self.rows)],
            cwd=self.cwd,
            env=self.env(),
            check=True,
            stdout=subprocess.DEVNULL,
        )

    async def tables(self, client: Client, count: int) -> list[Table]:
        async with await psycopg.AsyncConnection.connect(
            f"postgres://postgres@127.0.0.1:5432/{self.database}", autocommit=True
        ) as conn:
            cur = await conn.execute("SELECT id FROM bare_round ORDER BY id LIMIT %s", [count])
            ids = [row[0] for row in await cur.fetchall()]
        if len(ids) < count:
            raise SystemExit(f"bench: {count} tables need {count} bare rounds, the database has {len(ids)}")
        return [BareTable(client, i) for i in ids]
