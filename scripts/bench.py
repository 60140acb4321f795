"""Benchmark: tables of HTTP clients play against the server run as in production
(gunicorn sync workers on PostgreSQL), and beside it, in the same run and with the same
client, against the bare baseline: a DRF endpoint with no auth and no game
(../shared/bench-bare from the repository, or --bare-dir / $BENCH_BARE_DIR; see its
README), the least a move can cost on this stack.

    make bench                      # both modes, defaults below
    .venv/bin/python scripts/bench.py --mode throughput --tables 16 --seconds 30 --rounds 3
    .venv/bin/python scripts/bench.py --mode steady --tables 200 --interval 2 --seconds 30
    .venv/bin/python scripts/bench.py --target game      # the game alone, no baseline

A game move is what a client does: GET its view (`rooms/{code}/state`), pick one of
`you.legal_actions`, POST `rooms/{code}/actions` with the view's version; a bare move is
GET `state/<id>` then POST `move/<id>` with the version read (scripts/bench_targets.py).
Each run prints accepted moves per second, the latency of both requests (p50/p90/p99/max),
the client's own CPU (on a 2-core machine it shares the cores with the server) and the
server's CPU per move, read from /proc (gunicorn's workers + the PostgreSQL backends of
the target's database), and how busy the cores were with anything else. Two modes:

- throughput: as fast as possible. With both targets (the default) the runs alternate,
  bare, game, bare, game... (`--rounds`), so that the machine's noise falls on both, and
  a last table gives each round's game/bare ratios of moves/s and server CPU per move,
  and their medians.
- steady: the game only, at a steady offered load (every table makes one move every
  `--interval` seconds).

Every run loads for `--warmup` seconds before its measured window. Set-up is automatic:
fresh databases (`gameserver_bench`, `bare_baseline`; dropped afterwards unless --keep),
migrations, the baseline's seed rows, gunicorn for each target on a free port on
127.0.0.1 with the same worker count, stopped at the end. Traffic goes only to
127.0.0.1 and every loop is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import psycopg
from bench_targets import ADMIN_URL, DEFAULT_BARE_DIR, Bare, Client, Game, Move, Server, Table, Target


class ServerCPU:
    """CPU seconds used by the server's processes: gunicorn's workers and the PostgreSQL
    backends serving the benchmark database. Read from /proc, so it is Linux-only; on
    a machine shared with other work it still tells what one move costs the server
    (and `machine` tells how busy the cores were with everything else)."""

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

    @staticmethod
    def machine() -> float:
        """CPU seconds every core has been busy, all processes together (/proc/stat)."""
        ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
        idle = ticks[3] + ticks[4]  # idle, iowait
        return (sum(ticks) - idle) / os.sysconf("SC_CLK_TCK")

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

    def record(self, move: Move) -> None:
        self.get_ms.append(move.get_ms)
        if move.post_ms is not None:
            self.post_ms.append(move.post_ms)
        if move.outcome == "accepted":
            self.accepted += 1
        elif move.outcome == "stale":
            self.stale += 1
        elif move.outcome == "error":
            self.errors += 1

    def report(
        self,
        title: str,
        seconds: float,
        cpu: float,
        server_cpu: dict[str, tuple[float, float]] | None = None,
        machine_cpu: float | None = None,
    ) -> None:
        def pct(values: list[float], p: float) -> float:
            if not values:
                return float("nan")
            ordered = sorted(values)
            return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]

        print(f"\n== {title} ==")
        print(f"accepted moves: {self.accepted} in {seconds:.1f} s = {self.accepted / seconds:.1f} moves/s")
        print(f"stale_version 409s: {self.stale}   other errors: {self.errors}")
        for name, values in (("POST", self.post_ms), ("GET ", self.get_ms)):
            if values:
                print(
                    f"{name} latency ms: p50 {pct(values, 50):.1f}  p90 {pct(values, 90):.1f}  "
                    f"p99 {pct(values, 99):.1f}  max {max(values):.1f}  (mean {statistics.fmean(values):.1f}, "
                    f"n={len(values)})"
                )
        print(f"client CPU: {cpu:.1f} s ({100 * cpu / seconds:.0f}% of one core)")
        if server_cpu and self.accepted:
            cores = os.cpu_count() or 1
            requests = len(self.post_ms) + len(self.get_ms)
            total = sum(u + s for u, s in server_cpu.values())
            per = 1000 / self.accepted
            parts = ", ".join(
                f"{name} {per * (u + s):.2f} = user {per * u:.2f} + system {per * s:.2f}"
                for name, (u, s) in server_cpu.items()
            )
            print(f"server CPU per accepted move (its GET and POST): {per * total:.2f} ms ({parts})")
            print(
                f"  per request {1000 * total / requests:.2f} ms; at that cost {cores} cores "
                f"serve at most {cores * self.accepted / total:.0f} moves/s with nothing else running"
            )
            if machine_cpu is not None:
                # What else ran on the cores meanwhile: on a shared machine, why moves/s moved.
                other = max(0.0, machine_cpu - total - cpu)
                print(
                    f"machine: {machine_cpu / seconds:.2f} of {cores} cores busy (this server "
                    f"{total / seconds:.2f}, the client {cpu / seconds:.2f}, anything else {other / seconds:.2f})"
                )


@dataclass
class Result:
    """What the side-by-side table compares: one run's moves/s and server CPU per move."""

    target: str
    moves_per_s: float
    cpu_ms_per_move: float | None


