"""Every web process killed for 20 s while requests queue for it, on a small deployment of
real processes of its own (a gunicorn of two sync workers, a socket process, a Celery
worker and beat, on a database of its own): the outage the server records ends with the
first answer served after the restart (a moment after the client has it), not before;
and no turn that was running runs out within the serving time owed after that answer
(UPTIME_MIN_SERVING_AFTER_OUTAGE_SECONDS, 15 s, or the whole clock when shorter), whose
new deadline its player is shown and told.

Nothing here depends on the machine's speed: a slow machine only makes the restart, the
first answer and the timeouts later, and every bound checked is a lower bound from the
server's own record of the first answer (plus that it came after the restart and no later
than the clients' first answer); the waits are generous.

Uma plays two Hearts rooms with computer players (who move inside the change that makes
it their turn), and lets her pass run out in both:
- L, on a 25 s clock, started about 12 s before the kill: about 13 s left when the API
  went down, so 15 s are owed after the first answer (13 s before this rule).
- S, on a 10 s clock, started about 4 s before the kill: about 6 s left, so its whole
  clock, 10 s, is owed.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import psycopg
import pytest
import redis
from django.conf import settings

from tests.servers import ROOT, daphne_argv, free_port, running, tell_to_stop, wait_until_serving

from .client import Api, Listener
from .conftest import postgres_server
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

pytestmark = pytest.mark.asyncio

LOGS = ROOT / "var" / "test-logs"
START_SECONDS = 90
DOWN_SECONDS = 20
OWED_SECONDS = 15
# The server reads its clock a moment before it inserts the row that records an action.
TOLERANCE = timedelta(seconds=0.05)
QUEUED_CLIENTS = 30


@dataclass
class Deployment:
    web: str
    port: int
    sockets: str
    database: str
    env: dict[str, str]
    logs: dict[str, Path]
    gunicorn: subprocess.Popen[Any] | None = None

    def start_web(self) -> None:
        log = self.logs["gunicorn"]
        with log.open("ab") as out:
            self.gunicorn = subprocess.Popen(
                gunicorn_argv(self.port, workers=2),
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def kill_web(self) -> None:
        """SIGKILL to the master and everything of its group: nothing is left to answer."""
        assert self.gunicorn is not None
        os.killpg(self.gunicorn.pid, signal.SIGKILL)
        self.gunicorn.wait(10)

    def stop_web(self) -> None:
        if self.gunicorn is not None and self.gunicorn.poll() is None:
            self.gunicorn.terminate()
            try:
                self.gunicorn.wait(20)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(self.gunicorn.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[Deployment]:
    broker = settings.CELERY_BROKER_URL
    assert broker.startswith("redis://"), "several processes need the Redis broker and channel layer"
    tag = os.environ.get("PYTEST_XDIST_WORKER", "main")
    prefix = f"outage-{tag}-{os.getpid()}"
    base = urlsplit(os.environ["DATABASE_URL"]).path.strip("/")
    logs = {name: LOGS / f"outage-{tag}-{name}.log" for name in ("gunicorn", "daphne", "worker", "beat")}
    LOGS.mkdir(parents=True, exist_ok=True)
    logs["gunicorn"].write_bytes(b"")
    deployment: Deployment | None = None
    try:
        with ExitStack() as stack:
            database = stack.enter_context(own_database(postgres_server(), f"test_{base}_outage_{tag}"))
            env = cluster_env(
                database,
                broker,
                prefix,
                UPTIME_HEARTBEAT_SECONDS="2",
                UPTIME_OUTAGE_AFTER_SECONDS="6",
                UPTIME_MIN_SERVING_AFTER_OUTAGE_SECONDS=str(OWED_SECONDS),
            )
            port, socket_port = free_port(), free_port()
            deployment = Deployment(
                web=f"http://127.0.0.1:{port}",
                port=port,
                sockets=f"http://127.0.0.1:{socket_port}",
                database=database,
                env=env,
                logs=logs,
            )
            daphne = stack.enter_context(running(daphne_argv(socket_port), env=env, log_path=logs["daphne"]))
            # One worker takes every queue, the players' clocks' too.
            worker = stack.enter_context(running(worker_argv(f"outage-{tag}"), env=env, log_path=logs["worker"]))
            beat = stack.enter_context(running(beat_argv(tmp_path / "beat-schedule"), env=env, log_path=logs["beat"]))
            deployment.start_web()
            assert deployment.gunicorn is not None
            wait_until_serving(deployment.gunicorn, deployment.web, "gunicorn", str(logs["gunicorn"]), START_SECONDS)
            wait_until_serving(daphne, deployment.sockets, "daphne", str(logs["daphne"]), START_SECONDS)
            wait_for_line(worker, logs["worker"], WORKER_READY, "worker", START_SECONDS)
            wait_for_line(beat, logs["beat"], BEAT_READY, "beat", START_SECONDS)
            try:
                yield deployment
            finally:
                deployment.stop_web()
                for proc in (daphne, worker, beat):
                    tell_to_stop(proc)
    finally:
        print_log_tails(logs)
        client = redis.Redis.from_url(broker)
        for key in client.scan_iter(match=f"{prefix}*", count=1000):
            client.delete(key)


def rows(database: str, query: str, *params: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(database) as conn:
        return conn.execute(query, params).fetchall()


def outages(database: str) -> list[tuple[datetime, datetime]]:
    return [(r[0], r[1]) for r in rows(database, "SELECT started_at, ended_at FROM uptime_outage ORDER BY started_at")]


def timeouts(database: str, code: str) -> list[tuple[int, datetime]]:
    """The automatic actions of the room's first hand: (seat, when)."""
    return [
        (r[0], r[1])
        for r in rows(
            database,
            "SELECT a.seat, a.created_at FROM games_action a JOIN games_round r ON r.id = a.round_id"
            " JOIN games_room m ON m.id = r.room_id WHERE m.code = %s AND r.number = 1 AND a.automatic"
            " ORDER BY a.created_at",
            code,
        )
    ]


