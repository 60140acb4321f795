"""Soak: the multi-process deployment plays for a few minutes with people on short
clocks while its processes are killed and restarted, then the database is audited for
the fairness of the clocks (scripts/soak_audit.py) and the figures are printed.

    make soak
    .venv/bin/python scripts/soak.py --minutes 2 --tables 40      # a shorter run

What runs, all on 127.0.0.1: a PostgreSQL database of its own (--database, created and
migrated here, dropped at the end unless --keep), Redis (--redis) as the Celery broker,
cache and channel layer under a key prefix of the run's own, and as tests/multiproc
starts them (tests/multiproc/processes.py: the same environment and test settings, no
rate limits for a few hundred players at one address): 2 gunicorn (--preload,
--web-workers sync workers each), 1 daphne, 2 Celery workers on the default queue,
--clock-workers workers on the players' clocks' queue (GAME_CLOCK_QUEUE; 0: the two
take both queues, the layout before it had one) and beat, on free ports.

The load: --tables rooms spread over every game the server lists (Hearts; Moon with
three or four players; Kali Tidi with three or four), each with a clock drawn from
--turn-seconds, abandon_seconds --abandon-factor times that, --between-rounds-seconds
between hands, and on_abandon `bot` for --on-abandon-bot of them. Each has one real
person (a registered account; two at --two-people of the tables) and computer players
in the other seats; a table whose match is over plays again in a new room while there
is time. People learn of their turns on their ws/me/ socket (and look every
--poll seconds besides), think a random time up to --think of the clock, and send one
of their legal actions with the version they read and an Idempotency-Key, to either
gunicorn, trying the other when one does not answer. --lapse of them let one or two
turns run out on purpose; --idle of them stop for good at some moment, so that the
server plays for them and, at last, abandons the match or hands their seat to a
computer player.

The faults, at times into the play (each a flag; a negative time skips it): one worker
is killed (SIGKILL) and restarted --worker-down seconds later; one gunicorn's master is
killed (SIGKILL; whatever of its group outlives it two seconds later too; with
--web-fault all, both gunicorn) and restarted --web-down seconds later on the same port;
beat is stopped for --beat-down seconds; daphne is killed (SIGKILL) at --socket-kill-at
and restarted --socket-down seconds later. With --fault-every, they come again and
again instead: every that many seconds the next of worker, web, sockets and beat, in
turn, for the whole play. Then the load stops, due tasks drain for --drain seconds and
everything stops.

Besides each person's ws/me/ socket, each room has a socket of one of its people
(ws/rooms/{code}/, notices only), which reopens whenever it drops, as a client does, and
keeps the last version it heard. After the drain every socket client must have caught
up: each room's socket has heard the version the room's state is at, and every ws/me/
socket is open.

The audit reads the database (scripts/soak_audit.py says exactly what it holds the
server to): moves answered 200 that the action log lacks or holds twice; timeouts that
came before their turn's own start plus its clock (plus recorded outages); players
abandoned, or handed to a computer player, before their own waiting time reached
abandon_seconds; the turns running while a web process was down. It prints those and
the run's figures (tables, hands, moves, requests, server errors, connection errors,
timeouts and how late they came after their deadline, p50, p95 and max, abandonments;
where every web process was down, the first answer the clients got after it against the
outage the server recorded, and the turns that ran out within the serving time owed
after it) and exits 1 when a figure that must be zero is not: lost,
duplicated, early, wrongful, 5xx answers outside the windows a web process was down, and
socket clients that had not caught up at the end.

Every loop is bounded in time, --max-seconds bounds the whole run, and the processes
are stopped and the database dropped however it ends. The processes' logs and the
client's records (records.json; `--reaudit DIR` audits them again against a database
kept with --keep) are under var/soak/<time>/.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import FrameType
from typing import Any

import aiohttp
import psycopg
import redis
from soak_audit import Accepted, Unanswered, Window, audit, load

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.rules import all_games, templates  # noqa: E402
from tests.multiproc.processes import (  # noqa: E402
    BEAT_READY,
    WORKER_READY,
    beat_argv,
    cluster_env,
    gunicorn_argv,
    own_database,
    wait_for_line,
    worker_argv,
)
from tests.servers import (  # noqa: E402
    daphne_argv,
    free_port,
    wait_until_serving,
)

PASSWORD = "a-long-secret-9"
START_SECONDS = 90  # for a process to be ready
ATTEMPTS = 4  # tries of one request, over the web processes in turn
REQUEST_SECONDS = 20
HTTP_CONNECTIONS = 64  # requests under way at once, at most
# A table whose match is over plays again in a new room while at least this much play is left.
REPLAY_SECONDS = 30
# The `players` option drawn for the games that have one.
PLAYERS = {"moon": (3, 4), "kali_tidi": (3, 4)}
LOG_PROBLEM = re.compile(r"Traceback|\b(ERROR|CRITICAL)\b")


# -- the options ------------------------------------------------------------------------


def int_range(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    return int(low), int(high or low)


def float_range(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    return float(low), float(high or low)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    play = parser.add_argument_group("the load")
    play.add_argument("--minutes", type=float, default=4, help="minutes of play (default 4)")
    play.add_argument("--tables", type=int, default=120, help="rooms, spread over the games (default 120)")
    play.add_argument("--two-people", type=float, default=0.25, help="share of tables with two people (0.25)")
    play.add_argument("--turn-seconds", type=int_range, default=(5, 8), help="turn_seconds drawn from A-B (5-8)")
    play.add_argument(
        "--abandon-factor", type=float_range, default=(3.0, 4.0), help="abandon_seconds / turn_seconds, A-B (3-4)"
    )
    play.add_argument("--between-rounds-seconds", type=int, default=5, help="the pause between hands (5)")
    play.add_argument("--on-abandon-bot", type=float, default=0.3, help="share of rooms with on_abandon bot (0.3)")
    play.add_argument("--think", type=float, default=0.5, help="people act within this share of the clock (0.5)")
    play.add_argument("--min-think", type=float, default=0.3, help="and no sooner than this, seconds (0.3)")
    play.add_argument("--lapse", type=float, default=0.2, help="share of people who let a turn or two run out (0.2)")
    play.add_argument("--idle", type=float, default=0.08, help="share of people who stop for good at some time (0.08)")
    play.add_argument("--poll", type=float, default=10, help="people read their view this often unprompted (10 s)")
    play.add_argument(
        "--bot-delay",
        type=float,
        default=0.0,
        help="BOT_DELAY_SECONDS: 0 (default, as tests/multiproc) moves computer players inside the change "
        "that made it their turn; production's 1 sends each of their moves through the workers",
    )
    play.add_argument("--seed", type=int, default=None, help="the random draws' seed (default: a new one)")
    deployment = parser.add_argument_group("the deployment")
    deployment.add_argument("--web-workers", type=int, default=2, help="sync workers of each gunicorn (2)")
    deployment.add_argument("--sweep-seconds", type=float, default=5, help="SWEEP_SECONDS (5)")
    deployment.add_argument(
        "--clock-workers",
        type=int,
        default=2,
        help="workers of the players' clocks' queue (2, as deploy/Procfile; 0: the two workers take every queue, "
        "as before it had one)",
    )
    deployment.add_argument(
        "--clock-nice",
        type=int,
        default=-5,
        help="the clock workers' niceness (-5, as deploy/systemd: a deadline comes before the rest of the load; "
        "0: the same as every other process)",
    )
    deployment.add_argument(
        "--clock-concurrency", type=int, default=2, help="pool processes of each clock worker (2, as deploy/Procfile)"
    )
    deployment.add_argument(
        "--min-serving",
        type=float,
        default=15,
        help="UPTIME_MIN_SERVING_AFTER_OUTAGE_SECONDS, the serving time owed after an outage (15)",
    )
    deployment.add_argument(
        "--visibility-timeout",
        type=int,
        default=60,
        help="CELERY_VISIBILITY_TIMEOUT (60: a killed worker's tasks come back within the run; task horizon 30 s)",
    )
    deployment.add_argument("--database", default="gameserver_soak", help="its database (gameserver_soak)")
    deployment.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432", help="the PostgreSQL server")
    deployment.add_argument("--redis", default="redis://127.0.0.1:6379/0", help="the Redis database")
    deployment.add_argument("--keep", action="store_true", help="keep the database afterwards")
    faults = parser.add_argument_group("the faults, in seconds into the play (negative: none)")
    faults.add_argument(
        "--worker-kill-at", type=float, default=None, help="SIGKILL a worker (default 15%% of the play)"
    )
    faults.add_argument("--worker-down", type=float, default=5, help="then restart it after this long (5 s)")
    faults.add_argument("--web-kill-at", type=float, default=None, help="SIGKILL a gunicorn (default 30%% of the play)")
    faults.add_argument("--web-down", type=float, default=20, help="then restart it after this long (20 s)")
    faults.add_argument("--web-fault", choices=("one", "all"), default="one", help="kill one gunicorn or both (one)")
    faults.add_argument("--beat-stop-at", type=float, default=None, help="stop beat (default 45%% of the play)")
    faults.add_argument(
        "--beat-down", type=float, default=None, help="for this long (default 120 s, less to end by 95%% of the play)"
    )
    faults.add_argument("--socket-kill-at", type=float, default=None, help="SIGKILL daphne (default 60%% of the play)")
    faults.add_argument("--socket-down", type=float, default=5, help="then restart it after this long (5 s)")
    faults.add_argument(
        "--fault-every",
        type=float,
        default=0,
        help="instead of the times above: every this many seconds the next fault of worker, web, sockets, beat "
        "(0: once each, at their times)",
    )
    ending = parser.add_argument_group("the end")
    ending.add_argument("--drain", type=float, default=10, help="seconds for due tasks after the load stops (10)")
    ending.add_argument("--max-seconds", type=float, default=None, help="stop and fail after this long (play + 600)")
    ending.add_argument("--reaudit", type=Path, default=None, help="audit a kept run again (its directory), then exit")
    args = parser.parse_args(argv)
    play_seconds = args.minutes * 60
    if args.worker_kill_at is None:
        args.worker_kill_at = 0.15 * play_seconds
    if args.web_kill_at is None:
        args.web_kill_at = 0.30 * play_seconds
    if args.beat_stop_at is None:
        args.beat_stop_at = 0.45 * play_seconds
    if args.socket_kill_at is None:
        args.socket_kill_at = 0.60 * play_seconds
    if args.beat_down is None:
        # Repeated, beat's stop must end before the next fault begins.
        room = args.fault_every * 0.8 if args.fault_every > 0 else 0.95 * play_seconds - args.beat_stop_at
        args.beat_down = max(10.0, min(120.0, room))
    if args.max_seconds is None:
        args.max_seconds = play_seconds + 600
    for flag in ("worker_kill_at", "web_kill_at", "beat_stop_at", "socket_kill_at"):
        if getattr(args, flag) >= play_seconds:
            parser.error(f"--{flag.replace('_', '-')} must fall within the play ({play_seconds:g} s)")
    return args


def wall(moment: float) -> datetime:
    return datetime.fromtimestamp(moment, UTC)


def clock_text(moment: float) -> str:
    return wall(moment).strftime("%H:%M:%S.%f")[:-4]


# -- the processes ----------------------------------------------------------------------


class Proc:
    """One process of the deployment, in a process group of its own, logging to a file
    that its restarts append to."""

    def __init__(
        self, name: str, argv: list[str], env: dict[str, str], log: Path, *, url: str = "", ready: str = ""
    ) -> None:
        """A web server answers the API at `url` once ready; another process logs `ready`."""
        self.name, self.argv, self.env, self.log, self.url, self.ready = name, argv, env, log, url, ready
        self.popen: subprocess.Popen[bytes] | None = None
        self.since = 0  # where this start's log begins
        self.down = False  # stopped on purpose

    def start(self) -> None:
        self.log.parent.mkdir(parents=True, exist_ok=True)
        self.since = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("ab") as out:
            self.popen = subprocess.Popen(
                self.argv, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        self.down = False

    @property
    def proc(self) -> subprocess.Popen[bytes]:
        assert self.popen is not None, f"{self.name} was never started"
        return self.popen

    def wait_ready(self) -> None:
        if self.url:
            wait_until_serving(self.proc, self.url, self.name, str(self.log), START_SECONDS)
        else:
            wait_for_line(self.proc, self.log, self.ready, self.name, START_SECONDS, since=self.since)

    def kill(self) -> None:
        """SIGKILL to the process itself (not its group)."""
        self.down = True
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def kill_group(self) -> int:
        """SIGKILL whatever is left of its process group; how many processes that was."""
        left = group_members(self.proc.pid)
        if left:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        return len(left)

    def terminate(self) -> None:
        self.down = True
        if self.popen is not None and self.popen.poll() is None:
            self.popen.terminate()

    def stop(self, seconds: float = 30) -> None:
        """SIGTERM, wait, then SIGKILL to the group."""
        if self.popen is None:
            return
        self.terminate()
        try:
            self.popen.wait(seconds)
        except subprocess.TimeoutExpired:
            pass
        self.kill_group()
        try:
            self.popen.wait(5)
        except subprocess.TimeoutExpired:
            pass

    def died(self) -> bool:
        """Exited although nobody stopped it."""
        return not self.down and self.popen is not None and self.popen.poll() is not None


def group_members(pgid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 2 and fields[2] == str(pgid) and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


@dataclass
class Fault:
    at: float  # time.time()
    offset: float  # seconds into the play
    what: str


def niced(argv: list[str], niceness: int) -> list[str]:
    """`argv` run at `niceness` (nice(1) execs it: the process keeps the pid started)."""
    return ["nice", "-n", str(niceness), *argv] if niceness else argv


class Cluster:
    """2 gunicorn, 1 daphne, 2 workers and beat on one environment."""

    def __init__(self, args: argparse.Namespace, env: dict[str, str], logs: Path) -> None:
        self.args = args
        self.web: list[Proc] = []
        for n in (1, 2):
            port = free_port()
            argv = gunicorn_argv(port, workers=args.web_workers)
            url = f"http://127.0.0.1:{port}"
            self.web.append(Proc(f"gunicorn{n}", argv, env, logs / f"gunicorn{n}.log", url=url))
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        self.sockets = Proc("daphne", daphne_argv(port), env, logs / "daphne.log", url=url)
        # The default queue's workers; the players' clocks have workers of their own.
        queues = "celery" if args.clock_workers > 0 else None
        self.workers = [
            Proc(f"worker{n}", worker_argv(f"soak{n}", queues), env, logs / f"worker{n}.log", ready=WORKER_READY)
            for n in (1, 2)
        ]
        self.clock_workers = [
            Proc(
                f"clock{n}",
                niced(worker_argv(f"clock{n}", "clock", args.clock_concurrency), args.clock_nice),
                env,
                logs / f"clock{n}.log",
                ready=WORKER_READY,
            )
            for n in range(1, args.clock_workers + 1)
        ]
        self.beat = Proc("beat", beat_argv(logs / "beat-schedule"), env, logs / "beat.log", ready=BEAT_READY)
        self.all = [*self.web, self.sockets, *self.workers, *self.clock_workers, self.beat]
        self.faults: list[Fault] = []
        self.windows: list[Window] = []
        self.other_faults: list[Window] = []  # a worker killed, beat stopped: their whole time
        self.all_down: list[tuple[int, float]] = []  # windows with every web process down, from when
        self.t0 = time.time()

    def start(self) -> None:
        for proc in self.all:
            proc.start()
        for proc in self.all:
            proc.wait_ready()

    def stop(self) -> None:
        for proc in self.all:
            proc.terminate()
        for proc in self.all:
            proc.stop()

    def note(self, what: str) -> None:
        now = time.time()
        fault = Fault(now, now - self.t0, what)
        self.faults.append(fault)
        print(f"  fault log +{fault.offset:6.1f} s {clock_text(now)}  {what}", flush=True)

    async def until(self, offset: float) -> None:
        await asyncio.sleep(max(0.0, self.t0 + offset - time.time()))

    async def run_faults(self) -> None:
        """The faults, each at its time into the play (t0), side by side; with
        --fault-every, one after the other in turn for the whole play."""
        args, steps = self.args, []
        if args.fault_every > 0:
            await self.repeated_faults(args.fault_every)
            return
        if args.worker_kill_at >= 0:
            steps.append(self.worker_fault(args.worker_kill_at, args.worker_down))
        if args.web_kill_at >= 0:
            steps.append(self.web_fault(args.web_kill_at, args.web_down))
        if args.beat_stop_at >= 0:
            steps.append(self.beat_fault(args.beat_stop_at, args.beat_down))
        if args.socket_kill_at >= 0:
            steps.append(self.socket_fault(args.socket_kill_at, args.socket_down))
        await asyncio.gather(*steps)

    async def repeated_faults(self, every: float) -> None:
        """Worker, web, sockets, beat, worker...: one every `every` seconds from `every`
        into the play, each begun only where it ends before the play does."""
        args = self.args
        kinds = [
            (self.worker_fault, args.worker_down),
            (self.web_fault, args.web_down),
            (self.socket_fault, args.socket_down),
            (self.beat_fault, args.beat_down),
        ]
        at, n = every, 0
        while True:
            fault, down = kinds[n % len(kinds)]
            if at + down + START_SECONDS / 3 >= args.minutes * 60:
                return
            await fault(at, down)
            at, n = max(at + every, time.time() - self.t0 + 1), n + 1

    async def worker_fault(self, at: float, down: float) -> None:
        worker = self.workers[0]
        await self.down_and_up(at, down, worker, stop=worker.kill, how="killed (SIGKILL)", ready="ready", window="down")

    async def web_fault(self, at: float, down: float) -> None:
        await self.until(at)
        victims = self.web if self.args.web_fault == "all" else self.web[:1]
        began = time.time()
        for proc in victims:
            await asyncio.to_thread(proc.kill)
            self.note(f"{proc.name} master killed (SIGKILL)")
        await asyncio.sleep(2)
        for proc in victims:
            left = proc.kill_group()
            self.note(f"{proc.name}: {left} of its processes outlived the master by 2 s; killed (SIGKILL)")
        gone = time.time()  # nothing of them is left to answer
        await asyncio.sleep(max(0.0, down - 2))
        for proc in victims:
            proc.start()
            self.note(f"{proc.name} restarting on the same port")
        for proc in victims:
            await asyncio.to_thread(proc.wait_ready)
            self.note(f"{proc.name} serving")
        what = " and ".join(p.name for p in victims)
        self.windows.append(Window(f"{what} down", wall(began), wall(time.time())))
        if len(victims) == len(self.web):
            self.all_down.append((len(self.windows) - 1, gone))

    async def socket_fault(self, at: float, down: float) -> None:
        """daphne killed with every socket open; its clients reconnect once it serves again."""

        def kill() -> None:
            self.sockets.kill()
            self.sockets.kill_group()

        await self.down_and_up(
            at, down, self.sockets, stop=kill, how="killed (SIGKILL)", ready="serving", window="down"
        )

    async def beat_fault(self, at: float, down: float) -> None:
        ready = "sent its first task"
        await self.down_and_up(
            at, down, self.beat, stop=self.beat.stop, how="stopped (SIGTERM)", ready=ready, window="stopped"
        )

    async def down_and_up(
        self, at: float, down: float, proc: Proc, *, stop: Callable[[], object], how: str, ready: str, window: str
    ) -> None:
        """`proc` stopped (`stop`) at `at`, started again `down` seconds later: a fault
        (`window`, after its name) from the stop until it is ready again."""
        await self.until(at)
        began = time.time()
        await asyncio.to_thread(stop)
        self.note(f"{proc.name} {how}")
        await asyncio.sleep(down)
        proc.start()
        self.note(f"{proc.name} restarting")
        await asyncio.to_thread(proc.wait_ready)
        self.note(f"{proc.name} {ready}")
        self.other_faults.append(Window(f"{proc.name} {window}", wall(began), wall(time.time())))

    def problems(self) -> dict[str, list[str]]:
        """Each log's lines that say something went wrong."""
        found: dict[str, list[str]] = {}
        for proc in self.all:
            if proc.log.exists():
                lines = proc.log.read_text(errors="replace").splitlines()
                found[proc.name] = [line for line in lines if LOG_PROBLEM.search(line)]
        return found


