"""Writers in several processes on one SQLite file, as under `make run`: web processes
play people's moves over the API while worker processes run the sweeper that moves the
computer players. Run by tests/test_embedded_sqlite.py, one process per role:

    python tests/sqlite_writers.py setup  DB ROOMS     # prints the rooms as JSON
    python tests/sqlite_writers.py web    DB SECONDS   # reads the rooms from stdin
    python tests/sqlite_writers.py worker DB SECONDS

Each role prints one JSON line: how much it did and every error it met.
"""

from __future__ import annotations

import json
import sys
import time
import traceback

from sqlite_setup import django_on_sqlite  # run as a script: tests/ is on the path


def django_setup(db_path: str) -> None:
    django_on_sqlite(
        db_path,
        # Computer players are not moved inside the request: the workers move them.
        BOT_DELAY_SECONDS="0.05",
        CELERY_BROKER_URL="memory://",
        THROTTLE_USER="1000000/min",
        THROTTLE_ANON="1000000/min",
        THROTTLE_AUTH="1000000/min",
    )


def setup(rooms: int) -> None:
    from django.core.management import call_command
    from rest_framework.test import APIClient

    call_command("migrate", verbosity=0)
    made = []
    for i in range(rooms):
        client = APIClient()
        token = client.post("/api/v1/auth/guest", {"display_name": f"p{i}"}, format="json").json()["token"]
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        code = client.post("/api/v1/rooms/", {"game": "hearts", "options": {}}, format="json").json()["code"]
        for _ in range(3):
            client.post(f"/api/v1/rooms/{code}/bots", {}, format="json")
        assert client.post(f"/api/v1/rooms/{code}/start").status_code == 200
        made.append({"code": code, "token": token})
    print(json.dumps(made))


def web(seconds: float) -> None:
    from rest_framework.test import APIClient

    from games import rules
    from games.rules import templates

    rooms = json.load(sys.stdin)
    clients = []
    for room in rooms:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {room['token']}")
        clients.append((room["code"], client))
    moves, errors = 0, []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for code, client in clients:
            try:
                view = client.get(f"/api/v1/rooms/{code}/state").json()
                legal = view.get("you", {}).get("legal_actions") or []
                if not legal:
                    continue
                fields = rules.get(view["game"]).action_fields[legal[0]["type"]]
                action = templates.concrete(legal[0], fields)
                res = client.post(
                    f"/api/v1/rooms/{code}/actions", {"version": view["version"], "action": action}, format="json"
                )
                if res.status_code == 200:
                    moves += 1
                elif res.status_code != 409:  # a stale version is the client's race, not the server's
                    errors.append(f"{res.status_code}: {res.content[:300]!r}")
            except Exception:
                errors.append(traceback.format_exc(limit=3))
    print(json.dumps({"moves": moves, "errors": errors}))


def worker(seconds: float) -> None:
    from games.services import due

    handled, errors = 0, []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            handled += due.overdue_sweep()
        except Exception:
            errors.append(traceback.format_exc(limit=3))
        time.sleep(0.01)
    print(json.dumps({"moves": handled, "errors": errors}))


def main(role: str, db_path: str, arg: str) -> None:
    django_setup(db_path)
    if role == "setup":
        setup(int(arg))
    elif role == "web":
        web(float(arg))
    else:
        worker(float(arg))


if __name__ == "__main__":
    main(*sys.argv[1:4])
