"""What idle room sockets cost a socket process: its memory per open socket.

    .venv/bin/python scripts/bench_idle_sockets.py                     # 1,000 then 5,000 sockets
    .venv/bin/python scripts/bench_idle_sockets.py --sockets 100,300 --settle 3
    .venv/bin/python scripts/bench.py --mode idle --sockets 1000,5000  # the same, from the bench

What runs, all on 127.0.0.1: ONE daphne process (`config.asgi`) on production's
settings (`config.settings`, no DEBUG) with Redis as its channel layer under a key
prefix of the run's own, as scripts/bench_live.py starts it, but with the deployed
socket rate limits (WS_SOCKET_*, WS_ACCOUNT_*); a fresh PostgreSQL database of its own
(--database, migrated here, dropped at the end unless --keep). The accounts (guests, a
token each) and the rooms (Hearts rooms waiting for players, with week-long clocks) are
made beforehand through the services, in a process of their own, so that daphne serves
nothing but the sockets, as in production (the API is gunicorn's).

Then one client process (aiohttp, its limit of open files raised) opens room sockets
`ws/rooms/{code}/?token=`, --batch at a time, up to each count of --sockets in turn:
socket i on room i // --per-room, of account i % accounts (so that a room's sockets
are different accounts, and an account's sockets are in different rooms). Each sends
nothing but a `{"type": "ping"}` every --ping seconds (from a random start), and answers
daphne's own keep-alive pings. The spread keeps every socket within the deployed
buckets: an account opens --per-account sockets (at most WS_ACCOUNT_BURST, 50, at once)
and sends --per-account / --ping pings a second (WS_ACCOUNT_RATE is 5).

Before any socket, and --settle seconds after each count is open, it reads daphne's
memory: its resident set (VmRSS, /proc/PID/status) and, where readable, its
proportional set (Pss, /proc/PID/smaps_rollup), and prints them with the growth per open
socket since before any socket and since the previous count (the latter leaves out
what the first sockets load once), daphne's CPU over the settle (the idle sockets'
cost, their pings included), the sockets the server closed, and the shared Redis's
memory beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import redis
from bench_live import LOGS, ROOM_OPTIONS, Live, forget_keys
from bench_measure import counts, memory_kb, process_cpu, raise_open_files

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: how tests/multiproc starts the processes

from tests.servers import daphne_argv, free_port  # noqa: E402

PING = '{"type": "ping"}'


@dataclass
class IdleOptions:
    sockets: list[int]  # the counts at which memory is read
    per_account: int
    per_room: int
    ping: float
    settle: float
    batch: int


def add_idle_options(parser: argparse._ActionsContainer) -> None:
    """This mode's options, on its own parser or scripts/bench.py's."""
    parser.add_argument(
        "--sockets",
        type=counts,
        default=[1000, 5000],
        help="idle mode: open room sockets at which daphne's memory is read, in turn (default 1000,5000)",
    )
    parser.add_argument("--per-account", type=int, default=10, help="idle mode: sockets of each account (default 10)")
    parser.add_argument("--per-room", type=int, default=4, help="idle mode: sockets on each room (default 4)")
    parser.add_argument(
        "--ping", type=float, default=30.0, help="idle mode: seconds between a socket's pings (default 30)"
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=10.0,
        help="idle mode: seconds to wait, sockets open and idle, before each reading (default 10)",
    )
    parser.add_argument("--batch", type=int, default=100, help="idle mode: sockets opening at once (default 100)")


def idle_options(args: argparse.Namespace, parser: argparse.ArgumentParser) -> IdleOptions:
    """The options parsed, or `parser`'s error."""
    if args.per_account < 1 or args.per_room < 1 or args.batch < 1 or args.ping <= 0 or args.settle < 0:
        parser.error("--per-account, --per-room and --batch must be at least 1, --ping more than 0, --settle 0 or more")
    return IdleOptions(args.sockets, args.per_account, args.per_room, args.ping, args.settle, args.batch)


class Daphne:
    """One daphne process on the target's environment, stopped by `stop`."""

    def __init__(self, target: Live) -> None:
        self.target = target
        self.host, self.port = "127.0.0.1", free_port()
        self.ws_base = f"ws://{self.host}:{self.port}"
        LOGS.mkdir(parents=True, exist_ok=True)
        self.log = LOGS / "idle-daphne.log"
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen(
                daphne_argv(self.port),
                cwd=ROOT,
                env=target.env(),
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_until_up(self, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"idle: daphne exited during start-up; see {self.log}")
            try:
                # Its port open: no HTTP request, which would load the API's path into it.
                with socket.create_connection((self.host, self.port), timeout=2):
                    return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"idle: daphne did not answer in time; see {self.log}")
            time.sleep(0.3)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            pass
        try:
            self.process.kill()
        except ProcessLookupError:
            pass
        forget_keys(self.target.redis_url(), self.target.prefix)


