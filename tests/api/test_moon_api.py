"""Moon over HTTP alone: whole matches with humans and bots, and the widow kept secret."""

from __future__ import annotations

import random
from typing import Any

import pytest

from .helpers import act, error_code, play_one, play_to_end, state

pytestmark = pytest.mark.django_db


@pytest.fixture
def moon_table(api_client, make_user) -> Any:
    """A started Moon room: (code, {seat: client}); bots fill the seats after the humans."""

    def make(players: int = 3, humans: int = 1, **options: Any) -> tuple[str, dict[int, Any]]:
        host = api_client(make_user())
        res = host.post("/api/v1/rooms/", {"game": "moon", "options": {"players": players, **options}}, format="json")
        assert res.status_code == 201, res.content
        code = res.json()["code"]
        clients = {0: host}
        for seat in range(1, humans):
            client = api_client(make_user())
            assert client.post(f"/api/v1/rooms/{code}/join", {}, format="json").json()["seat"] == seat
            clients[seat] = client
        for _ in range(players - humans):
            assert host.post(f"/api/v1/rooms/{code}/bots", {}, format="json").status_code == 201
        assert host.post(f"/api/v1/rooms/{code}/start").status_code == 200
        return code, clients

    return make


def tiles_in(obj: Any) -> set[str]:
    if isinstance(obj, str):
        return {obj} if obj in TILES else set()
    if isinstance(obj, dict):
        return set().union(*(tiles_in(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(tiles_in(v) for v in obj)) if obj else set()
    return set()


TILES = {f"{h}-{low}" for h in range(7) for low in range(h + 1)}


def test_catalogue_lists_moon_with_its_options(api_client, make_user):
    games = {g["key"]: g for g in api_client(make_user()).get("/api/v1/games/").json()}
    moon = games["moon"]
    assert moon["players"] == {"min": 3, "max": 4}
    for name in ("players", "moon_any_time", "widow", "trump_instead_of_follow", "turn_seconds"):
        assert name in moon["options"]


def test_three_player_match_with_two_bots_over_http(moon_table, api_client, make_user):
    code, clients = moon_table(players=3, humans=1)
    final = play_to_end(clients, code, seed=3)
    assert final["status"] == "finished" and final["phase"] == "match_over"
    summary = clients[0].get(f"/api/v1/rooms/{code}/rounds").json()
    assert summary and summary[-1]["scores"] == final["scores"]
    assert max(final["scores"]) >= 21 or any(r.get("moon_made") for r in summary)
    spectator = api_client(make_user()).get(f"/api/v1/rooms/{code}/").json()
    assert spectator["status"] == "finished"


def test_four_players_two_humans_partnership_scores(moon_table):
    code, clients = moon_table(players=4, humans=2)
    view = state(clients[0], code)
    assert [s["team"] for s in view["seats"]] == [0, 1, 0, 1]
    final = play_to_end(clients, code, seed=5)
    assert final["status"] == "finished"
    assert final["scores"][0] == final["scores"][2] and final["scores"][1] == final["scores"][3]


def test_widow_and_discard_reach_only_the_bidder(moon_table, api_client, make_user):
    """Three humans: whoever wins the bid sees the widow; the others, spectators and the
    event log never do, before or after the hand."""
    code, clients = moon_table(players=3, humans=3, widow="compulsory")
    spectator = api_client(make_user())
    rng = random.Random(11)
    seen_widow = None
    for _ in range(400):
        view = state(clients[0], code)
        # The hand's end; a deal that makes the bidder's hand score the match's target ends
        # the match with it.
        if view["phase"] in ("round_over", "match_over"):
            break
        if view["phase"] == "widow":
            bidder = view["bidder"]
            mine = state(clients[bidder], code)
            seen_widow = mine["you"]["widow"]
            assert seen_widow in TILES
            others = [s for s in clients if s != bidder]
            for seat in others:
                theirs = state(clients[seat], code)
                assert theirs["you"]["widow"] is None
                assert seen_widow not in tiles_in(theirs) - set(theirs["you"]["hand"])
        play_one(clients, code, rng)
    assert seen_widow is not None
    view = state(clients[0], code)
    bidder = view["bidder"]
    discard = state(clients[bidder], code)["you"]["discard"]
    assert discard in TILES
    for seat in (s for s in clients if s != bidder):
        mine = state(clients[seat], code)
        log = clients[seat].get(f"/api/v1/rooms/{code}/events").json()
        assert discard not in tiles_in(mine) | tiles_in(log)
    assert discard not in tiles_in(spectator.get(f"/api/v1/rooms/{code}/state").json())
    assert discard not in tiles_in(spectator.get(f"/api/v1/rooms/{code}/events").json())
    # After the hand its deals are revealed whole, by design (provably fair deals): the
    # widow dealt is public then; the summary itself still does not name the discard.
    summary = [
        {k: v for k, v in r.items() if k != "fairness"} for r in spectator.get(f"/api/v1/rooms/{code}/rounds").json()
    ]
    assert discard not in tiles_in(summary)


def test_moon_errors_over_http(moon_table):
    code, clients = moon_table(players=3, humans=3)
    view = state(clients[0], code)
    assert view["phase"] == "bid"
    seat = view["to_act"][0]
    mine = state(clients[seat], code)
    res = act(clients[seat], code, mine["version"], {"type": "bid", "value": 3})
    assert res.status_code == 400 and error_code(res) == "bid_too_low"
    res = act(clients[seat], code, mine["version"], {"type": "bid", "value": 21})
    assert res.status_code == 400 and error_code(res) == "moon_not_allowed"
    res = act(clients[seat], code, mine["version"], {"type": "play", "tile": "6-6"})
    assert res.status_code == 409 and error_code(res) == "wrong_phase"
    other = next(s for s in clients if s != seat)
    res = act(clients[other], code, state(clients[other], code)["version"], {"type": "pass"})
    assert res.status_code == 409 and error_code(res) == "not_your_turn"
    assert state(clients[0], code)["version"] == view["version"]
