"""Every number in a URL path on SQLite, the database of `make run`: one beyond a 64-bit
signed integer (which SQLite's driver cannot bind: it was a 500) is a 404 in the error
shape before any query, and the largest one there is reaches the view and is a 404 too.
Run by tests/api/test_path_ids.py in a process of its own (the test session's settings
are PostgreSQL's); prints one line per request made and `ok` at the end.

    python tests/sqlite_ids.py /tmp/some.sqlite3
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from sqlite_setup import django_on_sqlite  # run as a script: tests/ is on the path


def main(db_path: str) -> None:
    # The embedded broker's folders beside the database (a sign-in queues its notice).
    var = Path(db_path).parent / "var"
    for folder in ("broker", "broker-processed", "broker-control"):
        (var / folder).mkdir(parents=True, exist_ok=True)
    django_on_sqlite(db_path, VAR_DIR=str(var))
    from django.core.management import call_command
    from django.test import Client
    from url_ids import ID_MAX, METHODS, OUT_OF_RANGE, bare_ints, id_routes

    from accounts.models import User

    call_command("migrate", verbosity=0)
    assert not bare_ints(), bare_ints()
    User.objects.create_superuser(username="boss", password="correct-horse-9", email="boss@example.com")
    signed = Client()
    answer = signed.post(
        "/api/v1/auth/token", {"username": "boss", "password": "correct-horse-9"}, content_type="application/json"
    )
    assert answer.status_code == 200, answer.content
    token = answer.json()["token"]
    signed.force_login(User.objects.get(username="boss"))
    routes = id_routes()
    assert len(routes) >= 14, routes
    made = 0
    for route in routes:
        for number in [*OUT_OF_RANGE, str(ID_MAX)]:
            for method in METHODS:
                res = signed.generic(
                    method,
                    route.path(number),
                    b"{}",
                    content_type="application/json",
                    HTTP_AUTHORIZATION=f"Token {token}",
                )
                made += 1
                where = (method, route.path(number), res.status_code)
                assert res.status_code < 500, where
                if number != str(ID_MAX) and route.api:
                    # No route: the API's 404 in the error shape.
                    assert res.status_code == 404, where
                    assert json.loads(res.content)["errors"][0]["code"] == "not_found", (where, res.content)
                elif number != str(ID_MAX):
                    # No route of the page's own: the admin's catch-all sends to its index.
                    assert res.status_code in (302, 404), where
                elif route.api:
                    # The view itself: no such row (or a body it refuses first).
                    assert res.status_code in (400, 404, 405), where
                    assert json.loads(res.content)["errors"][0]["code"], (where, res.content)
    # The admin's own pages of a row (`<path:object_id>`, read by the model's field).
    for model in ("accounts/user", "games/room", "games/round", "moderation/case"):
        for number in [*(n for n in OUT_OF_RANGE if int(n) > ID_MAX), str(ID_MAX)]:
            for tail in ("change/", "delete/", "history/"):
                res = signed.get(f"/admin/{model}/{number}/{tail}")
                made += 1
                assert res.status_code in (302, 403, 404), (model, number, tail, res.status_code)
    # Integer query parameters: one beyond the range is refused before any query, 400
    # `invalid` for a cursor or a page size, 404 for a page number (a page past the end).
    room = signed.post(
        "/api/v1/rooms/",
        {"game": "hearts", "options": {}},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {token}",
    )
    assert room.status_code == 201, room.content
    code = room.json()["code"]
    for number in [*(n for n in OUT_OF_RANGE if int(n) > ID_MAX), str(ID_MAX), str(2**31)]:
        for tail in ("events", "rounds", "chat"):
            for name in ("after", "limit"):
                res = signed.get(f"/api/v1/rooms/{code}/{tail}?{name}={number}", HTTP_AUTHORIZATION=f"Token {token}")
                made += 1
                assert res.status_code == 400, (tail, name, number, res.status_code)
                assert json.loads(res.content)["errors"][0]["code"] == "invalid", (tail, name, number, res.content)
        for listing in ("/api/v1/rooms/", "/api/v1/leaderboard?game=hearts", "/api/v1/players/boss/matches"):
            joiner = "&" if "?" in listing else "?"
            res = signed.get(f"{listing}{joiner}page={number}", HTTP_AUTHORIZATION=f"Token {token}")
            made += 1
            assert res.status_code == 404, (listing, number, res.status_code)
            assert json.loads(res.content)["errors"][0]["code"] == "not_found", (listing, number, res.content)
    print(f"{made} requests")
    print("ok")


if __name__ == "__main__":
    main(sys.argv[1])
