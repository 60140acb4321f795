"""Benchmark: Hearts against the server run as in production, beside the bare baseline:
a DRF endpoint with no auth and no game (../shared/bench-bare from the repository, or
--bare-dir / $BENCH_BARE_DIR; see its README), the least a move can cost on this stack.

    make bench                      # the live mode, defaults below
    .venv/bin/python scripts/bench.py --rounds 3                # three rounds of bare, game, live
    .venv/bin/python scripts/bench.py --target live --tables 2 --seconds 5 --warmup 2
    .venv/bin/python scripts/bench.py --target live --tables 16,64,256      # how the cost grows
    .venv/bin/python scripts/bench.py --target live --tables 16,64,256 --pace 3   # a move per table every 3 s
    .venv/bin/python scripts/bench.py --target live --move-over both  # moves POSTed, then sent on the socket
    .venv/bin/python scripts/bench.py --mode idle --sockets 1000,5000   # idle sockets' memory in daphne
    .venv/bin/python scripts/bench.py --mode throughput --tables 16 --seconds 30 --rounds 3
    .venv/bin/python scripts/bench.py --mode steady --tables 200 --pace 2 --seconds 30
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
  table's version a player to act POSTs one of its legal actions (or with `--move-over
  socket` sends it on its room socket as an `action` frame, and takes the `result`); the
  move is done when all four have caught up with the new version, and only then may the
  table move again.

Each bare or game run prints accepted moves per second and the latency of both requests
(p50/p90/p99/max); a live run prints its moves per second, the time from each POST (or
action frame) being sent to the last of the four clients caught up (p50/p90/p99/max),
the latency of the POSTs (or of the frames' results) and of the clients' fetches, and
how the views and events reached the clients (pushed or fetched, counted: a run against
a server that pushes nothing says so), and, paced, the server's CPU a second.
Every run prints the client's own CPU (on a 2-core machine it shares the cores with
the server), the server's CPU per move, read from
/proc: gunicorn's master and workers and the PostgreSQL backends of the target's
database, and in a live run daphne and the Celery worker too, and the Redis server
apart, since other work on the machine may use it; and how busy the cores were with
anything else. The modes:

- live (the default): rounds of bare, game and live runs, in that order (`--rounds`), so
  that the machine's noise falls on all three; then a table of each round's game/bare
  ratios of moves/s and server CPU per move (the mover alone, as in throughput), and
  one of each live run's figures, with their medians; then the growth table: for each
  table count, the live runs' moves/s, server CPU per move and per process group, the
  server's CPU a second, the time to all four caught up, and the machine's load.
- throughput: rounds of bare and game runs, and their ratios.
- steady: the game only, at a steady offered load (every table makes one move every
  `--pace` seconds, default 2). `--mode all` runs live, then steady.
- idle: one daphne process holding `--sockets` idle room sockets, its memory per socket
  (scripts/bench_idle_sockets.py).

`--tables` takes one count or several (`16,64,256`): each count's rounds run in turn on
the same servers. `--pace S` has every table move once every S seconds (spread over the
tables) instead of as fast as it can, a live table still only once its four clients
have caught up: in live mode the bare and game runs too, at the same pace. `--move-over`
says how a live run's moves go: POSTed (http, the default), as action frames on the
mover's room socket (socket), or both, a run of each in every round (like `--push
both`). The live server runs with the socket rate limits (WS_SOCKET_*, WS_ACCOUNT_*)
raised out of reach: at full speed a client sends several action frames a second. The
client and the servers it starts may hold one open file per socket: the limit of open
files (RLIMIT_NOFILE) is raised as far as the hard limit allows.

Every run loads for `--warmup` seconds before its measured window. Set-up is automatic:
fresh databases (`gameserver_bench`, `gameserver_live`, also the idle mode's,
`bare_baseline`; dropped afterwards unless --keep), migrations, the baseline's seed
rows, gunicorn for each target on a free port on 127.0.0.1 with the same worker count
(and the live target's daphne and worker; their logs in var/bench/), stopped at the end.
Traffic goes only to 127.0.0.1 and every loop is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
from bench_idle_sockets import add_idle_options, idle_options, run_idle
from bench_live import GROUPS, REDIS_SHARED, Live, LiveResult, LiveServer, run_live
from bench_measure import Measured, Pacer, Window, counts, percentile, raise_open_files
from bench_targets import DEFAULT_BARE_DIR, Bare, Client, Game, Move, Server, Table, Target

# Open files the client and the servers it starts may want: a socket each, and some.
OPEN_FILES = 16384


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
    as fast as possible (`mode` throughput) or one move each every `interval` seconds
    (steady); `warmup` seconds of the same load come first (new connections, cold caches,
    fresh tables) and only what follows is counted."""
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
            pacer = Pacer(started + offset, interval)
            # Bounded by the clock too: an overloaded server must not stretch the run.
            while await pacer.wait(stop_at):
                move = await table.move()
                counting().record(move)

        if mode == "throughput":
            await asyncio.gather(*(fast(t) for t in group))
        else:
            await asyncio.gather(*(paced(t, interval * i / tables) for i, t in enumerate(group)))
            # The window is the whole time offered, the last moves' quiet end too.
            await asyncio.sleep(max(0.0, stop_at - time.perf_counter()))
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


