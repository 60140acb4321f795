"""The replay of a match: refused to everyone until the match is over, then every hand's
deal and every action, which the engine turns back into the stored results."""

from __future__ import annotations

import random

import pytest

from games import rules
from games.models import Room, Round
from games.replay import round_dealt

from .helpers import error_code, play_one, state

pytestmark = pytest.mark.django_db


def refused_to_all(viewers, code):
    for client in viewers:
        res = client.get(f"/api/v1/rooms/{code}/replay")
        assert res.status_code == 409, res.content
        assert error_code(res) == "match_not_over"
        assert res.json()["errors"][0]["detail"] == "The replay is available once the match is over."


def test_replay_hidden_until_the_end_then_rebuilds_every_hand(hearts_table, api_client, make_user):
    code, clients, _ = hearts_table({"target": 50}, humans=2)
    viewers = [*clients.values(), api_client(make_user())]
    refused_to_all(viewers, code)
    rng = random.Random(3)
    moves = 0
    while state(clients[0], code)["status"] == "playing":
        play_one(clients, code, rng)
        moves += 1
        if moves % 17 == 0:  # mid-trick, mid-pass, between hands: never anything
            refused_to_all(viewers, code)
    assert api_client().get(f"/api/v1/rooms/{code}/replay").status_code == 401

    res = viewers[-1].get(f"/api/v1/rooms/{code}/replay")
    assert res.status_code == 200, res.content
    body = res.json()
    assert [p["seat"] for p in body["players"]] == [0, 1, 2, 3]
    assert [p["is_bot"] for p in body["players"]] == [False, False, True, True]
    assert body["players"][0]["username"] == "player1" and body["players"][2]["username"] is None
    summary = clients[0].get(f"/api/v1/rooms/{code}/rounds").json()
    assert [h["round"] for h in body["hands"]] == [r["round"] for r in summary] and len(summary) >= 2
    assert body["scores"] == summary[-1]["scores"]

    room = Room.objects.get(code=code)
    game = rules.get("hearts")
    for hand, told in zip(body["hands"], summary, strict=True):
        round_ = Round.objects.get(room=room, number=hand["round"])
        dealt = round_dealt(round_=round_, players=4)
        assert hand["deal"]["hands"] == dealt["hands"] and hand["deal"]["widow"] == []
        # The deal the fairness reveal shows, in the order dealt.
        assert [sorted(h) for h in hand["deal"]["hands"]] == [sorted(h) for h in told["fairness"]["deals"][0]["hands"]]
        assert [a["seq"] for a in hand["actions"]] == list(range(1, len(hand["actions"]) + 1))
        rebuilt = dealt
        tricks = 0
        for step in hand["actions"]:
            rebuilt = game.apply(rebuilt, step["seat"], step["action"]).state
            assert step["hands"] == rebuilt["hands"]
            if step["trick_winner"] is not None:
                tricks += 1
                assert len(step["trick"]) == 4 and step["trick_winner"] == rebuilt["last_trick"]["winner"]
        assert tricks == 13
        assert rebuilt["result"] == hand["result"] == {k: told[k] for k in hand["result"]}
        assert hand["result"]["scores"] == told["scores"]


def test_an_abandoned_match_has_no_replay(hearts_table, api_client, make_user):
    code, _, _ = hearts_table(humans=1)
    Room.objects.filter(code=code).update(status="abandoned")
    res = api_client(make_user()).get(f"/api/v1/rooms/{code}/replay")
    assert res.status_code == 409 and error_code(res) == "room_closed"


def test_unknown_room(api_client, make_user):
    res = api_client(make_user()).get("/api/v1/rooms/ZZZZZZ/replay")
    assert res.status_code == 404 and error_code(res) == "not_found"


@pytest.mark.parametrize(
    "game, options, widow",
    [
        ("moon", {"players": 3}, 1),
        ("moon", {"players": 4}, 0),
        ("kali_tidi", {"players": 5, "team_mode": "cards"}, 0),
        ("kali_tidi", {"players": 3, "team_mode": "random"}, 0),
    ],
)
def test_every_game_replays_its_hands_face_up(api_client, make_user, game, options, widow):
    host = make_user()
    client = api_client(host)
    code = client.post("/api/v1/rooms/", {"game": game, "options": options}, format="json").json()["code"]
    seats = rules.get(game).seat_count(Room.objects.get(code=code).options)
    for _ in range(seats - 1):
        assert client.post(f"/api/v1/rooms/{code}/bots", {}, format="json").status_code == 201
    assert client.post(f"/api/v1/rooms/{code}/start").status_code == 200
    rng = random.Random(5)
    while state(client, code)["status"] == "playing":
        if Round.objects.filter(room__code=code, result__isnull=False).count() == 2:
            refused_to_all([client], code)
            # Ended here as far as the replay cares: the finished hands are shown.
            Room.objects.filter(code=code).update(status="finished")
            break
        play_one({0: client}, code, rng)
    body = client.get(f"/api/v1/rooms/{code}/replay").json()
    assert 1 <= len(body["hands"]) <= 2
    engine = rules.get(game)
    for hand in body["hands"]:
        assert len(hand["deal"]["hands"]) == seats and all(hand["deal"]["hands"])
        assert len(hand["deal"]["widow"]) == widow
        winners = [a["trick_winner"] for a in hand["actions"] if a["trick_winner"] is not None]
        plays = [a for a in hand["actions"] if a["action"]["type"] == "play"]
        assert len(plays) == len(winners) * seats
        before = hand["deal"]["hands"]
        for step in hand["actions"]:
            if step["action"]["type"] != "play":
                before = step["hands"]
                continue
            thing = step["action"].get("card", step["action"].get("tile"))
            # Two decks hold two of a card: one fewer, not none.
            assert step["hands"][step["seat"]].count(thing) == before[step["seat"]].count(thing) - 1
            before = step["hands"]
            assert {"seat": step["seat"], ("tile" if game == "moon" else "card"): thing} in step["trick"]
        assert hand["result"] is not None and engine.key == body["game"]
