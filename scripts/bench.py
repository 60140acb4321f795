"""Benchmark: tables of computer players, acting as HTTP clients, play Hearts against
the server run as in production (gunicorn sync workers on PostgreSQL).

    make bench                      # both modes, defaults below
    .venv/bin/python scripts/bench.py --mode throughput --tables 16 --seconds 30
    .venv/bin/python scripts/bench.py --mode steady --tables 200 --interval 2 --seconds 30

Each move is what a client does: GET its view (`rooms/{code}/state`), pick one of
`you.legal_actions`, POST `rooms/{code}/actions` with the view's version. It prints
accepted actions per second and the latency of the actions endpoint (p50/p90/p99/max),
for two modes: as fast as possible ("throughput") and at a steady offered load
("steady": every table makes one move every `--interval` seconds). The client's own CPU
time is printed too: on a 2-core machine it shares the cores with the server.

Set-up is automatic: a fresh database (`gameserver_bench`, dropped afterwards unless
--keep), migrations, gunicorn on a free port on 127.0.0.1, stopped at the end. Traffic
goes only to 127.0.0.1 and every loop is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent
ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def recreate_database(name: str) -> str:
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"postgres://postgres@127.0.0.1:5432/{name}"


def drop_database(name: str) -> None:
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def server_env(database_url: str) -> dict[str, str]:
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
        "DATABASE_URL": database_url,
        # Cache (throttling) and change notices on Redis, as in production.
        "REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13"),
        "DB_CONN_MAX_AGE": "600",
        # Computer-player timing and deadline tasks are not what is measured here.
        "GAME_TASKS_ENABLED": "0",
        "LOG_LEVEL": "WARNING",
    }


class ServerCPU:
    """CPU seconds used by the server's processes: gunicorn's workers and the PostgreSQL
    backends serving the benchmark database. Read from /proc, so it is Linux-only; on
    a machine shared with other work it still tells what one move costs the server."""

    def __init__(self, master_pid: int, database: str) -> None:
        self.master_pid = master_pid
        self.database = database

    @staticmethod
    def _cpu(pid: int) -> tuple[float, float]:
        """User and system CPU seconds of a process."""
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0, 0.0
        tick = os.sysconf("SC_CLK_TCK")
        return int(fields[11]) / tick, int(fields[12]) / tick

    def _workers(self) -> list[int]:
        pids = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == self.master_pid:
                    pids.append(int(stat.parent.name))
            except (OSError, ValueError, IndexError):
                continue
        return pids

    def _backends(self) -> list[int]:
        with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
            rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.database]).fetchall()
        return [pid for (pid,) in rows]

    def snapshot(self) -> dict[str, dict[int, tuple[float, float]]]:
        return {
            "gunicorn": {pid: self._cpu(pid) for pid in [self.master_pid, *self._workers()]},
            "postgres": {pid: self._cpu(pid) for pid in self._backends()},
        }

    @staticmethod
    def used(
        before: dict[str, dict[int, tuple[float, float]]], after: dict[str, dict[int, tuple[float, float]]]
    ) -> dict[str, tuple[float, float]]:
        """CPU seconds (user, system) each group used between two snapshots."""
        used = {}
        for group, pids in after.items():
            user = sum(u - before[group].get(pid, (0.0, 0.0))[0] for pid, (u, _) in pids.items())
            system = sum(s - before[group].get(pid, (0.0, 0.0))[1] for pid, (_, s) in pids.items())
            used[group] = (user, system)
        return used


@dataclass
class Stats:
    post_ms: list[float] = field(default_factory=list)
    get_ms: list[float] = field(default_factory=list)
    accepted: int = 0
    stale: int = 0
    errors: int = 0

    def report(
        self, title: str, seconds: float, cpu: float, server_cpu: dict[str, tuple[float, float]] | None = None
    ) -> None:
        def pct(values: list[float], p: float) -> float:
            if not values:
                return float("nan")
            ordered = sorted(values)
            return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]

        print(f"\n== {title} ==")
        print(f"accepted actions: {self.accepted} in {seconds:.1f} s = {self.accepted / seconds:.1f} actions/s")
        print(f"stale_version 409s: {self.stale}   other errors: {self.errors}")
        for name, values in (("POST actions", self.post_ms), ("GET state   ", self.get_ms)):
            if values:
                print(
                    f"{name} latency ms: p50 {pct(values, 50):.1f}  p90 {pct(values, 90):.1f}  "
                    f"p99 {pct(values, 99):.1f}  max {max(values):.1f}  (mean {statistics.fmean(values):.1f}, "
                    f"n={len(values)})"
                )
        print(f"client CPU: {cpu:.1f} s ({100 * cpu / seconds:.0f}% of one core)")
        if server_cpu and self.accepted:
            requests = len(self.post_ms) + len(self.get_ms)
            total = sum(u + s for u, s in server_cpu.values())
            per = 1000 / self.accepted
            parts = ", ".join(
                f"{name} {per * (u + s):.2f} = user {per * u:.2f} + system {per * s:.2f}"
                for name, (u, s) in server_cpu.items()
            )
            print(f"server CPU per accepted move (its GET and POST): {per * total:.2f} ms ({parts})")
            print(
                f"  per request {1000 * total / requests:.2f} ms; at that cost {os.cpu_count()} cores "
                f"serve at most {os.cpu_count() * self.accepted / total:.0f} moves/s with nothing else running"
            )


def concrete(template: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if template["type"] == "pass_cards" and "choices" in template:
        picked = rng.sample(template["choices"], template["count"])
        if "to" in template:
            return {"type": "pass_cards", "to": {str(s): c for s, c in zip(template["to"], picked, strict=True)}}
        return {"type": "pass_cards", "cards": picked}
    return {k: v for k, v in template.items() if k not in ("count", "choices")}


class Client:
    """The few calls a table makes, over aiohttp: a lighter client leaves more of the
    shared cores to the server than httpx's async client does."""

    def __init__(self, session: aiohttp.ClientSession, base: str) -> None:
        self.session = session
        self.base = base

    async def call(self, method: str, path: str, headers: dict[str, str], body: Any = None) -> tuple[int, Any]:
        async with self.session.request(method, self.base + path, json=body, headers=headers) as res:
            return res.status, await res.json(content_type=None)


