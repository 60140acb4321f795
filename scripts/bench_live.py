"""scripts/bench.py's live mode: tables of four socket clients play Hearts against the
deployment's processes, each client waiting to see every version before its table's next
move.

The server (`LiveServer`): gunicorn (the API, `deploy/gunicorn.conf.py`: preloaded, the
workers beating), daphne (`config.asgi`, the sockets) and one Celery worker, as
tests/multiproc starts them, on production's settings (`config.settings`, no DEBUG) with
a PostgreSQL database of their own and Redis as channel layer, cache and broker under a
key prefix of the run's own. Their output goes to var/bench/.

A table is four accounts (guests, each with its own token) in a Hearts room whose clocks
are a week long (no turn runs out, no task is due, no computer player steps in). Each
client (`Player`) keeps what a real client keeps (api/asyncapi.yaml): its view and its
event log. Its room socket tells it of every change: a pushed `view` (the view and the
change's events) is taken as it comes; a `changed` newer than what it holds, with no
`view` before it, sends it to `GET state` and `GET events?after=` its last event, as a
client does on a server that pushes no views. A client is caught up at version N once it
holds the view of N, has heard N on its socket and its log is complete through what it
heard.

A move: once all four clients are caught up with the table's version, a player to act
POSTs one of its view's legal actions with that version (its own view is then the
answer). The move is done once all four are caught up with the new version; its time is
from the POST being sent to the last of them. Only then may the table move again.

With `over="socket"` the mover sends the same body on its room socket instead,
`{"type": "action", "id", "version", "action"}`, and the server answers there with
`{"type": "result", "id", "status", "view"}` (or, refused, `"error"`: the API's error
body); the move is timed from the frame being sent. With `pace`, each table moves once
every `pace` seconds at most (bench_measure.Pacer), its moves spread over the pace, and
still only once all four clients have caught up.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import httpx
import orjson
import redis
from bench_measure import Pacer, ServerCPU, Window, available, backends, percentile, redis_server, tree
from bench_targets import (
    ADMIN_URL,
    Client,
    Game,
    Server,
    concrete,
    free_port,
    recreate_database,
    register_players,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: how tests/multiproc starts the processes

from tests.multiproc.processes import (  # noqa: E402
    WORKER_READY,
    gunicorn_argv,
    wait_for_line,
    worker_argv,
)
from tests.servers import daphne_argv  # noqa: E402

WEEK = 7 * 24 * 3600
# No clock runs out and nothing is left for the worker to do: a move is what is measured.
ROOM_OPTIONS = {"target": 500, "turn_seconds": WEEK, "abandon_seconds": WEEK, "between_rounds_seconds": WEEK}
CAUGHT_UP_SECONDS = 30  # a table waits this long at most for its clients to catch up
STALLS = 3  # consecutive waits that ran out before a table stops playing
EVENTS_PAGE = 500
LOGS = ROOT / "var" / "bench"
REDIS_SHARED = "redis"  # the ServerCPU group of the Redis server, which serves others too
GROUPS = ("gunicorn", "daphne", "celery", "postgres")  # the server's own process groups
# With moves over the socket a client sends a frame a move, some a second at full speed:
# beyond the deployed socket and account buckets (1 a second, 10 at once; 5 and 50), which
# would close its socket with 4429. Raised out of reach on the live server (opening a
# socket and a ping cost the same whatever the figures).
RAISED_SOCKET_LIMITS = {
    "WS_SOCKET_RATE": "100000",
    "WS_SOCKET_BURST": "100000",
    "WS_ACCOUNT_RATE": "100000",
    "WS_ACCOUNT_BURST": "100000",
}


class Live(Game):
    """The game served by the deployment's processes, on a database of its own."""

    name = "live"

    def __init__(self, database: str, template: str | None = None, raise_socket_limits: bool = True) -> None:
        super().__init__(database)
        self.template = template
        self.raise_socket_limits = raise_socket_limits

    def env(self) -> dict[str, str]:
        redis_url = self.redis_url()
        return {
            **super().env(),
            "REDIS_URL": redis_url,
            "CELERY_BROKER_URL": redis_url,
            "CELERY_KEY_PREFIX": f"{self.prefix}:",
            "CHANNELS_REDIS_URL": redis_url,
            "CHANNELS_PREFIX": self.prefix,
            # As deployed: a move's deadline tasks go to the worker (with these rooms'
            # clocks none is due within the horizon, so none is sent).
            "GAME_TASKS_ENABLED": "1",
            "PYTHONUNBUFFERED": "1",
            **(RAISED_SOCKET_LIMITS if self.raise_socket_limits else {}),
        }

    def set_up(self) -> None:
        if self.template is None:
            super().set_up()
        else:
            # A copy of the game's freshly migrated database: the migrations run once.
            recreate_database(self.database, template=self.template)

    def start(self, workers: int) -> LiveServer:
        return LiveServer(self, workers)