# -- the people -------------------------------------------------------------------------


class NoAnswer(Exception):
    """No web process answered a request, however often it was tried."""


@dataclass
class Stats:
    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    server_errors: list[tuple[float, str]] = field(default_factory=list)
    no_answer: list[tuple[float, str]] = field(default_factory=list)  # connection errors and timeouts
    answered: list[float] = field(default_factory=list)  # when each answer came (any status)
    accepted: list[Accepted] = field(default_factory=list)
    unanswered: list[Unanswered] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)  # actions answered 4xx, by code
    lapses: int = 0
    gone_idle: int = 0
    reclaims: int = 0
    notices: int = 0
    socket_drops: int = 0
    room_socket_drops: int = 0
    rooms_behind: list[str] = field(default_factory=list)  # room sockets that had not caught up at the end
    me_closed: list[str] = field(default_factory=list)  # people whose ws/me/ socket was not open at the end


class Http:
    """Requests to the web processes, as a proxy in front of them would send them: to any,
    and to the next when one does not answer."""

    def __init__(self, session: aiohttp.ClientSession, webs: list[str], stats: Stats, rng: random.Random) -> None:
        self.session, self.webs, self.stats, self.rng = session, webs, stats, rng

    async def call(
        self, method: str, path: str, *, token: str | None = None, body: Any = None, key: str | None = None
    ) -> tuple[int, Any]:
        headers = {}
        if token:
            headers["Authorization"] = f"Token {token}"
        if key:
            headers["Idempotency-Key"] = key
        first = self.rng.randrange(len(self.webs))
        for attempt in range(ATTEMPTS):
            base = self.webs[(first + attempt) % len(self.webs)]
            self.stats.requests += 1
            try:
                async with self.session.request(method, f"{base}/api/v1/{path}", json=body, headers=headers) as res:
                    status, text = res.status, await res.text()
            except (aiohttp.ClientError, TimeoutError) as err:
                self.stats.no_answer.append((time.time(), f"{method} {path} at {base}: {type(err).__name__}"))
                await asyncio.sleep(0.3 * (attempt + 1))
                continue
            self.stats.statuses[status] += 1
            self.stats.answered.append(time.time())
            if status >= 500:
                self.stats.server_errors.append((time.time(), f"{method} {path} at {base}: {status} {text[:300]}"))
            try:
                return status, json.loads(text) if text else None
            except ValueError:
                return status, None
        raise NoAnswer(f"{method} {path}")