async def run_load(server: Server, mode: str, tables: int, seconds: float, interval: float, warmup: float) -> Result:
    """The measurement loop, the same for every target: `tables` tables move on `server`,
    as fast as possible or one move each every `interval` seconds; `warmup` seconds of
    the same load come first (new connections, cold caches, fresh tables) and only what
    follows is counted."""
    target = server.target
    probe = ServerCPU(server.pid, target.database) if Path("/proc/self/stat").exists() else None
    connector = aiohttp.TCPConnector(limit=min(tables, 64))
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        group = await target.tables(Client(session, server.base), tables)
        warm, stats = Stats(), Stats()
        started = time.perf_counter()
        began = started + warmup
        stop_at = began + seconds
        cpu0 = None
        server0: dict[str, dict[int, tuple[float, float]]] = {}
        machine0 = 0.0

        def counting() -> Stats:
            nonlocal cpu0, server0, machine0
            if time.perf_counter() < began:
                return warm
            if cpu0 is None:
                cpu0 = resource.getrusage(resource.RUSAGE_SELF)
                server0 = probe.snapshot() if probe else {}
                machine0 = probe.machine() if probe else 0.0
            return stats

        async def fast(table: Table) -> None:
            while time.perf_counter() < stop_at:
                move = await table.move()
                counting().record(move)

        async def paced(table: Table, offset: float) -> None:
            next_at = started + offset
            # Bounded by the clock too: an overloaded server must not stretch the run.
            while next_at < stop_at and time.perf_counter() < stop_at:
                await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
                move = await table.move()
                counting().record(move)
                next_at += interval

        if mode == "throughput":
            await asyncio.gather(*(fast(t) for t in group))
        else:
            await asyncio.gather(*(paced(t, interval * i / tables) for i, t in enumerate(group)))
        elapsed = time.perf_counter() - began
        cpu1 = resource.getrusage(resource.RUSAGE_SELF)
        server_cpu = ServerCPU.used(server0, probe.snapshot()) if probe and server0 else None
        machine_cpu = probe.machine() - machine0 if probe and server0 else None
        cpu0 = cpu0 or cpu1
        cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
        title = (
            f"throughput: {tables} tables as fast as possible"
            if mode == "throughput"
            else f"steady: {tables} tables, one move each every {interval:g} s "
            f"(offered {tables / interval:.0f} moves/s)"
        ) + (f", after {warmup:g} s of warm-up" if warmup else "")
        stats.report(f"{target.name}, {title}", elapsed, cpu, server_cpu, machine_cpu)
    cpu_ms = (
        1000 * sum(u + s for u, s in server_cpu.values()) / stats.accepted if server_cpu and stats.accepted else None
    )
    return Result(target.name, stats.accepted / elapsed, cpu_ms)