def seed(target: Live, accounts: int, rooms: int) -> tuple[list[str], list[str]]:
    """`accounts` guests' tokens and `rooms` rooms' codes, made through the services in a
    process of its own (this script with --seed) on the target's environment."""
    command = [sys.executable, __file__, "--seed", str(accounts), str(rooms)]
    done = subprocess.run(command, cwd=ROOT, env=target.env(), capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"idle: seeding failed:\n{done.stdout}\n{done.stderr}")
    made = json.loads(done.stdout.strip().splitlines()[-1])
    return made["tokens"], made["rooms"]


def seed_here(accounts: int, rooms: int) -> None:
    """--seed: the guests and their rooms, printed as one line of JSON."""
    import django

    django.setup()
    from accounts.services.registration import guest_create
    from games.services import lobby

    users, tokens = [], []
    for i in range(accounts):
        user, token = guest_create(display_name=f"idle {i}")
        users.append(user)
        tokens.append(token)
    codes = [
        lobby.room_create(host=users[r % accounts], game="hearts", options=dict(ROOM_OPTIONS)).code
        for r in range(rooms)
    ]
    print(json.dumps({"tokens": tokens, "rooms": codes}))


@dataclass
class Reading:
    sockets: int  # opened
    open: int  # still open
    rss_kb: int | None
    pss_kb: int | None
    daphne_cpu: float | None  # CPU seconds a second over the settle
    redis_kb: int | None  # the shared Redis's used_memory
    opened_per_s: float | None  # how fast this count's sockets opened


class Holder:
    """The client's sockets: opened in order, each reading what comes and pinging."""

    def __init__(self, session: aiohttp.ClientSession, ws_base: str, tokens: list[str], codes: list[str]) -> None:
        self.session = session
        self.ws_base = ws_base
        self.tokens = tokens
        self.codes = codes
        self.tasks: list[asyncio.Task[None]] = []
        self.sockets: list[aiohttp.ClientWebSocketResponse] = []
        self.closed: Counter[int | None] = Counter()  # by the server, by close code
        self.failed: Counter[str] = Counter()  # handshakes refused or failed, by why
        self.received = 0
        self.pings = 0
        self.closing = False

    @property
    def open(self) -> int:
        return len(self.sockets) - sum(self.closed.values())

    async def open_until(self, count: int, per_room: int, batch: int, ping: float) -> None:
        while len(self.sockets) + sum(self.failed.values()) < count:
            start = len(self.sockets) + sum(self.failed.values())
            await asyncio.gather(*(self.open_one(i, per_room, ping) for i in range(start, min(count, start + batch))))

    async def open_one(self, i: int, per_room: int, ping: float) -> None:
        token = self.tokens[i % len(self.tokens)]
        url = f"{self.ws_base}/ws/rooms/{self.codes[i // per_room]}/?token={token}"
        try:
            ws = await self.session.ws_connect(url, autoping=True, timeout=aiohttp.ClientWSTimeout(ws_close=10))
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            self.failed[type(error).__name__] += 1
            return
        self.sockets.append(ws)
        self.tasks.append(asyncio.create_task(self.keep(ws, ping)))

    async def keep(self, ws: aiohttp.ClientWebSocketResponse, ping: float) -> None:
        pinger = asyncio.create_task(self.ping(ws, ping))
        try:
            async for message in ws:
                if message.type == aiohttp.WSMsgType.TEXT:
                    self.received += 1
        finally:
            pinger.cancel()
            if not self.closing:
                self.closed[ws.close_code] += 1

    async def ping(self, ws: aiohttp.ClientWebSocketResponse, every: float) -> None:
        await asyncio.sleep(random.uniform(0, every))
        while not ws.closed:
            await ws.send_str(PING)
            self.pings += 1
            await asyncio.sleep(every)

    async def close_all(self) -> None:
        self.closing = True
        for start in range(0, len(self.sockets), 500):
            await asyncio.gather(*(ws.close() for ws in self.sockets[start : start + 500]), return_exceptions=True)
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


def redis_memory_kb(url: str) -> int | None:
    client = redis.Redis.from_url(url)
    try:
        return int(client.info("memory")["used_memory"]) // 1024
    except redis.RedisError:
        return None
    finally:
        client.close()