@dataclass
class Person:
    name: str
    kind: str  # "prompt", "lapse" (lets a turn or two run out) or "idle" (stops for good)
    lapses: list[float]  # seconds into the play after which the next turn is let run out
    idle_at: float | None  # seconds into the play from which they do nothing
    token: str = ""
    gone: bool = False
    notices: dict[str, asyncio.Event] = field(default_factory=dict)
    listening: bool = False  # their ws/me/ socket is open

    def notice(self, code: str) -> asyncio.Event:
        return self.notices.setdefault(code, asyncio.Event())


@dataclass
class Table:
    code: str
    game: str
    options: dict[str, Any]
    people: list[Person]
    next: asyncio.Future[Table | None] | None = None  # the room it plays in once this match is over
    heard: int = -1  # the last version its room's socket heard
    final: int | None = None  # the version its match ended at, once a person saw it end


def concrete(template: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action as sent (a client knows its type, not its game)."""
    return templates.concrete(template, templates.declared_fields(all_games(), template["type"]), rng)


class Load:
    """The people: accounts, tables, and each person playing their seat until the end."""

    def __init__(self, args: argparse.Namespace, cluster: Cluster, rng: random.Random) -> None:
        self.args, self.cluster, self.rng = args, cluster, rng
        self.stats = Stats()
        self.people: list[Person] = []
        self.tables: list[Table] = []
        self.began = 0.0  # time.monotonic() when the play began
        self.end = 0.0  # and when it stops
        self.watching = True  # the sockets stay open past the play, through the drain
        self.watchers: list[asyncio.Task[None]] = []
        self.socket_session: aiohttp.ClientSession | None = None

    def playing(self) -> bool:
        return time.monotonic() < self.end

    async def pause(self, seconds: float) -> None:
        """Sleep, but not past the end of the play."""
        await asyncio.sleep(max(0.0, min(seconds, self.end - time.monotonic())))

    async def wait_notice(self, person: Person, code: str, seconds: float) -> None:
        event = person.notice(code)
        try:
            await asyncio.wait_for(event.wait(), max(0.0, min(seconds, self.end - time.monotonic())))
        except TimeoutError:
            pass

    # -- setting up ---------------------------------------------------------------------

    async def setup(self, http: Http) -> None:
        args, rng = self.args, self.rng
        status, games = await http.call("GET", "games/")
        assert status == 200, f"games/: {status}"
        catalogue = {g["key"]: g for g in games}
        for game in catalogue.values():
            self.check_options(game)
        keys = sorted(catalogue)
        plans = []
        for n in range(args.tables):
            game = keys[n % len(keys)]
            turn = rng.randint(*args.turn_seconds)
            options: dict[str, Any] = {
                "turn_seconds": turn,
                "abandon_seconds": round(turn * rng.uniform(*args.abandon_factor)),
                "between_rounds_seconds": args.between_rounds_seconds,
                "on_abandon": "bot" if rng.random() < args.on_abandon_bot else "end",
            }
            if game in PLAYERS:
                options["players"] = rng.choice(PLAYERS[game])
            people = 2 if rng.random() < args.two_people else 1
            plans.append((game, options, [self.new_person() for _ in range(people)]))
        limit = asyncio.Semaphore(6)

        async def register(person: Person) -> None:
            async with limit:
                body = {"username": person.name, "password": PASSWORD}
                status, answer = await http.call("POST", "auth/register", body=body)
                assert status == 201, f"register {person.name}: {status} {answer}"
                person.token = answer["token"]

        await asyncio.gather(*(register(p) for p in self.people))

        async def table(game: str, options: dict[str, Any], people: list[Person]) -> None:
            async with limit:
                self.tables.append(await self.make_table(http, game, options, people))

        await asyncio.gather(*(table(*plan) for plan in plans))

    def check_options(self, game: dict[str, Any]) -> None:
        """The clocks asked for are within what the game's options allow."""
        options = game["options"]
        wanted = {
            "turn_seconds": self.args.turn_seconds,
            "abandon_seconds": (
                round(self.args.turn_seconds[0] * self.args.abandon_factor[0]),
                round(self.args.turn_seconds[1] * self.args.abandon_factor[1]),
            ),
            "between_rounds_seconds": (self.args.between_rounds_seconds,) * 2,
        }
        for name, (low, high) in wanted.items():
            schema = options[name]
            if low < schema.get("minimum", low) or high > schema.get("maximum", high):
                sys.exit(f"error: {game['key']}'s {name} must be {schema['minimum']}-{schema['maximum']}")
        if self.args.abandon_factor[0] < 1:
            sys.exit("error: abandon_seconds must be at least turn_seconds (--abandon-factor from 1)")

    def new_person(self) -> Person:
        args, rng = self.args, self.rng
        play = args.minutes * 60
        draw = rng.random()
        kind = "idle" if draw < args.idle else "lapse" if draw < args.idle + args.lapse else "prompt"
        lapses = sorted(rng.uniform(0.05, 0.9) * play for _ in range(rng.randint(1, 2))) if kind == "lapse" else []
        idle_at = rng.uniform(0.1, 0.6) * play if kind == "idle" else None
        person = Person(f"player{len(self.people) + 1:04d}", kind, lapses, idle_at)
        self.people.append(person)
        return person

    async def make_table(self, http: Http, game: str, options: dict[str, Any], people: list[Person]) -> Table:
        host = people[0]
        status, room = await http.call("POST", "rooms/", token=host.token, body={"game": game, "options": options})
        assert status == 201, f"create a {game} room: {status} {room}"
        code = room["code"]
        for guest in people[1:]:
            status, answer = await http.call("POST", f"rooms/{code}/join", token=guest.token, body={})
            assert status == 201, f"join {code}: {status} {answer}"
        for _ in range(len(room["seats"]) - len(people)):
            status, answer = await http.call("POST", f"rooms/{code}/bots", token=host.token, body={})
            assert status == 201, f"a computer player in {code}: {status} {answer}"
        status, answer = await http.call("POST", f"rooms/{code}/start", token=host.token)
        assert status == 200, f"start {code}: {status} {answer}"
        table = Table(code, game, room["options"], people)
        if self.socket_session is not None:
            self.watchers.append(asyncio.create_task(self.watch_room(self.socket_session, table)))
        return table

    # -- playing ------------------------------------------------------------------------

    async def listen(self, session: aiohttp.ClientSession, person: Person) -> None:
        """The person's ws/me/ socket: each notice wakes their seat in that room. It
        reopens when it drops, until the end of the drain."""
        base = self.cluster.sockets.url
        url = f"{base.replace('http', 'ws', 1)}/ws/me/?token={person.token}"
        while self.watching:
            try:
                timeout = aiohttp.ClientWSTimeout(ws_receive=None, ws_close=5)
                async with session.ws_connect(url, origin=base, timeout=timeout) as ws:
                    person.listening = True
                    async for message in ws:
                        if message.type != aiohttp.WSMsgType.TEXT:
                            continue
                        room = message.json().get("room")
                        if isinstance(room, str):
                            self.stats.notices += 1
                            person.notice(room).set()
            except (aiohttp.ClientError, TimeoutError, ValueError):
                pass
            person.listening = False
            if self.watching:
                self.stats.socket_drops += 1
                await asyncio.sleep(self.rng.uniform(0.5, 2))

    async def watch_room(self, session: aiohttp.ClientSession, table: Table) -> None:
        """A socket of the room's (its first person's, notices only): the last version it
        heard. Reopened when it drops, it is told where the room is at once, and so
        catches up on whatever it missed meanwhile. Closed, as a client leaving the room
        closes it, once it has heard the version the match ended at (an account holds at
        most WS_ACCOUNT_SOCKETS_MAX sockets)."""
        base = self.cluster.sockets.url
        url = f"{base.replace('http', 'ws', 1)}/ws/rooms/{table.code}/?views=0&token={table.people[0].token}"

        def done() -> bool:
            return table.final is not None and table.heard >= table.final

        while self.watching and not done():
            try:
                timeout = aiohttp.ClientWSTimeout(ws_receive=None, ws_close=5)
                async with session.ws_connect(url, origin=base, timeout=timeout) as ws:
                    while not done():
                        try:
                            # Looked at again now and then: the match may have ended
                            # with the last notice heard.
                            message = await ws.receive(timeout=2)
                        except TimeoutError:
                            continue
                        if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                            break
                        if message.type != aiohttp.WSMsgType.TEXT:
                            continue
                        body = message.json()
                        if body.get("type") == "changed" and isinstance(body.get("version"), int):
                            table.heard = max(table.heard, body["version"])
            except (aiohttp.ClientError, TimeoutError, ValueError):
                pass
            if self.watching and not done():
                self.stats.room_socket_drops += 1
                await asyncio.sleep(self.rng.uniform(0.5, 2))

    async def caught_up(self, http: Http, within: float = 20) -> None:
        """After the drain: each room's socket has heard the version its state is at (a
        notice still on its way is waited for, up to `within` seconds), and every
        person's ws/me/ socket is open."""
        deadline = time.monotonic() + within
        # Those whose socket is still open: the others heard their match's end and closed.
        behind = [t for t in self.tables if not (t.final is not None and t.heard >= t.final)]
        while behind and time.monotonic() < deadline:
            still = []
            for table in behind:
                try:
                    status, view = await http.call("GET", f"rooms/{table.code}/state", token=table.people[0].token)
                except NoAnswer:
                    status, view = 0, None
                if status != 200 or view is None or table.heard < view["version"]:
                    still.append(table)
            behind = still
            if behind:
                await asyncio.sleep(1)
        self.stats.rooms_behind = [f"{t.code} heard {t.heard}" for t in behind]
        while time.monotonic() < deadline and not all(p.listening for p in self.people):
            await asyncio.sleep(0.5)
        self.stats.me_closed = [p.name for p in self.people if not p.listening]

    async def play(self, http: Http, person: Person, table: Table) -> None:
        """One person's seat, match after match: when one is over and there is time for
        more, the table plays again in a new room."""
        while True:
            status = await self.play_match(http, person, table)
            if status != "finished" or self.end - time.monotonic() < REPLAY_SECONDS:
                return
            again = await self.again(http, person, table)
            if again is None:
                return
            table = again

    async def again(self, http: Http, person: Person, table: Table) -> Table | None:
        """The next room of a table whose match is over: the first of its people to ask
        makes it, with the others who are still there; the others wait for it."""
        if table.next is None:
            table.next = asyncio.get_running_loop().create_future()
            people = [person, *(p for p in table.people if p is not person and not p.gone)]
            try:
                made: Table | None = await self.make_table(http, table.game, table.options, people)
            except (AssertionError, NoAnswer) as err:
                print(f"  could not make a new room after {table.code}: {err}", flush=True)
                made = None
            if made is not None:
                self.tables.append(made)
            table.next.set_result(made)
        try:
            return await asyncio.wait_for(asyncio.shield(table.next), REQUEST_SECONDS * ATTEMPTS)
        except TimeoutError:
            return None

    async def play_match(self, http: Http, person: Person, table: Table) -> str | None:
        """One person's seat at one table until the play ends, the match ends (its status,
        then), or they go away for good."""
        code, view = table.code, None
        while self.playing():
            if view is None:
                person.notice(code).clear()
                try:
                    status, view = await http.call("GET", f"rooms/{code}/state", token=person.token)
                except NoAnswer:
                    await self.pause(1)
                    continue
                if status != 200:
                    view = None
                    await self.pause(1)
                    continue
            if view["status"] != "playing":
                if table.final is None or view["version"] > table.final:
                    table.final = view["version"]
                return str(view["status"])
            you = view.get("you") or {}
            legal = [a for a in you.get("legal_actions") or [] if a["type"] != "claim"]
            now = time.monotonic() - self.began
            if person.idle_at is not None and now >= person.idle_at:
                person.gone = True
                self.stats.gone_idle += 1
                return None
            if not legal:
                seat = (view.get("seats") or [])[you.get("seat", 0)] if "seat" in you else {}
                if seat.get("is_bot") and seat.get("user") == person.name:
                    # A computer player took the seat while they were away: they take it back.
                    try:
                        status, _ = await http.call("POST", f"rooms/{code}/reclaim", token=person.token, body={})
                    except NoAnswer:
                        status = 0
                    self.stats.reclaims += status == 200
                else:
                    await self.wait_notice(person, code, self.args.poll)
                view = None
                continue
            clock = table.options["between_rounds_seconds" if view["phase"] == "round_over" else "turn_seconds"]
            if person.lapses and now >= person.lapses[0]:
                person.lapses.pop(0)
                self.stats.lapses += 1
                await self.pause(clock + 2)  # the server acts for them
                view = None
                continue
            await self.pause(self.rng.uniform(self.args.min_think, max(self.args.min_think, self.args.think * clock)))
            if not self.playing():
                return None
            view = await self.act(http, person, view, concrete(self.rng.choice(legal), self.rng))
        return None

    async def act(self, http: Http, person: Person, view: dict[str, Any], action: dict[str, Any]) -> Any:
        """Send one action with the view's version; the new view when accepted."""
        code, hand, seat = view["code"], view["round"], view["you"]["seat"]
        body = {"version": view["version"], "action": action}
        try:
            status, answer = await http.call(
                "POST", f"rooms/{code}/actions", token=person.token, body=body, key=uuid.uuid4().hex
            )
        except NoAnswer:
            self.stats.unanswered.append(Unanswered(code, hand, seat, action))
            return None
        if status == 200:
            self.stats.accepted.append(Accepted(code, hand, seat, action, answer["version"]))
            return answer
        errors = (answer or {}).get("errors") or [{}]
        self.stats.refused[f"{status} {errors[0].get('code', '?')}"] += 1
        return None

    async def run(self) -> None:
        """Set up, then play for --minutes while the faults happen."""
        args = self.args
        timeout = aiohttp.ClientTimeout(total=REQUEST_SECONDS)
        # The sockets have a session of their own: each holds its connection for the whole
        # play, and in the requests' pool they would leave no connection for a request.
        async with (
            aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=HTTP_CONNECTIONS), timeout=timeout) as session,
            aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as sockets,
        ):
            webs = [p.url for p in self.cluster.web]
            http = Http(session, webs, self.stats, self.rng)
            self.socket_session = sockets
            began = time.monotonic()
            await self.setup(http)
            print(
                f"set up {len(self.people)} people at {len(self.tables)} tables in {time.monotonic() - began:.0f} s; "
                f"playing for {args.minutes:g} min",
                flush=True,
            )
            self.cluster.t0 = time.time()
            self.began = time.monotonic()
            self.end = self.began + args.minutes * 60
            listeners = [asyncio.create_task(self.listen(sockets, p)) for p in self.people]
            seats = [asyncio.create_task(self.play(http, p, t)) for t in self.tables for p in t.people]
            faults = asyncio.create_task(self.cluster.run_faults())
            progress = asyncio.create_task(self.progress())
            # Each seat ends with the play; an action sent just before may take its time.
            await asyncio.wait(seats, timeout=args.minutes * 60 + REQUEST_SECONDS + 5)
            for task in [*seats, progress]:
                task.cancel()
            await asyncio.gather(*seats, progress, return_exceptions=True)
            # A fault still under way restarts its process, if it can in time; everything
            # stops next anyway.
            down = max(args.worker_down, args.web_down, args.beat_down, args.socket_down)
            done, _ = await asyncio.wait([faults], timeout=START_SECONDS + down)
            if not done:
                faults.cancel()
                self.cluster.note("the faults still under way were given up")
            elif faults.exception() is not None:
                self.cluster.note(f"a fault failed: {faults.exception()!r}")
            # The sockets stay open while due tasks drain, then must have caught up.
            print(f"play over; due tasks drain for {args.drain:g} s", flush=True)
            await asyncio.sleep(args.drain)
            await self.caught_up(http)
            self.watching = False
            for task in [*listeners, *self.watchers]:
                task.cancel()
            await asyncio.gather(*listeners, *self.watchers, return_exceptions=True)

    async def progress(self) -> None:
        began = time.monotonic()
        while True:
            await asyncio.sleep(30)
            s = self.stats
            died = [p.name for p in self.cluster.all if p.died()]
            print(
                f"  +{time.monotonic() - began:5.0f} s: {s.requests} requests, {len(s.accepted)} moves accepted, "
                f"{s.lapses} turns let run out, {s.gone_idle} people gone, {len(s.server_errors)} 5xx, "
                f"{len(s.no_answer)} connection errors" + (f"; exited on their own: {', '.join(died)}" if died else ""),
                flush=True,
            )


