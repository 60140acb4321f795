"""Polling is cheap: `GET state` and `GET events` answer an `ETag` for their caller, and
304 with no body to an `If-None-Match` that names it while nothing the answer is made of
changed, found without reading the table; a 304 never tells anyone more than a 200."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import selectors, view_tags
from games.models import Round
from games.services import lobby, seeds

from .helpers import act, move_by_whoever_acts, state

pytestmark = pytest.mark.django_db

WEAK_TAG = re.compile(r'^W/"[A-Za-z0-9_-]+"$')


def get(client: Any, path: str, tag: str | None = None) -> Any:
    return client.get(path, **({"HTTP_IF_NONE_MATCH": tag} if tag is not None else {}))


def state_path(code: str) -> str:
    return f"/api/v1/rooms/{code}/state"


def tag_of(client: Any, path: str) -> str:
    res = get(client, path)
    assert res.status_code == 200, res.content
    return str(res["ETag"])


def one_viewers_answer(res: Any) -> None:
    """The headers that keep one caller's answer out of every other's hands."""
    assert WEAK_TAG.match(res["ETag"]), res["ETag"]
    cache = {part.strip() for part in res["Cache-Control"].split(",")}
    assert {"private", "no-cache"} <= cache
    vary = {part.strip().lower() for part in res["Vary"].split(",")}
    assert {"authorization", "cookie"} <= vary


def pass_three(client: Any, code: str) -> None:
    view = state(client, code)
    res = act(client, code, view["version"], {"type": "pass_cards", "cards": view["you"]["hand"][:3]})
    assert res.status_code == 200, res.content


def test_state_answers_its_tag_and_304_while_it_holds(hearts_table):
    code, clients, _ = hearts_table()
    first = get(clients[0], state_path(code))
    assert first.status_code == 200
    one_viewers_answer(first)
    tag = first["ETag"]
    for named in (tag, tag.removeprefix("W/"), f'"elsewhere", {tag}', f'W/"x",{tag} , W/"y"', "*"):
        again = get(clients[0], state_path(code), named)
        assert again.status_code == 304, named
        assert again.content == b""
        assert again["ETag"] == tag
        one_viewers_answer(again)
    # A tag it does not hold, or nothing that is a tag: the whole view.
    for named in ('W/"elsewhere"', "elsewhere", tag.strip('W/"'), ",", '"'):
        other = get(clients[0], state_path(code), named)
        assert other.status_code == 200, named
        assert other.json() == first.json() and other["ETag"] == tag


def test_a_304_reads_a_few_small_rows_and_never_the_table(hearts_table):
    code, clients, _ = hearts_table()
    tag = tag_of(clients[0], state_path(code))
    rounds = Round._meta.db_table
    with CaptureQueriesContext(connection) as held:
        assert get(clients[0], state_path(code), tag).status_code == 304
    # The token, then the tag's one statement: no hand, no events.
    assert len(held.captured_queries) == 2, [q["sql"] for q in held.captured_queries]
    assert not [q["sql"] for q in held.captured_queries if rounds in q["sql"] or "games_event" in q["sql"]]
    pass_three(clients[1], code)
    with CaptureQueriesContext(connection) as changed:
        res = get(clients[0], state_path(code), tag)
    assert res.status_code == 200 and res["ETag"] != tag
    assert any(rounds in q["sql"] for q in changed.captured_queries)


def test_the_tag_moves_with_a_move_for_everyone(hearts_table):
    code, clients, _ = hearts_table()
    before = {seat: tag_of(client, state_path(code)) for seat, client in clients.items()}
    pass_three(clients[2], code)
    for seat, client in clients.items():
        res = get(client, state_path(code), before[seat])
        assert res.status_code == 200, seat
        assert res["ETag"] != before[seat]
        assert get(client, state_path(code), res["ETag"]).status_code == 304


def test_every_viewer_has_a_tag_of_their_own(hearts_table, api_client, make_user):
    code, clients, _ = hearts_table()
    watcher = api_client(make_user())
    tags = {seat: tag_of(client, state_path(code)) for seat, client in clients.items()}
    tags["watcher"] = tag_of(watcher, state_path(code))
    assert len(set(tags.values())) == len(tags), tags
    # Another's tag is no tag of the caller's view.
    assert get(clients[1], state_path(code), tags[0]).status_code == 200
    assert get(watcher, state_path(code), tags[0]).status_code == 200
    assert get(clients[0], state_path(code), tags["watcher"]).status_code == 200


def test_a_client_seed_changes_the_tag_without_a_new_version(api_client, make_user):
    host_user, guest_user = make_user(), make_user()
    host, guest = api_client(host_user), api_client(guest_user)
    room = lobby.room_create(host=host_user, game="hearts", options={})
    lobby.room_join(code=room.code, user=guest_user)
    before = get(host, state_path(room.code))
    seen_by_guest = tag_of(guest, state_path(room.code))
    seeds.client_seed_set(code=room.code, user=guest_user, client_seed="lucky")
    after = get(host, state_path(room.code), before["ETag"])
    assert after.status_code == 200
    assert after.json()["version"] == before.json()["version"]
    assert after.json()["seats"][1]["client_seed"] == "lucky"
    assert get(guest, state_path(room.code), seen_by_guest).status_code == 200


def test_a_seated_players_new_name_changes_the_tag_without_a_new_version(hearts_table, api_client, make_user):
    code, clients, users = hearts_table()
    watcher = api_client(make_user())
    tags = {seat: tag_of(client, state_path(code)) for seat, client in clients.items()}
    watched = get(watcher, state_path(code))
    # Renamed outside the room (the admin does it): neither its version nor its log moves.
    users[3].display_name = "Renamed"
    users[3].save(update_fields=["display_name"])
    for seat, client in clients.items():
        assert get(client, state_path(code), tags[seat]).status_code == 200, seat
    res = get(watcher, state_path(code), watched["ETag"])
    assert res.status_code == 200
    assert res.json()["seats"][3]["display_name"] == "Renamed"
    assert res.json()["version"] == watched.json()["version"]


def test_an_unknown_room_is_404_and_a_stranger_is_refused_whatever_they_name(hearts_table, api_client):
    code, clients, _ = hearts_table()
    tag = tag_of(clients[0], state_path(code))
    # The player's own token for an app that may not read rooms (only `notifications`).
    made = clients[0].post("/api/v1/me/tokens", {"name": "pusher", "scopes": ["notifications"]}, format="json")
    assert made.status_code == 201, made.content
    app = api_client()
    app.credentials(HTTP_AUTHORIZATION=f"Bearer {made.json()['token']}")
    for named in ("*", tag):
        assert get(clients[0], state_path("ZZZZZZ"), named).status_code == 404
        assert get(clients[0], "/api/v1/rooms/ZZZZZZ/events", named).status_code == 404
        for path in (state_path(code), f"/api/v1/rooms/{code}/events"):
            assert get(api_client(), path, named).status_code == 401
            refused = get(app, path, named)
            assert refused.status_code == 403 and refused.json()["errors"][0]["code"] == "insufficient_scope"
            assert "ETag" not in refused


def test_the_embedded_path_tags_as_the_prepared_statement_does(hearts_table, settings):
    code, clients, users = hearts_table()
    pass_three(clients[1], code)
    table = selectors.table_of(code=code)
    media = "application/json"
    for user in users:
        prepared = view_tags.state_tag(code=code, user=user, variant=media)
        assert prepared == view_tags.state_tag_of(table=table, user=user, variant=media)
        prepared_events = view_tags.events_tag(code=code, user=user, after=0, limit=50, variant=media)
        settings.TABLE_STORE_PORTABLE = True
        assert view_tags.state_tag(code=code, user=user, variant=media) == prepared
        assert view_tags.state_tag_of(table=selectors.table_of(code=code), user=user, variant=media) == prepared
        assert view_tags.events_tag(code=code, user=user, after=0, limit=50, variant=media) == prepared_events
        settings.TABLE_STORE_PORTABLE = False
    # And over HTTP: a tag read on one path holds on the other.
    tag = tag_of(clients[0], state_path(code))
    settings.TABLE_STORE_PORTABLE = True
    assert get(clients[0], state_path(code), tag).status_code == 304
    assert tag_of(clients[0], state_path(code)) == tag


def test_a_tag_never_stands_for_two_views(make_user):
    """Whatever happens to a room (moves, timeouts, hands ending, seeds), a viewer whose
    tag is the same reads the same view."""
    users = [make_user() for _ in range(4)]
    watcher = make_user()
    room = lobby.room_create(host=users[0], game="hearts", options={"target": 30})
    for user in users[1:]:
        lobby.room_join(code=room.code, user=user)
    seeds.client_seed_set(code=room.code, user=users[1], client_seed="one")
    lobby.room_start(code=room.code, user=users[0])
    players = dict(enumerate(users))
    seen: dict[tuple[int, str], Any] = {}
    rng = random.Random(3)

    def look() -> None:
        table = selectors.table_of(code=room.code)
        for viewer in [*users, watcher]:
            tag = view_tags.state_tag(code=room.code, user=viewer, variant="")
            assert tag == view_tags.state_tag_of(table=table, user=viewer, variant="")
            view = selectors.table_view(table=table, user=viewer)
            assert seen.setdefault((viewer.pk, str(tag)), view) == view

    for step in range(400):
        look()
        view = selectors.view_by_code(code=room.code, user=users[0])
        if view["phase"] == "round_over":
            # Between hands a player may set their seed for the next.
            seeds.client_seed_set(code=room.code, user=users[step % 4], client_seed=f"seed {step}")
            look()
        if not move_by_whoever_acts(room.code, players, rng):
            break
    look()
    assert len({tag for _, tag in seen}) > 100


def test_events_answer_their_tag_per_seat_and_query(hearts_table, api_client, make_user):
    code, clients, _ = hearts_table()
    watcher = api_client(make_user())
    events = f"/api/v1/rooms/{code}/events"
    first = get(clients[0], events)
    assert first.status_code == 200
    one_viewers_answer(first)
    tag = first["ETag"]
    assert get(clients[0], events, tag).status_code == 304
    assert get(clients[0], events, "*").status_code == 304
    # Another page of the same log, or the same page read by another seat, is another answer.
    assert get(clients[0], f"{events}?after=1", tag).status_code == 200
    assert get(clients[0], f"{events}?limit=2", tag).status_code == 200
    assert get(clients[1], events, tag).status_code == 200
    assert get(watcher, events, tag).status_code == 200
    # Seat 2 passes: seat 0 reads nothing of it yet, but the log moved; then nothing new.
    pass_three(clients[2], code)
    moved = get(clients[0], events, tag)
    assert moved.status_code == 200 and moved["ETag"] != tag
    assert get(clients[0], events, moved["ETag"]).status_code == 304


def test_a_304_of_the_log_reads_no_events(hearts_table):
    code, clients, _ = hearts_table()
    events = f"/api/v1/rooms/{code}/events?after=2&limit=5"
    tag = tag_of(clients[0], events)
    with CaptureQueriesContext(connection) as held:
        assert get(clients[0], events, tag).status_code == 304
    assert len(held.captured_queries) == 2, [q["sql"] for q in held.captured_queries]
    assert not [q["sql"] for q in held.captured_queries if "games_event" in q["sql"]]