def side_by_side(pairs: list[tuple[Result, Result]], tables: int, pace: float | None = None) -> None:
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

    how = f"steady, one move per table every {pace:g} s" if pace else "throughput"
    print(f"\n== side by side: {how}, {tables} tables, the same client, {len(pairs)} round(s) of bare then game ==")
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


def text(value: float | None, digits: int = 1) -> str:
    return "n/a" if value is None or value != value else f"{value:.{digits}f}"


def median(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None and v == v]
    return statistics.median(known) if known else None


def kinds(results: list[LiveResult]) -> list[str]:
    """The kinds of live run among `results` (LiveResult.kind), in the order they ran."""
    return list(dict.fromkeys(r.kind for r in results))


def live_rounds(results: list[LiveResult], tables: int) -> None:
    """Each live run's figures, then their medians, for each kind of run apart: views
    pushed or notices alone, moves POSTed or sent on the socket."""
    pace = results[0].pace if results else None
    how = f", one move per table every {pace:g} s" if pace else ""
    print(f"\n== live: {tables} tables of four socket clients{how}, {len(results)} run(s) ==")
    header = ["moves/s", "CPU ms/move", "+ Redis ms", "seen p50 ms", "seen p99 ms", "seen max ms", "views pushed"]
    print(f"{'run':>6}{'sockets':>13}" + "".join(f"{h:>14}" for h in header))
    for kind in kinds(results):
        runs = [(n, r) for n, r in enumerate(results, 1) if r.kind == kind]
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
            print(f"{label:>6}{kind:>13}" + "".join(f"{c:>14}" for c in cells))
        speed, cpu, redis, p50, p99, _, share = medians
        push, over = runs[0][1].push, runs[0][1].over
        what = (
            "notices alone, every view fetched"
            if not push
            else "no view pushed: every client fetched"
            if not share
            else f"{100 * share:.0f}% of the others' views pushed"
        ) + (", moves sent on the socket" if over == "socket" else "")
        sent = "POST" if over == "http" else "action frame"
        print(
            f"  live ({what}): {text(speed, 0)} moves/s, {text(cpu, 2)} ms server CPU/move (+ {text(redis, 2)} ms "
            f"of the shared Redis), all four clients caught up p50 {text(p50)} ms, p99 {text(p99)} ms after the {sent}"
            + (f" (medians of {len(rows)} runs)" if len(rows) > 1 else "")
        )