# -- the run ----------------------------------------------------------------------------


def in_windows(moment: float, windows: list[Window]) -> bool:
    return any(w.started_at <= wall(moment) <= w.ended_at for w in windows)


def with_first_answers(cluster: Cluster, answered: list[float]) -> list[Window]:
    """The web windows, each where every web process was down with the first answer the
    clients got after nothing of them was left to answer."""
    windows = list(cluster.windows)
    for index, gone in cluster.all_down:
        first = min((t for t in answered if t > gone), default=None)
        if first is not None:
            windows[index] = replace(windows[index], first_answer=wall(first))
    return windows


def window_record(window: Window) -> dict[str, Any]:
    return {
        "what": window.what,
        "started_at": window.started_at.isoformat(),
        "ended_at": window.ended_at.isoformat(),
        "first_answer": window.first_answer.isoformat() if window.first_answer else None,
    }


def window_of(record: dict[str, Any]) -> Window:
    first = record.get("first_answer")
    return Window(
        record["what"],
        datetime.fromisoformat(record["started_at"]),
        datetime.fromisoformat(record["ended_at"]),
        datetime.fromisoformat(first) if first else None,
    )


def database_figures(url: str) -> dict[str, Any]:
    with psycopg.connect(url) as conn:
        rooms: dict[str, int] = dict(conn.execute("SELECT status, count(*) FROM games_room GROUP BY status").fetchall())
        games: dict[str, int] = dict(conn.execute("SELECT game, count(*) FROM games_room GROUP BY game").fetchall())
        hands = conn.execute("SELECT count(*) FROM games_round WHERE finished_at IS NOT NULL").fetchone()
        actions = conn.execute(
            "SELECT count(*), count(*) FILTER (WHERE automatic), count(*) FILTER (WHERE by_bot),"
            " count(*) FILTER (WHERE user_id IS NOT NULL) FROM games_action"
        ).fetchone()
        timed_out = conn.execute("SELECT count(*) FROM games_event WHERE data->>'type' = 'timed_out'").fetchone()
    assert hands is not None and actions is not None and timed_out is not None
    return {
        "rooms": rooms,
        "games": games,
        "hands": hands[0],
        "actions": actions[0],
        "automatic": actions[1],
        "by_bot": actions[2],
        "persons": actions[3],
        "timed_out_events": timed_out[0],
    }


