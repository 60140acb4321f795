"""Plays every game for a while on SQLite, the database of the one-process start
(`make run`). Run by tests/test_embedded_sqlite.py in a process of its own, since the
test session's settings are PostgreSQL's.

    python tests/sqlite_play.py /tmp/some.sqlite3
"""

from __future__ import annotations

import sys

from sqlite_setup import django_on_sqlite  # run as a script: tests/ is on the path


def main(db_path: str) -> None:
    django_on_sqlite(db_path, BOT_DELAY_SECONDS="0")
    from django.core.management import call_command
    from rest_framework.test import APIClient

    from games import rules
    from games.rules import templates

    call_command("migrate", verbosity=0)
    client = APIClient()
    token = client.post("/api/v1/auth/guest", {"display_name": "solo"}, format="json").json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    # The token's user is a whole user on SQLite too, its dates converted from text.
    from datetime import datetime

    from accounts.authentication import TokenAuthentication

    user, _ = TokenAuthentication().authenticate_credentials(token)
    assert user.display_name == "solo" and isinstance(user.date_joined, datetime), user.date_joined
    assert user.date_joined.tzinfo is not None, "an aware time, as the ORM gives"
    for game in rules.all_games():
        res = client.post("/api/v1/rooms/", {"game": game.key, "options": {}}, format="json")
        assert res.status_code == 201, res.content
        code = res.json()["code"]
        seats = len(res.json()["seats"])
        for _ in range(seats - 1):
            assert client.post(f"/api/v1/rooms/{code}/bots", {}, format="json").status_code == 201
        assert client.post(f"/api/v1/rooms/{code}/start").status_code == 200, code
        moves, first_tag = 0, None
        while moves < 60:
            answer = client.get(f"/api/v1/rooms/{code}/state")
            view, first_tag = answer.json(), first_tag or answer["ETag"]
            # A poll that holds the view is answered 304 through the portable tag's query.
            held = client.get(f"/api/v1/rooms/{code}/state", HTTP_IF_NONE_MATCH=answer["ETag"])
            assert held.status_code == 304 and held["ETag"] == answer["ETag"], (held.status_code, code)
            if view["status"] != "playing":
                break
            legal = view["you"]["legal_actions"]
            assert legal, f"{game.key}: the human is never left waiting with bots at delay 0 ({view['phase']})"
            action = templates.concrete(legal[0], game.action_fields[legal[0]["type"]])
            res = client.post(
                f"/api/v1/rooms/{code}/actions", {"version": view["version"], "action": action}, format="json"
            )
            assert res.status_code == 200, res.content
            moves += 1
        page = client.get(f"/api/v1/rooms/{code}/events")
        events = page.json()
        assert moves > 0 and events, game.key
        held = client.get(f"/api/v1/rooms/{code}/events", HTTP_IF_NONE_MATCH=page["ETag"])
        assert held.status_code == 304, (held.status_code, code)
        # The first view's tag no longer holds: the moves changed the view.
        assert client.get(f"/api/v1/rooms/{code}/state", HTTP_IF_NONE_MATCH=first_tag).status_code == 200
        print(f"{game.key}: {moves} moves, {len(events)} events")


if __name__ == "__main__":
    main(sys.argv[1])
