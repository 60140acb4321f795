"""GET me/turns: the rooms where the caller must act now, read off the seats' turn marks
that the store keeps at every change."""

from __future__ import annotations

import random
from datetime import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.services import table_moderation
from tests.rules.support import without_claim

from .helpers import act, concrete, state

pytestmark = pytest.mark.django_db


def turns(client) -> list[dict]:
    res = client.get("/api/v1/me/turns")
    assert res.status_code == 200, res.content
    return res.json()


def test_turns_follow_the_game_move_by_move(hearts_table):
    code, clients, _ = hearts_table({"turn_seconds": 600, "abandon_seconds": 3600})
    rng = random.Random(7)
    since: dict[int, str] = {}
    for _ in range(70):
        views = {seat: state(client, code) for seat, client in clients.items()}
        for seat, client in clients.items():
            view, listed = views[seat], turns(client)
            if seat in view["to_act"]:
                assert len(listed) == 1, (seat, listed)
                turn = listed[0]
                assert turn["code"] == code and turn["game"] == "hearts" and turn["name"] == ""
                assert turn["version"] == view["version"]
                assert turn["phase"] == view["phase"]
                assert turn["deadline"] == view["deadline"] is not None
                # Its start stays put while the game waits for the seat and others act.
                assert since.setdefault(seat, turn["since"]) == turn["since"]
            else:
                assert listed == [], (seat, view["phase"], view["to_act"])
                since.pop(seat, None)
        mover = rng.choice([s for s in views[0]["to_act"] if s in clients])
        legal = views[mover]["you"]["legal_actions"]
        res = act(
            clients[mover],
            code,
            views[mover]["version"],
            concrete(rng.choice(without_claim(legal)), rng),
        )
        assert res.status_code == 200, res.content
        # A seat that acts and is waited for again (it took the trick) begins a new turn.
        since.pop(mover, None)


def test_one_player_in_several_rooms_gets_them_soonest_deadline_first(api_client, make_user):
    mine = api_client(make_user("many"))
    by_clock = {}
    for clock in (900, 120, 600, 300):
        host = api_client(make_user())
        options = {"turn_seconds": clock, "abandon_seconds": 3600}
        code = host.post("/api/v1/rooms/", {"game": "hearts", "options": options}, format="json").json()["code"]
        assert mine.post(f"/api/v1/rooms/{code}/join", {}, format="json").status_code == 201
        for _ in range(2):
            assert host.post(f"/api/v1/rooms/{code}/bots", {}, format="json").status_code == 201
        assert host.post(f"/api/v1/rooms/{code}/start").status_code == 200
        by_clock[clock] = code
    listed = turns(mine)
    assert [t["code"] for t in listed] == [by_clock[c] for c in sorted(by_clock)]
    deadlines = [datetime.fromisoformat(t["deadline"]) for t in listed]
    assert deadlines == sorted(deadlines)


def test_the_query_count_does_not_grow_with_the_rooms(api_client, make_user):
    me = make_user("counted")
    mine = api_client(me)

    def join_new_room() -> None:
        host = api_client(make_user())
        code = host.post("/api/v1/rooms/", {"game": "hearts", "options": {}}, format="json").json()["code"]
        assert mine.post(f"/api/v1/rooms/{code}/join", {}, format="json").status_code == 201
        for _ in range(2):
            host.post(f"/api/v1/rooms/{code}/bots", {}, format="json")
        assert host.post(f"/api/v1/rooms/{code}/start").status_code == 200

    join_new_room()
    with CaptureQueriesContext(connection) as one:
        assert len(turns(mine)) == 1
    for _ in range(4):
        join_new_room()
    with CaptureQueriesContext(connection) as five:
        assert len(turns(mine)) == 5
    assert len(five) == len(one)


def test_closed_and_finished_rooms_are_not_turns(hearts_table):
    code, clients, _ = hearts_table()
    assert turns(clients[2])[0]["code"] == code
    table_moderation.room_close(code=code, reason="Spam")
    assert all(turns(client) == [] for client in clients.values())


def test_turns_need_a_signed_in_caller(api_client):
    res = api_client().get("/api/v1/me/turns")
    assert res.status_code == 401


def test_a_seat_that_acts_and_is_waited_for_again_begins_a_new_turn(hearts_table):
    code, clients, _ = hearts_table()
    views = {seat: state(client, code) for seat, client in clients.items()}
    leader = next(seat for seat, view in views.items() if "2C" in view["you"]["hand"])
    rng = random.Random(3)
    # Everyone else passes first; the holder of the two of clubs passes last and leads.
    for seat in [*(s for s in clients if s != leader), leader]:
        view = state(clients[seat], code)
        if seat == leader:
            before = turns(clients[seat])[0]
        res = act(clients[seat], code, view["version"], concrete(view["you"]["legal_actions"][0], rng))
        assert res.status_code == 200, res.content
    after = turns(clients[leader])
    assert [t["code"] for t in after] == [code]
    assert after[0]["phase"] != before["phase"]
    assert after[0]["since"] > before["since"]
    assert after[0]["version"] > before["version"]