def report(url: str, records: dict[str, Any]) -> int:
    """Audit the database at `url` against the run's records; print the figures. The exit
    status: 1 when a figure that must be zero is not."""
    accepted = [Accepted(**a) for a in records["accepted"]]
    unanswered = [Unanswered(**u) for u in records["unanswered"]]
    windows = [window_of(w) for w in records["windows"]]
    faults = [window_of(w) for w in records.get("other_faults", [])]
    with psycopg.connect(url) as conn, conn.cursor() as cursor:
        data = load(cursor)
    # The serving time owed after an outage, as the deployment had it (none before it did).
    data.min_serving = timedelta(seconds=float(records["args"].get("min_serving", 0)))
    # When the load stopped, every person at once: their turns all run out together.
    first = records["faults"][0] if records["faults"] else None
    ending = None
    if first is not None:
        over = first["at"] - first["offset"] + records["args"]["minutes"] * 60
        ending = Window("the load stopped", wall(over), wall(over + records["args"]["drain"] + 30))
    result = audit(data, accepted, unanswered, windows, faults, ending)
    db = database_figures(url)
    stats = records["stats"]
    server_errors = [(t, what) for t, what in stats["server_errors"]]
    outside = [(t, what) for t, what in server_errors if not in_windows(t, windows)]
    no_answer = stats["no_answer"]
    inside = sum(1 for t, _ in no_answer if in_windows(t, windows))
    statuses = Counter({int(k): v for k, v in stats["statuses"].items()})
    classes = Counter(f"{k // 100}xx" for k in statuses.elements())
    people = Counter(p["kind"] for p in records["people"])
    tables = Counter(t["game"] for t in records["tables"])
    rooms = db["rooms"]

    print()
    print(f"== soak: {len(records['tables'])} tables, {records['args']['minutes']:g} min of play ==")
    print("faults (seconds into the play, UTC):")
    for fault in records["faults"]:
        print(f"  +{fault['offset']:6.1f} s  {clock_text(fault['at'])}  {fault['what']}")
    print("the run:")
    print(
        f"  tables: {len(records['tables'])} ({', '.join(f'{g} {n}' for g, n in sorted(tables.items()))}); "
        f"people: {len(records['people'])} ({', '.join(f'{k} {n}' for k, n in sorted(people.items()))})"
    )
    print(f"  rooms now: {', '.join(f'{s} {n}' for s, n in sorted(rooms.items()))}; hands completed: {db['hands']}")
    print(
        f"  actions in the log: {db['actions']} (persons' own {db['persons']}, "
        f"the server's for them {db['automatic']}, computer players' {db['by_bot']}); moves accepted "
        f"(answered 200): {len(accepted)}; refused: {sum(stats['refused'].values())} "
        f"({', '.join(f'{k} {n}' for k, n in sorted(stats['refused'].items())) or 'none'})"
    )
    print(
        f"  requests made: {stats['requests']} ({', '.join(f'{k} {n}' for k, n in sorted(classes.items()))}); "
        f"5xx answers: {len(server_errors)}, outside the windows a web process was down: {len(outside)}; "
        f"connection errors and timeouts (no answer): {len(no_answer)}, of which in those windows: {inside}; "
        f"moves never answered: {len(unanswered)}"
    )
    for t, what in outside[:5]:
        print(f"    5xx at {clock_text(t)}: {what}")
    for t, what in [n for n in no_answer if not in_windows(n[0], windows)][:5]:
        print(f"    no answer outside the windows at {clock_text(t)}: {what}")
    print(
        f"  timeouts: {len(result.timeouts)} automatic actions ({db['timed_out_events']} timed_out events); "
        f"turns let run out on purpose: {stats['lapses']}; people gone for good: {stats['gone_idle']}; "
        f"seats reclaimed: {stats['reclaims']}"
    )
    print(
        f"  abandonments: {rooms.get('abandoned', 0)} rooms abandoned; seats handed to a computer player for "
        f"idleness: {sum(1 for a in result.abandonments if a.kind == 'seat_to_bot')}"
    )
    print(
        f"  ws/me/ notices heard: {stats['notices']}; sockets reopened: ws/me/ {max(0, stats['socket_drops'])}, "
        f"rooms' {stats.get('room_socket_drops', 0)}; processes that exited on their own: "
        f"{', '.join(records['died']) or 'none'}"
    )
    behind, closed = stats.get("rooms_behind", []), stats.get("me_closed", [])
    print(
        f"  at the end: room sockets behind their room: {len(behind)}"
        + (f" ({', '.join(behind[:5])})" if behind else "")
        + f"; ws/me/ sockets not open: {len(closed)}"
        + (f" ({', '.join(closed[:5])})" if closed else "")
    )
    problems = records.get("problems", {})
    if any(problems.values()):
        print("  lines of the processes' logs that say something went wrong (Traceback, ERROR, CRITICAL):")
        for name, lines in problems.items():
            if lines:
                print(f"    {name}: {len(lines)}; first: {lines[0][:200]}")
    print("the audit:")
    for line in result.lines():
        print(f"  {line}")
    checks = {
        **result.must_be_zero(),
        "5xx answers outside the windows a web process was down": len(outside),
        "room sockets not caught up with their room at the end": len(behind),
        "ws/me/ sockets not open at the end": len(closed),
    }
    print("must be zero:")
    for what, count in checks.items():
        print(f"  {'ok' if count == 0 else 'FAILED'}: {what}: {count}")
    if not accepted:
        # A run whose moves never reached the server proves nothing.
        print("FAILED: no move was accepted; the load never reached the server")
    return 0 if accepted and not any(checks.values()) else 1