class Table:
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

    async def move(self, stats: Stats) -> None:
        if not self.to_act:
            await self.open()
        seat = self.rng.choice(self.to_act)
        t0 = time.perf_counter()
        _, view = await self.client.call("GET", f"/api/v1/rooms/{self.code}/state", self.auth(seat))
        stats.get_ms.append((time.perf_counter() - t0) * 1000)
        legal = view.get("you", {}).get("legal_actions") or []
        if not legal:
            self.to_act = view["to_act"] if view["status"] == "playing" else []
            return
        body = {"version": view["version"], "action": concrete(self.rng.choice(legal), self.rng)}
        t0 = time.perf_counter()
        status, answer = await self.client.call("POST", f"/api/v1/rooms/{self.code}/actions", self.auth(seat), body)
        stats.post_ms.append((time.perf_counter() - t0) * 1000)
        if status == 200:
            stats.accepted += 1
            self.to_act = answer["to_act"] if answer["status"] == "playing" else []
        elif status == 409 and answer["errors"][0]["code"] == "stale_version":
            stats.stale += 1
        else:
            stats.errors += 1
            self.to_act = view["to_act"]


async def register_players(client: Client, count: int, tag: str) -> list[str]:
    async def one(i: int) -> str:
        # Guests: no password hashing, which would dominate the set-up of hundreds of players.
        status, answer = await client.call("POST", "/api/v1/auth/guest", {}, {"display_name": f"bench {tag} {i}"})
        if status != 201:
            raise RuntimeError(f"guest sign-up failed: {status} {answer}")
        return answer["token"]

    tokens: list[str] = []
    for start in range(0, count, 50):
        tokens += await asyncio.gather(*(one(i) for i in range(start, min(count, start + 50))))
    return tokens