async def until(check: Any, what: str, seconds: float) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        found = await asyncio.to_thread(check)
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"no {what} within {seconds} s")
        await asyncio.sleep(0.2)


async def start_room(api: Api, web: str, token: str, turn_seconds: int) -> dict[str, Any]:
    options = {"turn_seconds": turn_seconds, "abandon_seconds": 600}
    room = await api.call(web, "POST", "rooms/", token=token, body={"game": "hearts", "options": options}, status=201)
    for _ in range(3):
        await api.call(web, "POST", f"rooms/{room['code']}/bots", token=token, body={}, status=201)
    return await api.call(web, "POST", f"rooms/{room['code']}/start", token=token)


async def queue_requests(http: aiohttp.ClientSession, url: str, token: str, answered: list[float], stop: asyncio.Event):
    """A client that keeps asking for the view while the web is down, as people reloading
    would: each answer's time is noted."""
    headers = {"Authorization": f"Token {token}"}
    while not stop.is_set():
        try:
            async with http.get(url, headers=headers) as res:
                await res.read()
                answered.append(time.time())
        except (aiohttp.ClientError, TimeoutError):
            await asyncio.sleep(0.05)
            continue
        await asyncio.sleep(0.2)


def when(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


async def test_a_turn_an_outage_of_every_web_process_left_short_gets_the_serving_time_owed(
    deployment: Deployment,
) -> None:
    web, db = deployment.web, deployment.database
    timeout = aiohttp.ClientTimeout(total=60)
    async with aiohttp.ClientSession(timeout=timeout, connector=aiohttp.TCPConnector(limit=0)) as http:
        api = Api(http)
        token = await api.register(web, "uma")
        me = await Listener.open(http, deployment.sockets, "ws/me/", token)
        long_room = await start_room(api, web, token, 25)
        long_began = time.time()
        # Nothing runs out before the kill: S starts 8 s after L, the kill 12 s after L.
        await asyncio.sleep(max(0.0, long_began + 8 - time.time()))
        short_room = await start_room(api, web, token, 10)
        await asyncio.sleep(max(0.0, long_began + 12 - time.time()))
        codes = {long_room["code"]: 25, short_room["code"]: 10}
        assert all(not timeouts(db, code) for code in codes), "a turn ran out before the outage"

        killed = datetime.now(UTC)
        await asyncio.to_thread(deployment.kill_web)
        answered: list[float] = []
        stop = asyncio.Event()
        url = f"{web}/api/v1/rooms/{long_room['code']}/state"
        clients = [asyncio.create_task(queue_requests(http, url, token, answered, stop)) for _ in range(QUEUED_CLIENTS)]
        try:
            await asyncio.sleep(DOWN_SECONDS)
            restarted = datetime.now(UTC)
            await asyncio.to_thread(deployment.start_web)
            await until(lambda: answered, "answer after the restart", START_SECONDS)
            first_answer = datetime.fromtimestamp(min(answered), UTC)
        finally:
            stop.set()
            await asyncio.gather(*clients)

        # The outage: from the last beat before the kill to the first answer served after
        # the restart; recorded once that answer was served.
        [(began, ended)] = await until(lambda: outages(db), "outage recorded", 30)
        assert killed - timedelta(seconds=3) <= began <= killed, (began, killed)
        # (The server notes an answer served once it has written it all: a moment after
        # the client has it.)
        assert restarted < ended <= first_answer + timedelta(seconds=0.25), (restarted, ended, first_answer)

        # Uma sees and hears the new deadlines: the serving time owed after the answer.
        for code, clock in codes.items():
            owed = ended + timedelta(seconds=min(OWED_SECONDS, clock))
            view = await api.call(web, "GET", f"rooms/{code}/state", token=token)
            assert when(view["deadline"]) >= owed - TOLERANCE, (code, view["deadline"], owed)
            await me.until(
                lambda heard, code=code, view=view: any(
                    n["type"] == "your_turn" and n["room"] == code and n["deadline"] == view["deadline"] for n in heard
                ),
                f"your_turn in {code} with the deadline {view['deadline']}",
                seconds=30,
            )
            turns = {t["code"]: t for t in await api.call(web, "GET", "me/turns", token=token)}
            assert turns[code]["deadline"] == view["deadline"]

        # And the turns run out, none within the serving time owed after the first answer.
        for code, clock in codes.items():
            owed = ended + timedelta(seconds=min(OWED_SECONDS, clock))
            found = await until(lambda code=code: timeouts(db, code), f"timeout in {code}", OWED_SECONDS + 60)
            for seat, at in found:
                assert at >= owed - TOLERANCE, (
                    f"{code} (a {clock} s clock): seat {seat} timed out {(at - ended).total_seconds():.2f} s after "
                    f"the first answer served ({ended}), sooner than the {(owed - ended).total_seconds():g} s owed"
                )
        await me.close()