def main() -> None:
    args = parse_args()
    if args.reaudit is not None:
        records = json.loads((args.reaudit / "records.json").read_text())
        sys.exit(report(records["database_url"], records))
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    logs = ROOT / "var" / "soak" / datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    logs.mkdir(parents=True, exist_ok=True)
    prefix = f"soak-{os.getpid()}"
    broker = redis.Redis.from_url(args.redis)
    broker.ping()

    def out_of_time(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(f"the soak ran past --max-seconds ({args.max_seconds:g} s) or was told to stop")

    signal.signal(signal.SIGALRM, out_of_time)
    signal.signal(signal.SIGTERM, out_of_time)
    signal.alarm(int(args.max_seconds))
    print(f"soak: seed {seed}; logs and records in {logs}", flush=True)
    cluster: Cluster | None = None
    status = 1
    try:
        with own_database(args.postgres, args.database, keep=args.keep) as url:
            env = cluster_env(
                url,
                args.redis,
                prefix,
                BOT_DELAY_SECONDS=str(args.bot_delay),
                SWEEP_SECONDS=str(args.sweep_seconds),
                CELERY_VISIBILITY_TIMEOUT=str(args.visibility_timeout),
                UPTIME_MIN_SERVING_AFTER_OUTAGE_SECONDS=str(args.min_serving),
                # Connections kept between requests, as in production.
                DB_CONN_MAX_AGE="60",
            )
            cluster = Cluster(args, env, logs)
            began = time.monotonic()
            cluster.start()
            print(
                f"started 2 gunicorn ({args.web_workers} workers each, --preload), daphne, 2 workers, "
                f"{args.clock_workers} clock workers and beat in "
                f"{time.monotonic() - began:.0f} s on {args.database}",
                flush=True,
            )
            load_ = Load(args, cluster, rng)
            try:
                asyncio.run(load_.run())
            finally:
                died = [p.name for p in cluster.all if p.died()]
                cluster.stop()
            records = {
                "database_url": url,
                "seed": seed,
                "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
                "accepted": [asdict(a) for a in load_.stats.accepted],
                "unanswered": [asdict(u) for u in load_.stats.unanswered],
                "windows": [window_record(w) for w in with_first_answers(cluster, load_.stats.answered)],
                "other_faults": [window_record(w) for w in cluster.other_faults],
                "faults": [asdict(f) for f in cluster.faults],
                "people": [{"name": p.name, "kind": p.kind} for p in load_.people],
                "tables": [{"code": t.code, "game": t.game, "options": t.options} for t in load_.tables],
                "died": died,
                "problems": cluster.problems(),
                "stats": {
                    "requests": load_.stats.requests,
                    "statuses": dict(load_.stats.statuses),
                    "server_errors": load_.stats.server_errors,
                    "no_answer": load_.stats.no_answer,
                    "refused": dict(load_.stats.refused),
                    "lapses": load_.stats.lapses,
                    "gone_idle": load_.stats.gone_idle,
                    "reclaims": load_.stats.reclaims,
                    "notices": load_.stats.notices,
                    "socket_drops": load_.stats.socket_drops,
                    "room_socket_drops": load_.stats.room_socket_drops,
                    "rooms_behind": load_.stats.rooms_behind,
                    "me_closed": load_.stats.me_closed,
                },
            }
            (logs / "records.json").write_text(json.dumps(records, indent=1, default=str))
            status = report(url, records)
            if args.keep:
                print(f"kept the database {args.database}; `scripts/soak.py --reaudit {logs}` audits it again")
    finally:
        signal.alarm(0)
        if cluster is not None:
            cluster.stop()
        for key in broker.scan_iter(match=f"{prefix}*", count=1000):
            broker.delete(key)
    sys.exit(status)


if __name__ == "__main__":
    main()