async def run_mode(
    base: str, mode: str, tables: int, seconds: float, interval: float, warmup: float, probe: ServerCPU | None
) -> None:
    connector = aiohttp.TCPConnector(limit=min(tables, 64))
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        client = Client(session, base)
        tokens = await register_players(client, 4 * tables, f"{mode[0]}{int(time.time())}")
        rng = random.Random(7)
        group = [Table(client, tokens[4 * i : 4 * i + 4], random.Random(rng.random())) for i in range(tables)]
        for start in range(0, tables, 20):
            await asyncio.gather(*(t.open() for t in group[start : start + 20]))
        # The same load runs for `warmup` seconds first (new connections, cold caches,
        # fresh tables) and only what follows is counted.
        warm, stats = Stats(), Stats()
        started = time.perf_counter()
        began = started + warmup
        stop_at = began + seconds
        cpu0 = None
        server0: dict[str, dict[int, tuple[float, float]]] = {}

        def counting() -> Stats:
            nonlocal cpu0, server0
            if time.perf_counter() < began:
                return warm
            if cpu0 is None:
                cpu0 = resource.getrusage(resource.RUSAGE_SELF)
                server0 = probe.snapshot() if probe else {}
            return stats

        async def fast(table: Table) -> None:
            while time.perf_counter() < stop_at:
                await table.move(counting())

        async def paced(table: Table, offset: float) -> None:
            next_at = started + offset
            # Bounded by the clock too: an overloaded server must not stretch the run.
            while next_at < stop_at and time.perf_counter() < stop_at:
                await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
                await table.move(counting())
                next_at += interval

        if mode == "throughput":
            await asyncio.gather(*(fast(t) for t in group))
        else:
            await asyncio.gather(*(paced(t, interval * i / tables) for i, t in enumerate(group)))
        elapsed = time.perf_counter() - began
        cpu1 = resource.getrusage(resource.RUSAGE_SELF)
        server_cpu = ServerCPU.used(server0, probe.snapshot()) if probe and server0 else None
        cpu0 = cpu0 or cpu1
        cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
        title = (
            f"throughput: {tables} tables as fast as possible"
            if mode == "throughput"
            else f"steady: {tables} tables, one move each every {interval:g} s "
            f"(offered {tables / interval:.0f} moves/s)"
        ) + (f", after {warmup:g} s of warm-up" if warmup else "")
        stats.report(title, elapsed, cpu, server_cpu)


def wait_until_up(base: str, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("gunicorn exited during start-up")
        try:
            if httpx.get(base + "/api/v1/games/", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise RuntimeError("the server did not answer in time")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", choices=["both", "throughput", "steady"], default="both")
    parser.add_argument("--tables", type=int, help="tables (default 16 for throughput, 200 for steady)")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--interval", type=float, default=2.0, help="steady mode: seconds between a table's moves")
    parser.add_argument("--warmup", type=float, default=10, help="seconds of load before measuring")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
    parser.add_argument("--database", default="gameserver_bench")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    args = parser.parse_args()

    database_url = recreate_database(args.database)
    env = server_env(database_url)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "-w",
            str(args.workers),
            "-b",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        wait_until_up(base, server)
        print(f"server: gunicorn, {args.workers} sync workers, PostgreSQL, on {os.cpu_count()} cores")
        modes = ["throughput", "steady"] if args.mode == "both" else [args.mode]
        for mode in modes:
            tables = args.tables or (16 if mode == "throughput" else 200)
            probe = ServerCPU(server.pid, args.database) if Path("/proc/self/stat").exists() else None
            asyncio.run(run_mode(base, mode, tables, args.seconds, args.interval, args.warmup, probe))
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
        if not args.keep:
            drop_database(args.database)


if __name__ == "__main__":
    main()