class LiveServer(Server):
    """gunicorn, daphne and a Celery worker on one environment, stopped by `stop`."""

    def __init__(self, target: Live, workers: int) -> None:
        self.live = target
        self.env = target.env()
        LOGS.mkdir(parents=True, exist_ok=True)
        super().__init__(target, workers)  # gunicorn, through `launch`
        ws_port = free_port()
        self.ws_base = f"ws://127.0.0.1:{ws_port}"
        self.daphne = self._start("daphne", daphne_argv(ws_port))
        self.worker = self._start("celery", worker_argv(target.prefix))

    def launch(self, port: int) -> subprocess.Popen[bytes]:
        return self._start("gunicorn", gunicorn_argv(port, workers=self.workers))

    def _start(self, name: str, argv: list[str]) -> subprocess.Popen[bytes]:
        with open(LOGS / f"live-{name}.log", "wb") as out:
            return subprocess.Popen(
                argv, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )

    def processes(self) -> dict[str, subprocess.Popen[bytes]]:
        return {"gunicorn": self.process, "daphne": self.daphne, "celery": self.worker}

    def wait_until_up(self, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        for name, url in (("gunicorn", self.base), ("daphne", "http" + self.ws_base.removeprefix("ws"))):
            while True:
                if self.processes()[name].poll() is not None:
                    raise RuntimeError(f"live: {name} exited during start-up; see {LOGS}/live-{name}.log")
                try:
                    if httpx.get(url + self.target.health_path, timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(f"live: {name} did not answer in time; see {LOGS}/live-{name}.log")
                time.sleep(0.3)
        seconds = max(1.0, deadline - time.monotonic())
        wait_for_line(self.worker, LOGS / "live-celery.log", WORKER_READY, "live: the Celery worker", seconds)

    def cpu(self) -> ServerCPU | None:
        """Every process of the server: gunicorn's master and workers, daphne, the Celery
        worker, the PostgreSQL backends of its database, and the Redis server."""
        if not available():
            return None
        groups: dict[str, Callable[[], Iterable[int]]] = {
            name: tree(process.pid) for name, process in self.processes().items()
        }
        groups["postgres"] = backends(ADMIN_URL, self.target.database)
        shared = redis_server(self.live.redis_url())
        if shared is not None:
            groups[REDIS_SHARED] = shared
        return ServerCPU(groups)

    def stop(self) -> None:
        processes = self.processes().values()
        for process in processes:
            if process.poll() is None:
                process.terminate()
        for process in processes:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(process.pid, signal.SIGKILL)  # and whatever it started
            except ProcessLookupError:
                pass
        forget_keys(self.live.redis_url(), self.live.prefix)


def forget_keys(url: str, prefix: str) -> None:
    """Delete a run's keys from Redis: the channel layer's groups would stay for a day, the
    broker's keys for good."""
    client = redis.Redis.from_url(url)
    try:
        for key in client.scan_iter(match=f"{prefix}*", count=1000):
            client.delete(key)
    finally:
        client.close()


@dataclass
class LiveStats:
    seen_ms: list[float] = field(default_factory=list)  # POST (or action frame) sent -> the last client caught up
    post_ms: list[float] = field(default_factory=list)  # the POST, or the action frame to its result
    state_ms: list[float] = field(default_factory=list)
    events_ms: list[float] = field(default_factory=list)
    accepted: int = 0
    stale: int = 0
    errors: int = 0
    stalled: int = 0  # waits for the clients that ran out
    unanswered: int = 0  # action frames with no result in time, or on a socket that closed
    # How each client's view and events of each accepted move reached it: (role, what, how).
    ways: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    pushed: int = 0  # `view` messages received
    closed: Counter[int] = field(default_factory=Counter)  # sockets the server closed, by code

    def requests(self) -> int:
        return len(self.post_ms) + len(self.state_ms) + len(self.events_ms)


class Player:
    """One seat's client: its socket, the view it shows and its event log."""

    def __init__(self, table: LiveTable, token: str) -> None:
        self.table = table
        self.auth = {"Authorization": f"Token {token}"}
        self.token = token
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.reader: asyncio.Task[None] | None = None
        self.catching_up: asyncio.Task[None] | None = None
        self.results: dict[str, asyncio.Future[dict[str, Any]]] = {}  # action frames sent, by id
        self.reset()

    def reset(self) -> None:
        self.view: dict[str, Any] = {}
        self.version = -1  # the view's
        self.seq = 0  # the log is complete through this event
        self.heard_version = -1
        self.heard_seq = 0
        self.level = -1  # caught up with this version ...
        self.level_at = 0.0  # ... since then
        self.view_by = self.events_by = ""
        self.posting = False
        self.want_state = self.want_events = False

    @property
    def seat(self) -> int:
        return int(self.view.get("you", {}).get("seat", -1))

    async def open(self, code: str) -> None:
        """Open (again) this client's socket on room `code`, knowing nothing of it yet."""
        await self.close()
        self.reset()
        url = f"{self.table.ws_base}/ws/rooms/{code}/?token={self.token}" + ("" if self.table.push else "&views=0")
        self.ws = await self.table.sockets.ws_connect(url, autoping=True)
        self.reader = asyncio.create_task(self.read())

    async def close(self) -> None:
        for task in (self.reader, self.catching_up):
            if task is not None:
                task.cancel()
        if self.ws is not None:
            await self.ws.close()
        await asyncio.gather(*(t for t in (self.reader, self.catching_up) if t is not None), return_exceptions=True)
        self.ws = self.reader = self.catching_up = None
        self.fail_results()

    def fail_results(self) -> None:
        """The socket is gone: no result will come for what was sent on it."""
        for future in self.results.values():
            if not future.done():
                future.set_exception(ConnectionResetError("the socket closed before its result"))
        self.results.clear()

    async def act(self, body: dict[str, Any], frame_id: str) -> tuple[int, Any]:
        """Send an action on this client's room socket and wait for its result: its status,
        and the view (200) or the error body."""
        if self.ws is None or self.ws.closed:
            raise ConnectionResetError("no open socket")
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.results[frame_id] = future
        try:
            await self.ws.send_str(orjson.dumps({"type": "action", "id": frame_id, **body}).decode())
            result = await asyncio.wait_for(future, CAUGHT_UP_SECONDS)
        finally:
            self.results.pop(frame_id, None)
        status = int(result.get("status", 0))
        return status, result.get("view") if status == 200 else result.get("error")

    async def read(self) -> None:
        assert self.ws is not None
        try:
            await self.take(self.ws)
        finally:
            self.fail_results()

    async def take(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        async for message in ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                continue
            data = orjson.loads(message.data)
            if data.get("type") == "result":
                future = self.results.get(str(data.get("id")))
                if future is not None and not future.done():
                    future.set_result(data)
            elif data.get("type") == "view":
                self.table.stats().pushed += 1
                self.heard(data["version"], data["seq"])
                if data["version"] > self.version:
                    self.show(data["view"], "push")
                if data["after"] == self.seq:
                    self.seq = data["seq"]
                    self.events_by = "push"
            elif data.get("type") == "changed":
                self.heard(data["version"], data["seq"])
            self.catch_up()
        if ws.close_code is not None:
            self.table.stats().closed[ws.close_code] += 1

    def heard(self, version: int, seq: int) -> None:
        self.heard_version = max(self.heard_version, version)
        self.heard_seq = max(self.heard_seq, seq)

    def show(self, view: dict[str, Any], how: str) -> None:
        self.view, self.version, self.view_by = view, int(view["version"]), how

    def catch_up(self) -> None:
        """Fetch what the socket announced and nothing brought (not while this player's
        own move is on its way: its answer is the new view), one fetch at a time as a
        client does; then tell the table how far this player is."""
        self.want_state |= self.heard_version > self.version and not self.posting
        self.want_events |= self.heard_seq > self.seq
        if (self.want_state or self.want_events) and self.catching_up is None:
            self.catching_up = asyncio.create_task(self.fetch())
        self.progress()

    def progress(self) -> None:
        level = min(self.version, self.heard_version) if self.seq >= self.heard_seq else -1
        if level > self.level:
            self.level, self.level_at = level, time.perf_counter()
            self.table.progress.set()

    async def fetch(self) -> None:
        code, client = self.table.code, self.table.http
        try:
            while self.want_state or self.want_events:
                # As the web client: the view, then the events, then both are shown.
                view = None
                if self.want_state:
                    self.want_state = False
                    t0 = time.perf_counter()
                    status, answer = await client.call("GET", f"/api/v1/rooms/{code}/state", self.auth)
                    self.table.stats().state_ms.append((time.perf_counter() - t0) * 1000)
                    if status != 200:
                        self.table.stats().errors += 1
                        return
                    view = answer
                if self.want_events:
                    self.want_events = False
                    # The log is then complete through what was heard before the request,
                    # though others' private events are not in it.
                    through = self.heard_seq
                    while True:
                        t0 = time.perf_counter()
                        path = f"/api/v1/rooms/{code}/events?after={self.seq}&limit={EVENTS_PAGE}"
                        status, page = await client.call("GET", path, self.auth)
                        self.table.stats().events_ms.append((time.perf_counter() - t0) * 1000)
                        if status != 200:
                            self.table.stats().errors += 1
                            return
                        if page:
                            self.seq = max(self.seq, page[-1]["seq"])
                            self.events_by = "fetch"
                        if len(page) < EVENTS_PAGE:
                            self.seq = max(self.seq, through)
                            break
                if view is not None and view["version"] > self.version:
                    self.show(view, "fetch")
                self.progress()
                # Whatever was heard meanwhile.
                self.want_state |= self.heard_version > self.version and not self.posting
                self.want_events |= self.heard_seq > self.seq
        finally:
            self.catching_up = None


class LiveTable:
    def __init__(
        self,
        http: Client,
        sockets: aiohttp.ClientSession,
        ws_base: str,
        tokens: list[str],
        rng: random.Random,
        stats: Callable[[], LiveStats],
        push: bool,
        over: str = "http",
    ) -> None:
        self.http = http
        self.push = push
        self.over = over  # how a move is sent: "http" (POST actions) or "socket" (an action frame)
        self.frames = 0
        self.sockets = sockets
        self.ws_base = ws_base
        self.rng = rng
        self.stats = stats
        self.players = [Player(self, token) for token in tokens]
        self.progress = asyncio.Event()
        self.code = ""
        self.playing = False

    async def open(self) -> None:
        """A new room, started, and its four clients caught up with it."""
        await asyncio.gather(*(p.close() for p in self.players))
        host, *guests = self.players
        _, room = await self.http.call("POST", "/api/v1/rooms/", host.auth, {"game": "hearts", "options": ROOM_OPTIONS})
        self.code = room["code"]
        for guest in guests:
            await self.http.call("POST", f"/api/v1/rooms/{self.code}/join", guest.auth, {})
        status, view = await self.http.call("POST", f"/api/v1/rooms/{self.code}/start", host.auth)
        if status != 200:
            raise RuntimeError(f"live: a room did not start: {status} {view}")
        await asyncio.gather(*(p.open(self.code) for p in self.players))
        self.playing = await self.caught_up(view["version"])

    async def close(self) -> None:
        await asyncio.gather(*(p.close() for p in self.players))

    async def caught_up(self, version: int) -> bool:
        """Wait until every client is caught up with `version` (False: not in time)."""
        deadline = time.perf_counter() + CAUGHT_UP_SECONDS
        while not all(p.level >= version for p in self.players):
            self.progress.clear()
            try:
                await asyncio.wait_for(self.progress.wait(), deadline - time.perf_counter())
            except TimeoutError:
                return False
        return True

    async def play(self, stop_at: float, pacer: Pacer | None = None) -> None:
        """Move until `stop_at`, as fast as the clients catch up or at `pacer`'s pace."""
        stalls = 0
        while time.perf_counter() < stop_at and stalls < STALLS:
            if not self.playing:
                await self.open()
                if not self.playing:
                    stalls += 1
                    self.stats().stalled += 1
                continue
            if pacer is not None and not await pacer.wait(stop_at):
                break
            if await self.move():
                stalls = 0
            else:
                stalls += 1
                self.stats().stalled += 1
                # Its clients start again from their sockets' first notice.
                await asyncio.gather(*(p.open(self.code) for p in self.players))
                await self.caught_up(max(p.heard_version for p in self.players))

    async def move(self) -> bool:
        """One move, from the table's version to the next (False: the clients did not
        catch up in time)."""
        version = max(p.version for p in self.players)
        if not await self.caught_up(version):
            return False
        view = self.players[0].view
        if view["status"] != "playing":
            self.playing = False
            return True
        # Not the claim, listed at every trick: a refused claim (most of them here) is a
        # search, not a move.
        legal = {
            p: [a for a in p.view["you"]["legal_actions"] if a.get("type") != "claim"]
            for p in self.players
            if p.seat in view["to_act"]
        }
        movers = [p for p, actions in legal.items() if actions]
        if not movers:
            self.stats().errors += 1
            self.playing = False  # a table nobody can move at: a new one
            return True
        mover = self.rng.choice(movers)
        body = {"version": version, "action": concrete(self.rng.choice(legal[mover]), self.rng)}
        for player in self.players:
            player.view_by = player.events_by = ""
        mover.posting = True
        t0 = time.perf_counter()
        if self.over == "socket":
            self.frames += 1
            try:
                status, answer = await mover.act(body, f"{self.code}-{self.frames}")
            except (ConnectionResetError, TimeoutError, aiohttp.ClientError):
                mover.posting = False
                self.stats().unanswered += 1
                return False  # its clients start again from their sockets
        else:
            status, answer = await self.http.call("POST", f"/api/v1/rooms/{self.code}/actions", mover.auth, body)
        post_ms = (time.perf_counter() - t0) * 1000
        mover.posting = False
        if status == 200 and answer["version"] > mover.version:
            mover.show(answer, "post" if self.over == "http" else "result")
        mover.catch_up()
        if status != 200:
            stats = self.stats()
            errors = answer.get("errors") if isinstance(answer, dict) else None
            if status == 409 and errors and errors[0].get("code") == "stale_version":
                stats.stale += 1
            else:
                stats.errors += 1
            return True
        if not await self.caught_up(answer["version"]):
            return False
        stats = self.stats()
        stats.accepted += 1
        stats.post_ms.append(post_ms)
        stats.seen_ms.append((max(p.level_at for p in self.players) - t0) * 1000)
        for player in self.players:
            role = "mover" if player is mover else "others"
            stats.ways[role, "view", player.view_by] += 1
            stats.ways[role, "events", player.events_by] += 1
        return True


@dataclass
class LiveResult:
    push: bool  # whether the sockets asked for views
    over: str  # how the moves went: "http" or "socket"
    tables: int
    pace: float | None  # seconds between a table's moves, None: as fast as they can
    moves_per_s: float
    cpu_ms_per_move: float | None  # the server's processes, the shared Redis left out
    redis_ms_per_move: float | None
    seen_p50: float
    seen_p99: float
    seen_max: float
    pushed_share: float | None  # of the three others' views, how many came pushed
    group_ms: dict[str, float] = field(default_factory=dict)  # CPU ms per move of each group
    server_cores: float | None = None  # the server's CPU seconds a second, the shared Redis left out
    busy_cores: float | None = None  # the machine's, every process
    other_cores: float | None = None  # anything but this server and the client

    @property
    def kind(self) -> str:
        """What the run's sockets took and how its moves went, as the tables label it."""
        return ("views" if self.push else "?views=0") + (" ws" if self.over == "socket" else "")


async def run_live(
    server: LiveServer,
    tables: int,
    seconds: float,
    warmup: float,
    push: bool,
    over: str = "http",
    pace: float | None = None,
) -> LiveResult:
    """`tables` tables play for `warmup` seconds, then for `seconds` counted. Their sockets
    take the pushed views, or with `push` false ask for notices alone (`?views=0`), and
    their clients fetch every view and event. Moves go as POSTs (`over="http"`) or as
    action frames on the mover's room socket (`over="socket"`); as fast as the clients
    catch up, or with `pace` one move per table every `pace` seconds."""
    http_connector = aiohttp.TCPConnector(limit=min(4 * tables, 100))
    timeout = aiohttp.ClientTimeout(total=30)
    async with (
        aiohttp.ClientSession(connector=http_connector, timeout=timeout) as session,
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as sockets,
    ):
        http = Client(session, server.base)
        tokens = await register_players(http, 4 * tables, f"live-{int(time.time())}")
        warm, stats = LiveStats(), LiveStats()
        window = Window(server.cpu())
        began = float("inf")  # once every table is open, and the warm-up is over

        def counting() -> LiveStats:
            if time.perf_counter() < began:
                return warm
            window.open()
            return stats

        rng = random.Random(7)
        group = [
            LiveTable(
                http,
                sockets,
                server.ws_base,
                tokens[4 * i : 4 * i + 4],
                random.Random(rng.random()),
                counting,
                push,
                over,
            )
            for i in range(tables)
        ]
        try:
            for start in range(0, tables, 8):
                await asyncio.gather(*(t.open() for t in group[start : start + 8]))
            started = time.perf_counter()
            began = started + warmup
            stop_at = began + seconds
            opening = asyncio.create_task(window.open_at(began))
            # Paced, the tables' moves spread evenly over the pace.
            pacers = [Pacer(started + pace * i / tables, pace) if pace else None for i in range(tables)]
            await asyncio.gather(*(t.play(stop_at, pacer) for t, pacer in zip(group, pacers, strict=True)))
            if pace:
                # The window is the whole time offered, the sockets idle at its end too.
                await asyncio.sleep(max(0.0, stop_at - time.perf_counter()))
            opening.cancel()
            measured = window.close()
        finally:
            await asyncio.gather(*(t.close() for t in group), return_exceptions=True)

    move = "POST" if over == "http" else "action frame"
    title = (
        f"live: {tables} tables of four socket clients, "
        + ("views pushed" if push else "notices alone (?views=0), every view fetched")
        + (", moves sent on the socket" if over == "socket" else ", moves POSTed")
        + (f", one move per table every {pace:g} s (offered {tables / pace:.1f} moves/s)" if pace else "")
        + (f", after {warmup:g} s of warm-up" if warmup else "")
    )
    print(f"\n== {title} ==")
    elapsed = measured.seconds
    print(f"accepted moves: {stats.accepted} in {elapsed:.1f} s = {stats.accepted / elapsed:.1f} moves/s")
    print(
        f"stale_version 409s: {stats.stale}   other errors: {stats.errors}   waits for the clients that ran out "
        f"({CAUGHT_UP_SECONDS} s): {stats.stalled}"
        + (f"   action frames unanswered: {stats.unanswered}" if over == "socket" else "")
        + (f"   sockets closed by the server: {dict(stats.closed)}" if stats.closed else "")
    )
    if over == "socket" and stats.unanswered and not stats.accepted:
        print("  no action frame was answered: does the server's room socket take actions (api/consumers.py)?")
    for name, values in (
        (f"{move} sent -> all four caught up", stats.seen_ms),
        ("POST" if over == "http" else "action frame -> its result", stats.post_ms),
        ("GET state", stats.state_ms),
        ("GET events", stats.events_ms),
    ):
        if values:
            print(
                f"{name} ms: p50 {percentile(values, 50):.1f}  p90 {percentile(values, 90):.1f}  "
                f"p99 {percentile(values, 99):.1f}  max {max(values):.1f}  (mean {statistics.fmean(values):.1f}, "
                f"n={len(values)})"
            )

    def ways(role: str, what: str) -> str:
        return ", ".join(
            f"{how or 'nothing new'} {n}" for (r, w, how), n in sorted(stats.ways.items()) if (r, w) == (role, what)
        )

    others = {how: n for (role, what, how), n in stats.ways.items() if role == "others" and what == "view"}
    pushed_share = others.get("push", 0) / sum(others.values()) if others else None
    print(
        f"how the moves reached the clients: the three others' views {ways('others', 'view')}, their events "
        f"{ways('others', 'events')}; the mover's view {ways('mover', 'view')}, its events {ways('mover', 'events')} "
        f"(`view` messages received: {stats.pushed})"
    )
    if push and not stats.pushed:
        print("  the server pushed no views: every client fetched what each `changed` announced")
    why = "the machine's one Redis: other work's commands count too"
    what = f"its {move} and every client's fetches"
    measured.report(stats.accepted, what, stats.requests(), {REDIS_SHARED: why})
    total = measured.server_total({REDIS_SHARED})
    if pace and total is not None:
        print(
            f"server CPU a second, sockets idle between moves included: {total / elapsed:.3f} s "
            f"({1000 * total / elapsed / tables:.2f} ms a second per table of four sockets; the shared Redis apart)"
        )
    redis = measured.server[REDIS_SHARED] if measured.server and REDIS_SHARED in measured.server else None
    per = 1000 / stats.accepted if stats.accepted else None
    others_cpu = measured.others()
    return LiveResult(
        push,
        over,
        tables,
        pace,
        stats.accepted / elapsed,
        total * per if total is not None and per else None,
        sum(redis) * per if redis is not None and per else None,
        percentile(stats.seen_ms, 50),
        percentile(stats.seen_ms, 99),
        max(stats.seen_ms, default=float("nan")),
        pushed_share,
        {name: sum(times) * per for name, times in (measured.server or {}).items()} if per else {},
        total / elapsed if total is not None else None,
        measured.machine / elapsed if measured.machine is not None else None,
        others_cpu / elapsed if others_cpu is not None else None,
    )
