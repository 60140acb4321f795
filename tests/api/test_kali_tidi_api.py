"""Kali Tidi over HTTP alone: lobby teams, card removal, whole matches with bots in every
team mode, and hidden partners kept hidden from everyone else until the reveal."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.rules.support import without_claim

from .helpers import act, concrete, error_code, play_to_end, state

pytestmark = pytest.mark.django_db


def create(client, **options: Any) -> Any:
    return client.post("/api/v1/rooms/", {"game": "kali_tidi", "options": options}, format="json")


def test_catalogue_and_invalid_combinations(api_client, make_user):
    client = api_client(make_user())
    games = {g["key"]: g for g in client.get("/api/v1/games/").json()}
    assert games["kali_tidi"]["players"] == {"min": 2, "max": 7}
    assert games["kali_tidi"]["options"]["team_sizes"]["type"] == "array"
    for options, attr in (
        ({"players": 2, "team_mode": "random"}, "team_mode"),
        ({"players": 4, "team_mode": "cards", "partner_rule": "last"}, "partner_rule"),
        ({"players": 5, "team_sizes": [1, 1]}, "team_sizes"),
        ({"players": 4, "min_bid": 3}, "min_bid"),
    ):
        res = create(client, **options)
        assert res.status_code == 400, options
        assert res.json()["errors"][0]["code"] == "invalid" and res.json()["errors"][0]["attr"] == attr


def test_teams_lobby_choose_switch_and_start(api_client, make_user):
    host = api_client(make_user())
    res = create(host, players=4, team_sizes=[1, 3])
    assert res.status_code == 201
    code = res.json()["code"]
    a, b = api_client(make_user()), api_client(make_user())
    res = a.post(f"/api/v1/rooms/{code}/join", {"team": 0}, format="json")
    assert res.status_code == 409 and error_code(res) == "team_full"  # the host fills team 0
    assert a.post(f"/api/v1/rooms/{code}/join", {"team": 1}, format="json").status_code == 201
    assert b.post(f"/api/v1/rooms/{code}/join", {}, format="json").json()["team"] == 1
    assert host.post(f"/api/v1/rooms/{code}/bots", {"team": 1}, format="json").json()["team"] == 1
    seats = host.get(f"/api/v1/rooms/{code}/").json()["seats"]
    assert [s["team"] for s in seats] == [0, 1, 1, 1]
    assert host.post(f"/api/v1/rooms/{code}/start").status_code == 200
    view = state(host, code)
    assert view["phase"] == "bid" and view["to_act"] == [0]  # the host bids first
    assert [s["team"] for s in view["seats"]] == [0, 1, 1, 1]


def seat_table(api_client, make_user, humans: int, players: int, **options: Any) -> tuple[str, dict[int, Any]]:
    host = api_client(make_user())
    res = create(host, players=players, **options)
    assert res.status_code == 201, res.content
    code = res.json()["code"]
    clients = {0: host}
    for seat in range(1, humans):
        client = api_client(make_user())
        assert client.post(f"/api/v1/rooms/{code}/join", {}, format="json").status_code == 201
        clients[seat] = client
    for _ in range(players - humans):
        assert host.post(f"/api/v1/rooms/{code}/bots", {}, format="json").status_code == 201
    assert host.post(f"/api/v1/rooms/{code}/start").status_code == 200
    return code, clients


@pytest.mark.parametrize(
    "players, options",
    [
        (4, {"team_mode": "teams", "team_sizes": [2, 2]}),
        (5, {"team_mode": "random"}),
        (3, {"team_mode": "cards"}),
        (6, {"team_mode": "cards", "decks": 2, "partner_rule": "last", "trump_card": "three_of_spades"}),
    ],
)
def test_whole_match_with_bots(api_client, make_user, players, options):
    code, clients = seat_table(api_client, make_user, humans=1, players=players, **options)
    final = play_to_end(clients, code, seed=players)
    assert final["status"] == "finished" and final["phase"] == "match_over"
    rounds = clients[0].get(f"/api/v1/rooms/{code}/rounds").json()
    assert rounds and rounds[-1]["scores"] == final["scores"]
    target = final["target"]
    assert max(final["scores"]) >= target
    for row in rounds:
        for key in ("bidder", "bid", "trump", "called", "partners", "bidding_points", "other_points", "scores"):
            assert key in row
        assert row["bidding_points"] + row["other_points"] == 250 * (2 if players >= 5 else 1)


def test_removal_by_the_host_over_http(api_client, make_user):
    code, clients = seat_table(api_client, make_user, humans=2, players=3, team_mode="cards")
    host, other = clients[0], clients[1]
    view = state(other, code)
    assert (view["phase"], view["remover"], view["remove_count"]) == ("remove", 0, 1)
    assert view["you"]["legal_actions"] == []
    mine = state(host, code)
    (template,) = mine["you"]["legal_actions"]
    assert template["type"] == "remove_cards" and template["count"] == 1
    res = act(host, code, mine["version"], {"type": "remove_cards", "cards": ["AS"]})
    assert res.status_code == 400 and error_code(res) == "card_has_points"
    res = act(host, code, mine["version"], {"type": "remove_cards", "cards": ["2C"]})
    assert res.status_code == 200 and res.json()["removed"] == ["2C"]
    assert all(s["cards_left"] == 17 for s in res.json()["seats"])


def test_hidden_partner_is_hidden_from_everyone_else_until_revealed(api_client, make_user):
    """Five humans in cards mode: at every step every other player and a spectator see no
    partner that has not been revealed, in the view, the seats, the event log and rounds."""
    code, clients = seat_table(api_client, make_user, humans=5, players=5, team_mode="cards", decks=1)
    spectator = api_client(make_user())
    rng = random.Random(5)
    revealed: set[int] = set()
    for _ in range(400):
        view = state(clients[0], code)
        if view["phase"] in ("round_over", "match_over"):
            break
        seat = view["to_act"][0]
        mine = state(clients[seat], code)
        res = act(
            clients[seat],
            code,
            mine["version"],
            concrete(rng.choice(without_claim(mine["you"]["legal_actions"])), rng),
        )
        assert res.status_code == 200, res.content
        log = spectator.get(f"/api/v1/rooms/{code}/events").json()
        revealed = {e["seat"] for e in log if e["type"] == "partner_revealed"}
        for viewer in [*clients.values(), spectator]:
            seen = viewer.get(f"/api/v1/rooms/{code}/state").json()
            assert set(seen["partners"]) == revealed
            assert {s["seat"] for s in seen["seats"] if s.get("partner")} == revealed
            assert all(s["team"] is None for s in seen["seats"])
            events = viewer.get(f"/api/v1/rooms/{code}/events").json()
            assert {e["seat"] for e in events if e["type"] == "partner_revealed"} == revealed
        if res.json()["phase"] not in ("round_over", "match_over"):
            assert spectator.get(f"/api/v1/rooms/{code}/rounds").json() == []
    assert state(clients[0], code)["phase"] in ("round_over", "match_over")
    assert revealed, "the hand ended without any partner revealed"


def test_teams_drawn_at_the_start_are_the_rooms_as_the_views(api_client, make_user):
    """In random mode the start draws the teams: the room names them as the view does."""
    code, clients = seat_table(api_client, make_user, humans=2, players=4, team_mode="random")
    room = clients[1].get(f"/api/v1/rooms/{code}/").json()
    view = state(clients[1], code)
    drawn = [s["team"] for s in view["seats"]]
    assert sorted(drawn) == [0, 0, 1, 1]
    assert [s["team"] for s in sorted(room["seats"], key=lambda s: s["seat"])] == drawn
