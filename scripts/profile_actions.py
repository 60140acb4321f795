"""Where one move's time goes, in-process: the cost of `GET state` and `POST actions`
without HTTP, processes or other clients in the way.

    .venv/bin/python scripts/profile_actions.py              # timings and query counts
    .venv/bin/python scripts/profile_actions.py --profile    # plus the top of cProfile

It plays Hearts hands between four guest players through Django's test client on a
fresh PostgreSQL database (`gameserver_profile` unless `--database` names another,
dropped afterwards) and prints the
median and p90 time per request and the queries each one runs. The benchmark
(scripts/bench.py) measures the whole server; this one says which part to make faster.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parent.parent
ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--profile", action="store_true", help="print the top functions by cumulative time")
    # Two runs at once on one server need a database each.
    parser.add_argument("--database", default="gameserver_profile", help="the scratch database's name")
    args = parser.parse_args()
    db = args.database

    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{db}"')
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{db}",
        DB_CONN_MAX_AGE="600",
        GAME_TASKS_ENABLED="0",
        THROTTLE_USER="100000000/min",
        THROTTLE_ANON="100000000/min",
        THROTTLE_AUTH="100000000/min",
        LOG_LEVEL="WARNING",
        # Change notices go through Redis, as in production.
        CHANNELS_REDIS_URL=os.environ.get("CHANNELS_REDIS_URL", "redis://127.0.0.1:6379/14"),
        ALLOWED_HOSTS="testserver",
        DEBUG="0",
        SECRET_KEY="profile-only-secret-key-" + "p" * 40,
        SECURE_SSL_REDIRECT="0",
    )
    sys.path.insert(0, str(ROOT))
    try:
        run(args.moves, args.profile)
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')


def run(moves: int, profile: bool) -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    call_command("migrate", verbosity=0)
    rng = random.Random(7)

    def client_for(name: str) -> APIClient:
        c = APIClient()
        token = c.post("/api/v1/auth/guest", {"display_name": name}, format="json").json()["token"]
        c.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        return c

    def new_table() -> tuple[str, list[APIClient]]:
        players = [client_for(f"p{i}") for i in range(4)]
        code = players[0].post("/api/v1/rooms/", {"game": "hearts", "options": {}}, format="json").json()["code"]
        for p in players[1:]:
            p.post(f"/api/v1/rooms/{code}/join", {}, format="json")
        players[0].post(f"/api/v1/rooms/{code}/start", {}, format="json")
        return code, players

    code, players = new_table()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = Path(f"/proc/{cursor.fetchone()[0]}/stat")

    def backend_cpu() -> float:
        # PostgreSQL's own CPU for this connection (same machine; Linux's /proc).
        try:
            fields = backend.read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") * 1000

    pg_cpu = {"GET": 0.0, "POST": 0.0}
    get_ms: list[float] = []
    post_ms: list[float] = []
    get_q: list[int] = []
    get_cpu: list[float] = []
    post_cpu: list[float] = []
    post_q: list[int] = []
    profiler = cProfile.Profile() if profile else None
    done = 0
    while done < moves:
        state = players[0].get(f"/api/v1/rooms/{code}/state").json()
        if state["status"] != "playing":
            code, players = new_table()
            continue
        seat = state["to_act"][0]
        client = players[seat]
        if profiler:
            profiler.enable()
        b = backend_cpu()
        with CaptureQueriesContext(connection) as q:
            t, c = time.perf_counter(), time.process_time()
            view = client.get(f"/api/v1/rooms/{code}/state").json()
            get_ms.append((time.perf_counter() - t) * 1000)
            get_cpu.append((time.process_time() - c) * 1000)
        pg_cpu["GET"] += backend_cpu() - b
        get_q.append(len(q))
        g = q
        template = view["you"]["legal_actions"][0]
        action = concrete(template, view["game"], rng)
        b = backend_cpu()
        with CaptureQueriesContext(connection) as q:
            t, c = time.perf_counter(), time.process_time()
            answer = client.post(
                f"/api/v1/rooms/{code}/actions", {"version": view["version"], "action": action}, format="json"
            )
            post_ms.append((time.perf_counter() - t) * 1000)
            post_cpu.append((time.process_time() - c) * 1000)
        pg_cpu["POST"] += backend_cpu() - b
        if profiler:
            profiler.disable()
        post_q.append(len(q))
        if os.environ.get("SHOW_SQL") and done == 5:
            for query in q.captured_queries:
                print("POST", query["time"], query["sql"][:160])
            for query in g.captured_queries:
                print("GET ", query["time"], query["sql"][:160])
        if answer.status_code != 200:
            raise SystemExit(f"move refused: {answer.status_code} {answer.content[:300]!r}")
        done += 1

    rows = (("GET state   ", get_ms, get_cpu, get_q, "GET"), ("POST actions", post_ms, post_cpu, post_q, "POST"))
    for name, ms, cpu, qs, method in rows:
        ms.sort()
        print(
            f"{name}: median {statistics.median(ms):6.2f} ms  p90 {ms[int(len(ms) * 0.9)]:6.2f} ms  "
            f"CPU here median {statistics.median(cpu):5.2f} mean {statistics.fmean(cpu):5.2f} ms, "
            f"PostgreSQL's mean {pg_cpu[method] / len(ms):5.2f} ms  "
            f"queries median {statistics.median(qs):.0f} max {max(qs)}  ({len(ms)} requests)"
        )
    if profiler:
        pstats.Stats(profiler).sort_stats(os.environ.get("SORT", "cumulative")).print_stats(
            int(os.environ.get("TOP", "45"))
        )


def concrete(template: dict[str, Any], game: str, rng: random.Random) -> dict[str, Any]:
    """A legal action of `game`, with random picks."""
    from games import rules
    from games.rules import templates

    return templates.concrete(template, rules.get(game).action_fields[template["type"]], rng)


if __name__ == "__main__":
    main()