async def hold(daphne: Daphne, tokens: list[str], codes: list[str], options: IdleOptions) -> list[Reading]:
    pid = daphne.process.pid
    redis_url = daphne.target.redis_url()

    async def settled(sockets: int, holder: Holder | None, opened_per_s: float | None) -> Reading:
        cpu0, t0 = process_cpu(pid), time.perf_counter()
        await asyncio.sleep(options.settle)
        cpu1, seconds = process_cpu(pid), time.perf_counter() - t0
        cpu = sum(cpu1) - sum(cpu0) if cpu0 is not None and cpu1 is not None else None
        rss, pss = memory_kb(pid)
        reading = Reading(
            sockets,
            holder.open if holder else 0,
            rss,
            pss,
            cpu / seconds if cpu is not None else None,
            redis_memory_kb(redis_url),
            opened_per_s,
        )
        print(
            f"  {sockets} sockets opened, {reading.open} open: daphne RSS {mb(rss)} MB, PSS {mb(pss)} MB, "
            f"CPU {text(reading.daphne_cpu, 3)} s a second"
            + (f"; handshakes failed: {dict(holder.failed)}" if holder and holder.failed else "")
            + (f"; closed by the server: {dict(holder.closed)}" if holder and holder.closed else ""),
            flush=True,
        )
        return reading

    readings = [await settled(0, None, None)]
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        holder = Holder(session, daphne.ws_base, tokens, codes)
        try:
            for count in sorted(set(options.sockets)):
                before, t0 = len(holder.sockets), time.perf_counter()
                await holder.open_until(count, options.per_room, options.batch, options.ping)
                rate = (len(holder.sockets) - before) / (time.perf_counter() - t0)
                readings.append(await settled(count, holder, rate))
        finally:
            await holder.close_all()
        print(f"  pings sent: {holder.pings}; messages received: {holder.received}")
    return readings


def mb(kb: int | None) -> str:
    return "n/a" if kb is None else f"{kb / 1024:.1f}"


def text(value: float | None, digits: int = 1) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def per_socket(now: int | None, then: int | None, sockets: int) -> str:
    return "n/a" if now is None or then is None or sockets <= 0 else f"{(now - then) / sockets:.1f}"


def report(readings: list[Reading], options: IdleOptions, accounts: int, rooms: int) -> None:
    print(
        f"\n== idle room sockets in one daphne process: {accounts} accounts, {rooms} rooms, {options.per_room} "
        f"sockets a room, a ping every {options.ping:g} s a socket; read {options.settle:g} s after each count =="
    )
    header = ["opened", "open", "opened/s", "RSS MB", "KB/socket", "since last", "PSS MB", "KB/socket"]
    header += ["since last", "daphne CPU", "Redis MB"]
    print("".join(f"{h:>11}" for h in header))
    first = readings[0]
    last = first
    for r in readings:
        cells = [str(r.sockets), str(r.open), text(r.opened_per_s, 0), mb(r.rss_kb)]
        cells += [per_socket(r.rss_kb, first.rss_kb, r.open), per_socket(r.rss_kb, last.rss_kb, r.open - last.open)]
        cells += [mb(r.pss_kb), per_socket(r.pss_kb, first.pss_kb, r.open)]
        cells += [per_socket(r.pss_kb, last.pss_kb, r.open - last.open), text(r.daphne_cpu, 3), mb(r.redis_kb)]
        print("".join(f"{c:>11}" for c in cells))
        last = r
    print(
        "KB/socket: daphne's growth since before any socket, per open socket; since last: since the previous "
        "count, per socket opened since. daphne CPU: CPU seconds a second over the settle, the sockets idle. "
        "Redis: the machine's one Redis's used_memory, other work's keys included"
    )


def run_idle(options: IdleOptions, database: str, keep: bool) -> None:
    """Set up, hold the sockets, report, and clean up however the run ends."""
    largest = max(options.sockets)
    accounts = max(options.per_room, math.ceil(largest / options.per_account))
    rooms = math.ceil(largest / options.per_room)
    raise_open_files(2 * largest + 1024)  # the client's sockets, and daphne's (it inherits the limit)
    target = Live(database, raise_socket_limits=False)
    target.set_up()
    daphne: Daphne | None = None
    try:
        t0 = time.perf_counter()
        tokens, codes = seed(target, accounts, rooms)
        print(f"idle: {accounts} guests and {rooms} rooms made in {time.perf_counter() - t0:.0f} s", flush=True)
        daphne = Daphne(target)
        daphne.wait_until_up()
        print(f"idle: daphne (pid {daphne.process.pid}) on {daphne.ws_base}, database {database}", flush=True)
        readings = asyncio.run(hold(daphne, tokens, codes, options))
        report(readings, options, accounts, rooms)
    finally:
        if daphne is not None:
            daphne.stop()
        if not keep:
            target.tear_down()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_idle_options(parser)
    parser.add_argument("--database", default="gameserver_idle", help="the database (default gameserver_idle)")
    parser.add_argument("--keep", action="store_true", help="keep the database")
    parser.add_argument("--seed", nargs=2, type=int, metavar=("ACCOUNTS", "ROOMS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.seed:
        seed_here(*args.seed)
        return
    options = idle_options(args, parser)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # so that `finally` cleans up
    run_idle(options, args.database, args.keep)


if __name__ == "__main__":
    main()
