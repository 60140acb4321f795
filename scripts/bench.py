"""Benchmark: Hearts against the server run as in production, beside the bare baseline:
a DRF endpoint with no auth and no game (../shared/bench-bare from the repository, or
--bare-dir / $BENCH_BARE_DIR; see its README), the least a move can cost on this stack.

    make bench                      # the live mode, defaults below
    .venv/bin/python scripts/bench.py --rounds 3                # three rounds of bare, game, live
    .venv/bin/python scripts/bench.py --target live --tables 2 --seconds 5 --warmup 2
    .venv/bin/python scripts/bench.py --mode throughput --tables 16 --seconds 30 --rounds 3
    .venv/bin/python scripts/bench.py --mode steady --tables 200 --interval 2 --seconds 30
    .venv/bin/python scripts/bench.py --target game      # no baseline

Three kinds of run, all driven by the same client over aiohttp:

- bare: a move is GET `state/<id>` then POST `move/<id>` with the version read.
- game: the mover alone, on gunicorn's sync workers and PostgreSQL: GET its view
  (`rooms/{code}/state`), pick one of `you.legal_actions`, POST `rooms/{code}/actions`
  with the view's version (scripts/bench_targets.py).
- live: a live table (scripts/bench_live.py). The deployment's processes, gunicorn,
  daphne and a Celery worker on PostgreSQL and Redis (the channel layer), serve tables
  of four socket clients, one per seat, each its own account on `ws/rooms/{code}/`, in
  rooms whose week-long clocks let no timeout or computer player in. A client takes a
  pushed `view` as it comes and fetches (`GET state`, `GET events?after=`) what a
  `changed` announced that no view brought. Once all four have caught up with the
  table's version a player to act POSTs one of its legal actions; the move is done when
  all four have caught up with the new version, and only then may the table move again.

Each bare or game run prints accepted moves per second and the latency of both requests
(p50/p90/p99/max); a live run prints its moves per second, the time from each POST being
sent to the last of the four clients caught up (p50/p90/p99/max), the latency of the
POSTs and of the clients' fetches, and how the views and events reached the clients
(pushed or fetched, counted: a run against a server that pushes nothing says so).
Every run prints the client's own CPU (on a 2-core machine it shares the cores with
the server), the server's CPU per move, read from
/proc: gunicorn's master and workers and the PostgreSQL backends of the target's
database, and in a live run daphne and the Celery worker too, and the Redis server
apart, since other work on the machine may use it; and how busy the cores were with
anything else. Three modes:

- live (the default): rounds of bare, game and live runs, in that order (`--rounds`), so
  that the machine's noise falls on all three; then a table of each round's game/bare
  ratios of moves/s and server CPU per move (the mover alone, as in throughput), and
  one of each live run's figures, with their medians.
- throughput: rounds of bare and game runs, and their ratios.
- steady: the game only, at a steady offered load (every table makes one move every
  `--interval` seconds). `--mode all` runs live, then steady.

Every run loads for `--warmup` seconds before its measured window. Set-up is automatic:
fresh databases (`gameserver_bench`, `gameserver_live`, `bare_baseline`; dropped
afterwards unless --keep), migrations, the baseline's seed rows, gunicorn for each
target on a free port on 127.0.0.1 with the same worker count (and the live target's
daphne and worker; their logs in var/bench/), stopped at the end. Traffic goes only to
127.0.0.1 and every loop is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
from bench_live import Live, LiveResult, LiveServer, run_live
from bench_measure import Measured, Window, percentile
from bench_targets import DEFAULT_BARE_DIR, Bare, Client, Game, Move, Server, Table, Target


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

    def report(self, title: str, measured: Measured) -> None:
        print(f"\n== {title} ==")
        seconds = measured.seconds
        print(f"accepted moves: {self.accepted} in {seconds:.1f} s = {self.accepted / seconds:.1f} moves/s")
        print(f"stale_version 409s: {self.stale}   other errors: {self.errors}")
        for name, values in (("POST", self.post_ms), ("GET ", self.get_ms)):
            if values:
                print(
                    f"{name} latency ms: p50 {percentile(values, 50):.1f}  p90 {percentile(values, 90):.1f}  "
                    f"p99 {percentile(values, 99):.1f}  max {max(values):.1f}  "
                    f"(mean {statistics.fmean(values):.1f}, n={len(values)})"
                )
        measured.report(self.accepted, "its GET and POST", len(self.post_ms) + len(self.get_ms))


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
    connector = aiohttp.TCPConnector(limit=min(tables, 64))
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        group = await target.tables(Client(session, server.base), tables)
        warm, stats = Stats(), Stats()
        window = Window(server.cpu())
        started = time.perf_counter()
        began = started + warmup
        stop_at = began + seconds
        opening = asyncio.create_task(window.open_at(began))

        def counting() -> Stats:
            if time.perf_counter() < began:
                return warm
            window.open()
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
        opening.cancel()
        measured = window.close()
    title = (
        f"throughput: {tables} tables as fast as possible"
        if mode == "throughput"
        else f"steady: {tables} tables, one move each every {interval:g} s (offered {tables / interval:.0f} moves/s)"
    ) + (f", after {warmup:g} s of warm-up" if warmup else "")
    stats.report(f"{target.name}, {title}", measured)
    total = measured.server_total()
    cpu_ms = 1000 * total / stats.accepted if total is not None and stats.accepted else None
    return Result(target.name, stats.accepted / measured.seconds, cpu_ms)


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


def live_rounds(results: list[LiveResult], tables: int) -> None:
    """Each live run's figures, then their medians, for the runs with views pushed and
    those with notices alone apart."""

    def text(value: float | None, digits: int = 1) -> str:
        return "n/a" if value is None or value != value else f"{value:.{digits}f}"

    def median(values: list[float | None]) -> float | None:
        known = [v for v in values if v is not None and v == v]
        return statistics.median(known) if known else None

    print(f"\n== live: {tables} tables of four socket clients, {len(results)} run(s) ==")
    header = ["moves/s", "CPU ms/move", "+ Redis ms", "seen p50 ms", "seen p99 ms", "seen max ms", "views pushed"]
    print(f"{'run':>6}{'sockets':>10}" + "".join(f"{h:>14}" for h in header))
    for push in (True, False):
        runs = [(n, r) for n, r in enumerate(results, 1) if r.push == push]
        if not runs:
            continue
        kind = "views" if push else "?views=0"
        rows = [
            (r.moves_per_s, r.cpu_ms_per_move, r.redis_ms_per_move, r.seen_p50, r.seen_p99, r.seen_max, r.pushed_share)
            for _, r in runs
        ]
        medians = tuple(median(list(column)) for column in zip(*rows, strict=True))
        labelled = [(str(n), row) for (n, _), row in zip(runs, rows, strict=True)]
        for label, row in labelled + ([("median", medians)] if len(rows) > 1 else []):
            share = row[6]
            cells = [text(row[0]), text(row[1], 2), text(row[2], 2), *(text(v) for v in row[3:6])]
            cells.append("n/a" if share is None else f"{100 * share:.0f}%")
            print(f"{label:>6}{kind:>10}" + "".join(f"{c:>14}" for c in cells))
        speed, cpu, redis, p50, p99, _, share = medians
        how = (
            "notices alone, every view fetched"
            if not push
            else "no view pushed: every client fetched"
            if not share
            else f"{100 * share:.0f}% of the others' views pushed"
        )
        print(
            f"  live ({how}): {text(speed, 0)} moves/s, {text(cpu, 2)} ms server CPU/move (+ {text(redis, 2)} ms "
            f"of the shared Redis), all four clients caught up p50 {text(p50)} ms, p99 {text(p99)} ms after the POST"
            + (f" (medians of {len(rows)} runs)" if len(rows) > 1 else "")
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--mode",
        choices=["live", "throughput", "steady", "all"],
        default="live",
        help="live (default): rounds of bare, game and live runs; throughput: rounds of bare and game; "
        "steady: the game at a steady load; all: live, then steady",
    )
    parser.add_argument(
        "--target",
        choices=["both", "game", "bare", "live"],
        default="both",
        help="both (default): the game beside the bare baseline; game: without the baseline; "
        "bare: the baseline alone (throughput); live: the live runs alone",
    )
    parser.add_argument(
        "--push",
        choices=["on", "off", "both"],
        default="on",
        help="live runs: on (default): the sockets take the pushed views; off: notices alone (?views=0), every "
        "view fetched; both: a run of each in every round",
    )
    parser.add_argument("--rounds", type=int, default=1, help="live and throughput modes: runs of each, alternated")
    parser.add_argument("--tables", type=int, help="tables (default 16 for live and throughput, 200 for steady)")
    parser.add_argument("--seconds", type=float, default=30, help="measured seconds of each run")
    parser.add_argument("--interval", type=float, default=2.0, help="steady mode: seconds between a table's moves")
    parser.add_argument("--warmup", type=float, default=10, help="seconds of load before measuring, in each run")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers, for each target")
    parser.add_argument("--database", default="gameserver_bench", help="the game's database")
    parser.add_argument("--live-database", default="gameserver_live", help="the live runs' database")
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
    if args.target == "live" and args.mode in ("throughput", "steady"):
        parser.error(f"--target live runs the live mode, not {args.mode}")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")

    modes = {"live": ["live"], "throughput": ["throughput"], "steady": ["steady"], "all": ["live", "steady"]}[args.mode]
    if args.target == "bare":
        modes = ["throughput"]  # the baseline has no steady or live run
    if args.target == "live":
        modes = ["live"]
    # The runs of a round, in order.
    compared = {"both": ["bare", "game"], "game": ["game"], "bare": ["bare"], "live": []}[args.target]
    live_runs = {"on": ["live"], "off": ["live-fetch"], "both": ["live", "live-fetch"]}[args.push]
    rounds = {"throughput": compared, "live": [*compared, *live_runs], "steady": []}
    wanted = {name.removesuffix("-fetch") for mode in modes for name in rounds[mode]}
    wanted |= {"game"} if "steady" in modes else set()
    targets: dict[str, Target] = {}
    if "bare" in wanted:
        targets["bare"] = Bare(args.bare_database, args.bare_dir.resolve(), max(args.bare_rows, args.tables or 16))
    if "game" in wanted:
        targets["game"] = Game(args.database)
    if "live" in wanted:
        # A copy of the game's database once migrated, when there is one.
        targets["live"] = Live(args.live_database, template=args.database if "game" in targets else None)

    servers: dict[str, Server | LiveServer] = {}
    try:
        for target in targets.values():
            target.set_up()
        for name, target in targets.items():
            servers[name] = target.start(args.workers)
        for server in servers.values():
            server.wait_until_up()
        print(
            f"servers on {os.cpu_count()} cores, each on a fresh PostgreSQL database: "
            + "; ".join(describe(name, target, args.workers) for name, target in targets.items())
        )
        for mode in modes:
            tables = args.tables or (200 if mode == "steady" else 16)
            if mode == "steady":
                game = servers["game"]
                assert isinstance(game, Server)
                asyncio.run(run_load(game, mode, tables, args.seconds, args.interval, args.warmup))
                continue
            results: dict[str, list[Result]] = {name: [] for name in compared}
            live: list[LiveResult] = []
            for _ in range(args.rounds):
                for name in rounds[mode]:
                    server = servers[name.removesuffix("-fetch")]
                    if isinstance(server, LiveServer):
                        push = not name.endswith("-fetch")
                        live.append(asyncio.run(run_live(server, tables, args.seconds, args.warmup, push)))
                    else:
                        results[name].append(
                            asyncio.run(run_load(server, "throughput", tables, args.seconds, 0, args.warmup))
                        )
            if len(compared) == 2:
                side_by_side(list(zip(results["bare"], results["game"], strict=True)), tables)
            if live:
                live_rounds(live, tables)
    finally:
        for server in servers.values():
            server.stop()
        if not args.keep:
            for target in targets.values():
                target.tear_down()


def describe(name: str, target: Target, workers: int) -> str:
    if isinstance(target, Live):
        what = f"gunicorn ({workers} sync workers), daphne, a Celery worker, Redis"
    else:
        what = f"gunicorn ({workers} sync workers)"
    return f"{name}: {what}, database {target.database}"


if __name__ == "__main__":
    main()
