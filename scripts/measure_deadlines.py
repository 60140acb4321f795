"""Deadlines that last days, for many rooms: what the broker and the worker hold while
20,000 rooms play on a one-day clock, and whether every room whose time runs out is
acted on, on time and once.

    make measure-deadlines
    .venv/bin/python scripts/measure_deadlines.py --rooms 2000 --soon 50 --watch 90   # a quick look

On its own fresh PostgreSQL database (`gameserver_deadlines`, dropped afterwards unless
--keep) and its own Redis database (--broker, which must be empty; emptied afterwards):

1. A Celery worker (prefork, two processes) and beat start as in production, with a
   short task horizon (--horizon, 60 s), pickup interval (--pickup) and sweep interval
   (--sweep), and the visibility timeout twice the horizon, so that a few minutes show
   what a day would.
2. One Hearts table of four players is started on a one-day clock through the services;
   its rows (room, seats, hand, event log) are copied in bulk into --rooms rooms with
   distinct codes and players, each shifted in time so that its turn runs out at a
   moment spread over the next day, plus --soon rooms whose day runs out within the
   next minutes. No task is queued for any of them: their last change was a day ago.
3. For --watch seconds it samples, every --sample seconds: the messages in the broker's
   queue and those delivered but not acknowledged (the ETA tasks a worker holds until
   their time), the furthest ETA among them, the worker's memory (RSS of its processes)
   and how many rounds are due within the horizon.
4. Then it checks from the database that every room due in the window was acted on
   within the sweep interval of its due time, exactly once (four automatic passes and
   four `timed_out` events, no more), and none before its time; and counts from the
   worker's log what each task did.
5. Unless --old-seconds 0, the old scheme for comparison: a fresh worker is handed one
   ETA task per room in play, as a change used to queue whatever its due time, and the
   same figures are sampled until it holds them all.

It prints a table of the figures. Every wait is bounded, --max-seconds bounds the whole
run, and its processes are stopped and its database dropped however it ends.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from types import FrameType
from typing import Any

import psycopg
import redis

ROOT = Path(__file__).resolve().parent.parent
ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"
DAY = 86400
# Hearts' four players each pass three cards at a table's first deadline.
PASSES = 4
TASK_LINE = re.compile(r"Task (games\.\w+)\[[^\]]+\] succeeded in [0-9.e-]+s: (.*)$")
RECEIVED_LINE = re.compile(r"Task (games\.\w+)\[[^\]]+\] received")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=20000, help="rooms on a one-day clock, due over the day")
    parser.add_argument("--soon", type=int, default=300, help="more rooms, due within the watch")
    parser.add_argument("--watch", type=float, default=240, help="seconds to watch the worker and the broker")
    parser.add_argument("--horizon", type=int, default=60, help="GAME_TASK_HORIZON_SECONDS")
    parser.add_argument("--pickup", type=float, default=10, help="GAME_TASK_PICKUP_SECONDS")
    parser.add_argument("--sweep", type=float, default=5, help="SWEEP_SECONDS")
    parser.add_argument("--sample", type=float, default=2, help="seconds between samples")
    parser.add_argument("--old-seconds", type=float, default=90, help="at most this long for the old scheme (0: skip)")
    parser.add_argument("--database", default="gameserver_deadlines")
    parser.add_argument("--broker", default=os.environ.get("DEADLINES_BROKER_URL", "redis://127.0.0.1:6379/15"))
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument("--max-seconds", type=int, default=1200, help="stop, clean up and fail after this long")
    args = parser.parse_args()

    broker = redis.Redis.from_url(args.broker)
    if broker.dbsize():
        sys.exit(f"error: the Redis database {args.broker} is not empty; give an unused one with --broker")
    recreate_database(args.database)
    run = Run(args, broker)

    def out_of_time(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(f"the measurement ran past --max-seconds ({args.max_seconds} s)")

    signal.signal(signal.SIGALRM, out_of_time)
    signal.signal(signal.SIGTERM, out_of_time)
    signal.alarm(args.max_seconds)
    try:
        run.main()
    finally:
        signal.alarm(0)
        run.stop_all()
        broker.flushdb()
        if args.keep:
            print(f"kept the database {args.database}")
        else:
            drop_database(args.database)


def recreate_database(name: str) -> None:
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(name: str) -> None:
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def rss_mb(pid: int) -> float:
    """The resident memory of a process, in MB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