def side_by_side(pairs: list[tuple[Result, Result]], tables: int) -> None:
    """Each round's bare and game runs with their game/bare ratios, then the medians of
    every column (a median ratio is the median of the rounds' ratios)."""

    def ratio(game: float | None, bare: float | None) -> float | None:
        return game / bare if game is not None and bare else None

    def median(values: list[float | None]) -> float | None:
        known = [v for v in values if v is not None]
        return statistics.median(known) if known else None

    def text(value: float | None, digits: int = 2) -> str:
        return "n/a" if value is None else f"{value:.{digits}f}"

    rows = [
        (
            bare.moves_per_s,
            game.moves_per_s,
            ratio(game.moves_per_s, bare.moves_per_s),
            bare.cpu_ms_per_move,
            game.cpu_ms_per_move,
            ratio(game.cpu_ms_per_move, bare.cpu_ms_per_move),
        )
        for bare, game in pairs
    ]
    medians = tuple(median(list(column)) for column in zip(*rows, strict=True))
    bare_speed, game_speed, speed_ratio, bare_cpu, game_cpu, cpu_ratio = medians

    print(
        f"\n== side by side: throughput, {tables} tables, the same client, {len(pairs)} round(s) of bare then game =="
    )
    header = ["bare moves/s", "game moves/s", "game/bare", "bare CPU ms/move", "game CPU ms/move", "game/bare"]
    print(f"{'round':>6}" + "".join(f"{h:>18}" for h in header))
    labelled = [(str(n), row) for n, row in enumerate(rows, 1)] + ([("median", medians)] if len(rows) > 1 else [])
    for label, row in labelled:
        cells = [text(v, 1) for v in row[:2]] + [text(v) for v in row[2:]]
        print(f"{label:>6}" + "".join(f"{c:>18}" for c in cells))
    print(
        f"bare: {text(bare_speed, 0)} moves/s, {text(bare_cpu)} ms server CPU/move; "
        f"game: {text(game_speed, 0)} moves/s, {text(game_cpu)} ms server CPU/move; "
        f"game/bare: {text(speed_ratio)} of moves/s, CPU ratio {text(cpu_ratio)}"
        + (f" (medians of {len(pairs)} rounds)" if len(pairs) > 1 else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", choices=["both", "throughput", "steady"], default="both")
    parser.add_argument(
        "--target", choices=["both", "game", "bare"], default="both", help="throughput mode: what is measured"
    )
    parser.add_argument("--rounds", type=int, default=1, help="throughput mode: runs of each target, alternated")
    parser.add_argument("--tables", type=int, help="tables (default 16 for throughput, 200 for steady)")
    parser.add_argument("--seconds", type=float, default=30, help="measured seconds of each run")
    parser.add_argument("--interval", type=float, default=2.0, help="steady mode: seconds between a table's moves")
    parser.add_argument("--warmup", type=float, default=10, help="seconds of load before measuring, in each run")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers, for each target")
    parser.add_argument("--database", default="gameserver_bench", help="the game's database")
    parser.add_argument(
        "--bare-database", default=os.environ.get("BARE_DB", "bare_baseline"), help="the baseline's database"
    )
    parser.add_argument(
        "--bare-dir",
        type=Path,
        default=Path(os.environ.get("BENCH_BARE_DIR", DEFAULT_BARE_DIR)),
        help="the bare baseline's directory (default $BENCH_BARE_DIR or ../shared/bench-bare from the repository)",
    )
    parser.add_argument("--bare-rows", type=int, default=1000, help="rounds seeded in the baseline's database")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark databases")
    args = parser.parse_args()
    if args.target == "bare" and args.mode == "steady":
        parser.error("steady mode measures the game only")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")

    modes = ["throughput", "steady"] if args.mode == "both" else [args.mode]
    if args.target == "bare":
        modes = ["throughput"]  # the baseline has no steady run
    compared = ["bare", "game"] if args.target == "both" else [args.target]  # throughput's order
    targets: dict[str, Target] = {}
    if "throughput" in modes and "bare" in compared:
        targets["bare"] = Bare(args.bare_database, args.bare_dir.resolve(), max(args.bare_rows, args.tables or 16))
    if "steady" in modes or "game" in compared:
        targets["game"] = Game(args.database)

    servers: dict[str, Server] = {}
    try:
        for name, target in targets.items():
            target.set_up()
            servers[name] = target.start(args.workers)
        for server in servers.values():
            server.wait_until_up()
        print(
            f"servers: gunicorn, {args.workers} sync workers each, PostgreSQL, on {os.cpu_count()} cores: "
            + ", ".join(f"{name} (database {target.database})" for name, target in targets.items())
        )
        for mode in modes:
            tables = args.tables or (16 if mode == "throughput" else 200)
            if mode == "steady":
                asyncio.run(run_load(servers["game"], mode, tables, args.seconds, args.interval, args.warmup))
                continue
            results = [
                asyncio.run(run_load(servers[name], mode, tables, args.seconds, args.interval, args.warmup))
                for _ in range(args.rounds)
                for name in compared
            ]
            if len(compared) == 2:
                side_by_side(list(zip(results[0::2], results[1::2], strict=True)), tables)
    finally:
        for server in servers.values():
            server.stop()
        if not args.keep:
            for target in targets.values():
                target.tear_down()


if __name__ == "__main__":
    main()