def growth(results: list[LiveResult]) -> None:
    """How the live runs' cost grows with the tables: for each kind of run and table count,
    the medians of its runs' moves/s, server CPU per move (and each process group's), the
    server's CPU a second, the time to all four caught up, and the machine's load."""
    pace = results[0].pace if results else None
    how = f"one move per table every {pace:g} s" if pace else "every table as fast as its clients catch up"
    print(f"\n== growth: live tables, {how} (medians of each count's runs) ==")
    print(
        "CPU in ms per move, `cores` in CPU seconds a second: the server's (the shared Redis apart), the "
        "machine's (every process), and what else ran (neither the server nor the client)"
    )
    header = ["tables", "moves/s", "CPU ms", *GROUPS, "+ Redis", "server cores", "p50 ms", "p99 ms", "max ms"]
    header += ["busy cores", "other cores"]
    widths = [7, 9, 8, 10, 8, 8, 10, 9, 13, 8, 8, 8, 11, 12]
    print(f"{'sockets':>13}" + "".join(f"{h:>{w}}" for h, w in zip(header, widths, strict=True)))
    for kind in kinds(results):
        ofkind = [r for r in results if r.kind == kind]
        for tables in dict.fromkeys(r.tables for r in ofkind):
            runs = [r for r in ofkind if r.tables == tables]

            def med(pick: Callable[[LiveResult], float | None], runs: list[LiveResult] = runs) -> float | None:
                return median([pick(r) for r in runs])

            cells = [str(tables), text(med(lambda r: r.moves_per_s)), text(med(lambda r: r.cpu_ms_per_move), 2)]
            cells += [text(med(lambda r, g=g: r.group_ms.get(g)), 2) for g in GROUPS]  # type: ignore[misc]
            cells.append(text(med(lambda r: r.group_ms.get(REDIS_SHARED)), 2))
            cells.append(text(med(lambda r: r.server_cores), 2))
            cells += [text(med(lambda r: r.seen_p50)), text(med(lambda r: r.seen_p99)), text(med(lambda r: r.seen_max))]
            cells += [text(med(lambda r: r.busy_cores), 2), text(med(lambda r: r.other_cores), 2)]
            print(f"{kind:>13}" + "".join(f"{c:>{w}}" for c, w in zip(cells, widths, strict=True)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--mode",
        choices=["live", "throughput", "steady", "all", "idle"],
        default="live",
        help="live (default): rounds of bare, game and live runs; throughput: rounds of bare and game; "
        "steady: the game at a steady load; all: live, then steady; idle: idle room sockets' memory in one daphne",
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
    parser.add_argument(
        "--move-over",
        choices=["http", "socket", "both"],
        default="http",
        help="live runs: http (default): the mover POSTs rooms/{code}/actions; socket: it sends an `action` frame "
        "on its room socket and takes the `result`; both: a run of each in every round",
    )
    parser.add_argument("--rounds", type=int, default=1, help="live and throughput modes: runs of each, alternated")
    parser.add_argument(
        "--tables",
        type=counts,
        help="tables, or several counts separated by commas (16,64,256), each run in turn on the same servers "
        "(default 16 for live and throughput, 200 for steady)",
    )
    parser.add_argument("--seconds", type=float, default=30, help="measured seconds of each run")
    parser.add_argument(
        "--pace",
        "--interval",
        dest="pace",
        type=float,
        metavar="SECONDS",
        help="every table moves once every SECONDS, spread over the tables, instead of as fast as it can: the "
        "live runs, and in live mode the bare and game runs too; steady mode's pace (default 2 there). "
        "--interval is the same option",
    )
    parser.add_argument("--warmup", type=float, default=10, help="seconds of load before measuring, in each run")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers, for each target")
    parser.add_argument("--database", default="gameserver_bench", help="the game's database")
    parser.add_argument("--live-database", default="gameserver_live", help="the live runs' (and idle mode's) database")
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
    add_idle_options(parser.add_argument_group("idle mode (scripts/bench_idle_sockets.py)"))
    args = parser.parse_args()
    if args.target == "bare" and args.mode == "steady":
        parser.error("steady mode measures the game only")
    if args.target == "live" and args.mode in ("throughput", "steady"):
        parser.error(f"--target live runs the live mode, not {args.mode}")
    if args.mode == "throughput" and args.pace:
        parser.error("throughput mode moves as fast as it can: --pace goes with the live and steady modes")
    if args.pace is not None and args.pace <= 0:
        parser.error("--pace must be more than 0 seconds")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    raise_open_files(OPEN_FILES)
    if args.mode == "idle":
        run_idle(idle_options(args, parser), args.live_database, args.keep)
        return

    modes = {"live": ["live"], "throughput": ["throughput"], "steady": ["steady"], "all": ["live", "steady"]}[args.mode]
    if args.target == "bare":
        modes = ["throughput"]  # the baseline has no steady or live run
    if args.target == "live":
        modes = ["live"]
    # The runs of a round, in order.
    compared = {"both": ["bare", "game"], "game": ["game"], "bare": ["bare"], "live": []}[args.target]
    pushes = {"on": [""], "off": ["-fetch"], "both": ["", "-fetch"]}[args.push]
    overs = {"http": [""], "socket": ["-socket"], "both": ["", "-socket"]}[args.move_over]
    live_runs = [f"live{push}{over}" for over in overs for push in pushes]
    rounds = {"throughput": compared, "live": [*compared, *live_runs], "steady": []}
    wanted = {name.split("-")[0] for mode in modes for name in rounds[mode]}
    wanted |= {"game"} if "steady" in modes else set()
    largest = max(args.tables or [16])
    targets: dict[str, Target] = {}
    if "bare" in wanted:
        targets["bare"] = Bare(args.bare_database, args.bare_dir.resolve(), max(args.bare_rows, largest))
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
            table_counts = args.tables or [200 if mode == "steady" else 16]
            if mode == "steady":
                game = servers["game"]
                assert isinstance(game, Server)
                for tables in table_counts:
                    pace = args.pace or 2.0
                    asyncio.run(run_load(game, mode, tables, args.seconds, pace, args.warmup))
                continue
            live: list[LiveResult] = []
            for tables in table_counts:
                results: dict[str, list[Result]] = {name: [] for name in compared}
                live_now: list[LiveResult] = []
                for _ in range(args.rounds):
                    for name in rounds[mode]:
                        server = servers[name.split("-")[0]]
                        if isinstance(server, LiveServer):
                            push, over = "-fetch" not in name, "socket" if "-socket" in name else "http"
                            run = run_live(server, tables, args.seconds, args.warmup, push, over, args.pace)
                            live_now.append(asyncio.run(run))
                        else:
                            how = "steady" if args.pace else "throughput"
                            run_one = run_load(server, how, tables, args.seconds, args.pace or 0, args.warmup)
                            results[name].append(asyncio.run(run_one))
                if len(compared) == 2:
                    side_by_side(list(zip(results["bare"], results["game"], strict=True)), tables, args.pace)
                if live_now:
                    live_rounds(live_now, tables)
                live += live_now
            if live:
                growth(live)
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