@dataclass
class Sample:
    at: float
    queued: int  # messages in the queue, not yet delivered
    held: int  # delivered, not acknowledged: what the worker holds until the ETA
    furthest: float | None  # seconds to the furthest ETA held
    rss: float  # the worker's main process, which holds the tasks waiting for their ETA
    rss_all: float  # with its pool's processes, which run them
    due_soon: int  # rounds due within the horizon from now


@dataclass
class Phase:
    name: str
    samples: list[Sample] = field(default_factory=list)

    def peak(self, attr: str) -> float:
        values = [getattr(s, attr) for s in self.samples if getattr(s, attr) is not None]
        return max(values) if values else float("nan")


class Run:
    def __init__(self, args: argparse.Namespace, broker: redis.Redis) -> None:
        self.args = args
        self.broker = broker
        self.tmp = Path(tempfile.mkdtemp(prefix="measure-deadlines-"))
        self.procs: list[subprocess.Popen[bytes]] = []
        visibility = 2 * args.horizon
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{args.database}",
            "CELERY_BROKER_URL": args.broker,
            "CELERY_VISIBILITY_TIMEOUT": str(visibility),
            "GAME_TASK_HORIZON_SECONDS": str(args.horizon),
            "GAME_TASK_PICKUP_SECONDS": str(args.pickup),
            "SWEEP_SECONDS": str(args.sweep),
            "GAME_TASKS_ENABLED": "1",
            "DEBUG": "0",
            "SECRET_KEY": "measure-deadlines-only-" + "d" * 40,
            "LOG_LEVEL": "INFO",
        }
        for name in ("REDIS_URL", "CHANNELS_REDIS_URL"):
            self.env.pop(name, None)
        self.results: dict[str, Any] = {"visibility": visibility}

    # -- processes ---------------------------------------------------------------------

    def start(self, name: str, *args: str) -> tuple[subprocess.Popen[bytes], Path]:
        log = self.tmp / f"{name}.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", *args],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.procs.append(proc)
        return proc, log

    def start_worker(self, name: str) -> tuple[subprocess.Popen[bytes], Path]:
        proc, log = self.start(
            name,
            "worker",
            "--pool=prefork",
            "--concurrency=2",
            "--loglevel=INFO",
            "-n",
            f"{name}@%h",
            "--without-gossip",
            "--without-mingle",
        )
        self.wait_for_worker(name)
        return proc, log

    def wait_for_worker(self, name: str, timeout: float = 60) -> None:
        from config.celery import app

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(name in node for reply in app.control.ping(timeout=1.0) or [] for node in reply):
                return
        raise RuntimeError(f"the worker {name} did not answer within {timeout} s")

    def stop(self, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)

    def stop_all(self) -> None:
        for proc in self.procs:
            self.stop(proc, timeout=20)

    # -- the run -----------------------------------------------------------------------

    def main(self) -> None:
        args = self.args
        os.environ.update(self.env, LOG_LEVEL="WARNING")
        sys.path.insert(0, str(ROOT))
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=self.env, check=True)
        import django

        django.setup()

        print(
            f"horizon {args.horizon} s, pickup every {args.pickup:g} s, sweep every {args.sweep:g} s, "
            f"visibility timeout {self.results['visibility']} s; {args.rooms} rooms on a one-day clock "
            f"+ {args.soon} due within {args.watch:g} s"
        )
        worker, worker_log = self.start_worker("deadlines")
        beat, _ = self.start("beat", "beat", "--loglevel=INFO", f"--schedule={self.tmp / 'beat-schedule'}")
        idle = self.watch(Phase("idle"), worker.pid, seconds=6)
        began = time.monotonic()
        due = self.seed()
        print(f"seeded {len(due)} rooms in {time.monotonic() - began:.1f} s")
        watch_start = time.time()
        phase = self.watch(Phase("pickup"), worker.pid, seconds=args.watch, verbose=True)
        watch_end = time.time()
        self.stop(beat)
        time.sleep(2)  # the last tasks due finish
        self.stop(worker)
        self.results["before"] = idle
        self.results["new"] = phase
        self.results["log"] = self.read_log(worker_log)
        self.check(due, watch_start, watch_end)
        if args.old_seconds > 0:
            self.results["old"] = self.old_scheme()
        self.report()

    def seed(self) -> dict[str, datetime]:
        """One table played through the services, copied into every room: their due
        times, by code."""
        from django.db import connection, transaction

        from accounts import usernames
        from accounts.models import User
        from games import codes
        from games.models import Event, Room, Round, Seat
        from games.services import lobby

        args = self.args
        groups = max(1, (args.rooms + args.soon) // 20)  # four players sit at some 20 tables together
        password = User(username="template")
        password.set_password(secrets.token_hex(16))
        names = [f"player{i:05d}" for i in range(4 * groups)]
        User.objects.bulk_create(
            [
                User(
                    username=name,
                    display_name=name.title(),
                    password=password.password,
                    username_key=usernames.canonical(name),
                    username_skeleton=usernames.skeleton(name),
                )
                for name in names
            ],
            batch_size=2000,
        )
        ids = dict(User.objects.filter(username__in=names).values_list("username", "id"))
        players = [ids[name] for name in names]
        first = [User.objects.get(id=i) for i in players[:4]]
        template = lobby.room_create(
            host=first[0], game="hearts", options={"turn_seconds": DAY, "abandon_seconds": 3 * DAY}
        )
        for user in first[1:]:
            lobby.room_join(code=template.code, user=user)
        lobby.room_start(code=template.code, user=first[0])
        template_round = Round.objects.get(room__code=template.code)
        template_due = template_round.due_at
        assert template_due is not None and template_round.task_due_at is None

        rng = random.Random(16)
        taken = {template.code}
        while len(taken) < args.rooms + args.soon:
            taken.add(codes.new_code())
        room_codes = sorted(taken - {template.code})
        rng.shuffle(room_codes)
        now = datetime.now(tz=template_due.tzinfo)
        # Due from half a minute on: none before the watch begins.
        start = now + timedelta(seconds=30)
        dues = [start + timedelta(seconds=rng.uniform(0, DAY)) for _ in range(args.rooms - 1)]
        soon = args.watch - 30 - 2 * args.sweep  # all due well before the watch ends
        dues += [start + timedelta(seconds=rng.uniform(0, soon)) for _ in range(args.soon)]
        plan = list(zip(room_codes, dues, strict=True))
        table: dict[str, list[Any]] = {
            "n": list(range(1, len(plan) + 1)),
            "code": [code for code, _ in plan],
            "shift": [d - template_due for _, d in plan],
            **{f"u{i}": [players[4 * ((n + 1) % groups) + i] for n in range(len(plan))] for i in range(4)},
        }

        def copied(model: type[Any], overrides: dict[str, str]) -> tuple[str, str]:
            """The columns of a copy of the template's rows and what each takes: the
            template's value, every time moved by the room's shift, unless overridden."""
            fields = [f for f in model._meta.concrete_fields if not f.primary_key]
            values = []
            for f in fields:
                if f.column in overrides:
                    values.append(overrides[f.column])
                elif f.get_internal_type() == "DateTimeField":
                    values.append(f't."{f.column}" + c.shift')
                else:
                    values.append(f't."{f.column}"')
            return ", ".join(f'"{f.column}"' for f in fields), ", ".join(values)

        player = "(ARRAY[c.u0, c.u1, c.u2, c.u3])[{} + 1]"
        users = User._meta.db_table
        name_of = f"(SELECT coalesce(nullif(display_name, ''), username) FROM {users} WHERE id = {player})"
        sources = [
            (Room, "t.id = %(room)s", {"code": "c.code", "host_id": "c.u0"}),
            (Seat, "t.room_id = %(room)s", {"room_id": "c.room_id", "user_id": player.format('t."index"')}),
            (Round, "t.room_id = %(room)s", {"room_id": "c.room_id"}),
            (
                Event,
                "t.room_id = %(room)s",
                {
                    "room_id": "c.room_id",
                    # The log names the players who joined and the host: this room's own.
                    "data": (
                        "CASE WHEN t.data ? 'host' THEN jsonb_set(t.data, '{host}', to_jsonb("
                        + name_of.format("0")
                        + ")) WHEN t.data ? 'name' AND t.data ? 'seat' THEN jsonb_set(t.data, '{name}', to_jsonb("
                        + name_of.format("(t.data->>'seat')::int")
                        + ")) ELSE t.data END"
                    ),
                },
            ),
        ]
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "CREATE TEMP TABLE clone (n int PRIMARY KEY, code text, shift interval, u0 bigint, u1 bigint,"
                " u2 bigint, u3 bigint, room_id bigint) ON COMMIT DROP"
            )
            cursor.execute(
                "INSERT INTO clone (n, code, shift, u0, u1, u2, u3) SELECT * FROM unnest(%s::int[], %s::text[],"
                " %s::interval[], %s::bigint[], %s::bigint[], %s::bigint[], %s::bigint[])",
                [table[k] for k in ("n", "code", "shift", "u0", "u1", "u2", "u3")],
            )
            for model, where, overrides in sources:
                columns, values = copied(model, overrides)
                cursor.execute(
                    f'INSERT INTO "{model._meta.db_table}" ({columns}) SELECT {values} '
                    f'FROM clone c CROSS JOIN "{model._meta.db_table}" t WHERE {where}',
                    {"room": template.id},
                )
                if model is Room:
                    rooms = Room._meta.db_table
                    cursor.execute(f'UPDATE clone c SET room_id = r.id FROM "{rooms}" r WHERE r.code = c.code')
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        counts = {m.__name__: m.objects.count() for m in (Room, Seat, Round, Event)}
        print("rows: " + ", ".join(f"{n} {c}" for n, c in counts.items()))
        return {**dict(plan), template.code: template_due}

    # -- sampling ----------------------------------------------------------------------

    def broker_state(self) -> tuple[int, int, float | None]:
        """Messages queued, messages delivered and unacknowledged, and how far ahead the
        furthest ETA among the latter is (seconds)."""
        queued = sum(int(self.broker.llen(key)) for key in self.broker.scan_iter(match="celery*", _type="list"))
        now = time.time()
        furthest = None
        held = int(self.broker.hlen("unacked"))
        # Every one while they are few; a sample of them when a worker holds thousands.
        raws: list[Any] = list(self.broker.hvals("unacked")) if held <= 2000 else []
        if held > 2000:
            pairs: list[Any] = list(self.broker.hrandfield("unacked", 200, withvalues=True))  # type: ignore[arg-type]
            raws = pairs[1::2]  # keys and values alternate
        for raw in raws:
            message = json.loads(raw)[0]
            eta = message.get("headers", {}).get("eta")
            if eta:
                ahead = datetime.fromisoformat(eta).timestamp() - now
                furthest = ahead if furthest is None else max(furthest, ahead)
        return queued, held, furthest

    def watch(self, phase: Phase, worker: int, *, seconds: float, verbose: bool = False, until: Any = None) -> Phase:
        from django.utils import timezone

        from games.models import Round

        horizon = timedelta(seconds=self.args.horizon)
        began = time.monotonic()
        shown = -1e9
        while time.monotonic() - began < seconds:
            at = time.monotonic() - began
            queued, held, furthest = self.broker_state()
            now = timezone.now()
            due_soon = Round.objects.filter(due_at__gt=now, due_at__lte=now + horizon).count()
            rss_all = rss_mb(worker) + sum(rss_mb(child) for child in children(worker))
            phase.samples.append(Sample(at, queued, held, furthest, rss_mb(worker), rss_all, due_soon))
            if verbose and at - shown >= 30:
                shown = at
                s = phase.samples[-1]
                print(
                    f"  {at:5.0f} s: queued {s.queued:5d}, held {s.held:5d} (furthest ETA "
                    f"{'-' if s.furthest is None else f'{s.furthest:.0f} s'}), due within the horizon "
                    f"{s.due_soon:4d}, worker RSS {s.rss:.1f} MB (with its pool {s.rss_all:.1f} MB)",
                    flush=True,
                )
            if until is not None and until(phase.samples[-1]):
                break
            time.sleep(self.args.sample)
        return phase

    def read_log(self, log: Path) -> dict[str, Any]:
        results: dict[str, Counter[str]] = {}
        received: Counter[str] = Counter()
        for line in log.read_text(errors="replace").splitlines():
            done = TASK_LINE.search(line)
            if done:
                results.setdefault(done.group(1), Counter())[done.group(2).strip()] += 1
            got = RECEIVED_LINE.search(line)
            if got:
                received[got.group(1)] += 1
        return {"results": results, "received": received}

    # -- the checks --------------------------------------------------------------------

    def check(self, due: dict[str, datetime], watch_start: float, watch_end: float) -> None:
        from django.db.models import Count, Min, Q

        from games.models import Action, Event

        sweep = timedelta(seconds=self.args.sweep)
        # Rooms due in the last sweep interval of the watch may still have been waiting.
        settled = datetime.fromtimestamp(watch_end, tz=next(iter(due.values())).tzinfo) - sweep
        actions = {
            row["round__room__code"]: row
            for row in Action.objects.values("round__room__code").annotate(
                n=Count("id"), automatic=Count("id", filter=Q(automatic=True)), first=Min("created_at")
            )
        }
        timed_out = dict(
            Event.objects.filter(data__type="timed_out")
            .values("room__code")
            .annotate(n=Count("id"))
            .values_list("room__code", "n")
        )
        window = [code for code, d in due.items() if d <= settled]
        later = [code for code, d in due.items() if d > settled + sweep]
        late = []
        wrong = []
        for code in window:
            row = actions.get(code)
            if row is None or row["n"] != PASSES or row["automatic"] != PASSES or timed_out.get(code) != PASSES:
                wrong.append(code)
                continue
            late.append((row["first"] - due[code]).total_seconds())
        early = [code for code in later if code in actions or code in timed_out]
        # Anywhere, not only in the window: a room acted on twice has more than one turn's.
        twice = [code for code, row in actions.items() if row["n"] != PASSES or timed_out.get(code) != PASSES]
        self.results.update(
            window=len(window),
            acted=len(late),
            wrong=wrong,
            early=early,
            twice=twice,
            rooms_acted=len(actions),
            late=late,
            on_time=sum(1 for s in late if 0 <= s <= sweep.total_seconds()),
            actions=Action.objects.count(),
            before_start=sum(1 for d in due.values() if d.timestamp() < watch_start),
        )

    # -- the old scheme, for comparison ------------------------------------------------

    def old_scheme(self) -> Phase:
        """A fresh worker, handed one ETA task per room in play as a change used to queue
        it whatever its due time: sampled until it holds them all."""
        from celery import current_app

        from games.models import RoomStatus, Round
        from games.services.clock import ROOM_DUE_TASK

        self.broker.flushdb()
        worker, _ = self.start_worker("old-scheme")
        idle = self.watch(Phase("old idle"), worker.pid, seconds=6)
        rows = list(
            Round.objects.filter(room__status=RoomStatus.PLAYING, due_at__isnull=False).values_list(
                "room__code", "room__version", "due_at"
            )
        )
        began = time.monotonic()
        with current_app.producer_or_acquire() as producer:
            for code, version, eta in rows:
                current_app.send_task(ROOM_DUE_TASK, args=(code, version), eta=eta, producer=producer)
        sent = time.monotonic() - began
        print(f"old scheme: queued {len(rows)} ETA tasks in {sent:.1f} s", flush=True)
        phase = self.watch(
            Phase("old"),
            worker.pid,
            seconds=self.args.old_seconds,
            verbose=True,
            until=lambda s: s.queued == 0 and s.held >= len(rows),
        )
        self.stop(worker)
        self.results["idle"] = idle
        self.results["old_sent"] = len(rows)
        return phase

    # -- the figures -------------------------------------------------------------------

    def report(self) -> None:
        r, args = self.results, self.args
        new: Phase = r["new"]
        log = r["log"]["results"]
        applied = log.get("games.apply_due_actions", Counter())
        pickups = log.get("games.queue_due_tasks", Counter())
        sweeps = log.get("games.sweep_overdue", Counter())
        picked = sum(int(k) * v for k, v in pickups.items() if k.isdigit())
        swept = sum(int(k) * v for k, v in sweeps.items() if k.isdigit())
        late = sorted(r["late"])
        print()
        print(f"== {args.rooms + args.soon} rooms in play on a one-day clock, watched {args.watch:g} s ==")
        rows: list[tuple[str, str, str]] = []
        old: Phase | None = r.get("old")
        rows.append(
            (
                "ETA tasks in the broker, held by the worker (peak)",
                f"{new.peak('held'):.0f} (rounds due within the horizon: peak {new.peak('due_soon'):.0f})",
                f"{old.peak('held'):.0f} of {r['old_sent']}" if old else f"{args.rooms + args.soon}",
            )
        )
        rows.append(
            (
                "messages waiting in the queue (peak)",
                f"{new.peak('queued'):.0f}",
                f"{old.peak('queued'):.0f}" if old else "-",
            )
        )
        rows.append(
            (
                "furthest ETA held",
                f"{new.peak('furthest'):.0f} s (horizon {args.horizon} s)",
                f"{old.peak('furthest') / 3600:.1f} h" if old else "24 h",
            )
        )
        for label, attr in (("worker RSS, main process (holds the tasks)", "rss"), ("with its pool", "rss_all")):
            values = [getattr(s, attr) for s in new.samples]
            held = "-"
            if old:
                idle = getattr(r["idle"].samples[-1], attr)
                held = f"{idle:.0f} MB idle, {old.peak(attr):.0f} MB holding them (+{old.peak(attr) - idle:.0f})"
            rows.append(
                (
                    label,
                    f"{getattr(r['before'].samples[-1], attr):.0f} MB before seeding; over the watch "
                    f"{min(values):.0f}-{max(values):.0f}, first to last {values[-1] - values[0]:+.1f}",
                    held,
                )
            )
        redeliveries = DAY // (2 * args.horizon)
        rows.append(
            (
                "deliveries of a one-day deadline's task",
                "1, within the horizon of its time",
                f"1 + one every visibility timeout: {redeliveries} a day at {2 * args.horizon} s, "
                f"{DAY // 600} at the default 600 s",
            )
        )
        width = [max(len(row[i]) for row in rows) for i in range(3)]
        header = ("", "horizon + pickup (measured)", "a task per change (old scheme)")
        width = [max(w, len(h)) for w, h in zip(width, header, strict=True)]
        for row in [header, tuple("-" * w for w in width), *rows]:
            print(" | ".join(cell.ljust(w) for cell, w in zip(row, width, strict=True)))
        print()
        print(
            f"rooms due in the window: {r['window']}; acted on once, four automatic passes and four timed_out "
            f"events each: {r['acted']}; otherwise: {len(r['wrong'])}; due later but acted on: {len(r['early'])}"
        )
        if late:
            print(
                f"late after the due time: median {statistics.median(late):.2f} s, max {late[-1]:.2f} s; "
                f"within the sweep interval ({args.sweep:g} s): {r['on_time']} of {len(late)}"
            )
        print(
            f"tasks: apply_due_actions received {r['log']['received'].get('games.apply_due_actions', 0)}, "
            f"ran {sum(applied.values())} ({applied.get('True', 0)} acted, {applied.get('False', 0)} found nothing "
            f"to do); pickup ran {sum(pickups.values())} times and queued {picked}; sweeper ran "
            f"{sum(sweeps.values())} times and acted in {swept} rooms"
        )
        print(
            f"actions in the database: {r['actions']} in {r['rooms_acted']} rooms; rooms with other than "
            f"{PASSES} actions and {PASSES} timed_out events: {len(r['twice'])}"
        )
        if r["before_start"]:
            print(f"warning: {r['before_start']} rooms were due before the watch began")
        received = r["log"]["received"].get("games.apply_due_actions", 0)
        checks = {
            "every room due in the window was acted on once, within the sweep interval": (
                not r["wrong"] and not r["twice"] and r["on_time"] == r["window"] == r["acted"]
            ),
            "no room was acted on before its time": not r["early"],
            "no ETA held further ahead than the horizon": not new.peak("furthest") > args.horizon,
            "every task was delivered once": received == picked,
        }
        for what, passed in checks.items():
            print(f"{'ok' if passed else 'FAILED'}: {what}")
        ok = all(checks.values())
        if not ok:
            sys.exit(1)


if __name__ == "__main__":
    main()
