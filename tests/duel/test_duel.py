"""Duel, registered from this folder alone, goes wherever a game goes: the catalogue, the
API's document, play over HTTP to the end of a match, ratings, replay, and the
conformance suite."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest
from drf_spectacular.validation import validate_schema
from jsonschema import Draft202012Validator

from games import rules
from games.models import Round
from games.replay import round_replay
from games.rules.conformance import play_run, profile_for
from ratings.models import Placing, Rating, RatingChange
from tests.api.helpers import act, state
from tests.api.test_game_schemas import _strict
from tests.game_params import game_keys
from tests.ratings.play import play_out, room_ready

from .engine import Duel
from .profile import DuelProfile


def _document(client: Any) -> dict[str, Any]:
    res = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert res.status_code == 200
    document: dict[str, Any] = json.loads(res.content)
    return document


def _validator(document: dict[str, Any]) -> Any:
    schemas = _strict(document["components"]["schemas"])

    def validate(name: str, value: Any) -> None:
        root = {"$ref": f"#/components/schemas/{name}", "components": {"schemas": schemas}}
        errors = list(Draft202012Validator(root).iter_errors(json.loads(json.dumps(value))))
        assert not errors, f"{name}: {errors[0].message} at {list(errors[0].absolute_path)}"

    return validate


def test_it_is_on_the_catalogue_after_the_others_while_registered(duel: rules.Game) -> None:
    assert [g.key for g in rules.all_games()] == [*game_keys(), "duel"]
    # Registered from tests/, Duel is on the catalogue but on no list of the games' tests.
    assert "duel" not in game_keys()
    assert rules.get("duel") is duel and duel.lowest_wins


@pytest.mark.parametrize("run", DuelProfile(Duel()).runs(), ids=lambda r: r.id)
def test_the_conformance_suite_plays_it(duel: rules.Game, run: Any) -> None:
    profile = profile_for(duel)
    assert isinstance(profile, DuelProfile), "the suite finds the profile beside the engine"
    stats = play_run(profile, run)
    assert stats["hands"] == run.hands
    profile.check_stats(run, stats)


class _StrayDuel(Duel):
    """Duel whose states carry a key its state type does not declare."""

    def new_round(self, **kwargs: Any) -> Any:
        return {**super().new_round(**kwargs), "stray": True}


def test_the_conformance_suite_refuses_a_state_that_strays_from_its_type() -> None:
    profile = DuelProfile(_StrayDuel())
    with pytest.raises(AssertionError, match="strays from its type"):
        play_run(profile, profile.runs()[0])


@pytest.mark.django_db
def test_the_document_describes_it_and_validates(api_client: Any) -> None:
    document = _document(api_client())
    validate_schema(document)
    schemas = document["components"]["schemas"]
    for name in ("DuelView", "DuelSeat", "DuelYou", "DuelLegalAction", "DuelResult", "DuelPlayAction", "DuelAction"):
        assert name in schemas, name
    assert {"$ref": "#/components/schemas/DuelView"} in schemas["GameView"]["anyOf"]
    assert {"$ref": "#/components/schemas/DuelAction"} in schemas["ActionRequest"]["properties"]["action"]["anyOf"]
    assert "duel" in schemas["GameEnum"]["enum"]


@pytest.mark.django_db
def test_two_people_play_a_match_over_http_each_answer_as_documented(api_client: Any, make_user: Any) -> None:
    validate = _validator(_document(api_client()))
    ann, bob = make_user(), make_user()
    clients = {0: api_client(ann), 1: api_client(bob)}
    catalogue = clients[0].get("/api/v1/games/").json()
    assert catalogue[-1]["key"] == "duel" and catalogue[-1]["players"] == {"min": 2, "max": 3}
    res = clients[0].post("/api/v1/rooms/", {"game": "duel", "options": {"hands": 2}}, format="json")
    assert res.status_code == 201, res.content
    code = res.json()["code"]
    assert clients[1].post(f"/api/v1/rooms/{code}/join", {}, format="json").json()["seat"] == 1
    validate("LobbyView", state(clients[0], code))
    assert clients[0].post(f"/api/v1/rooms/{code}/start").status_code == 200

    rng = random.Random(5)
    rounds_seen = set()
    for _ in range(200):
        views = {seat: state(client, code) for seat, client in clients.items()}
        for view in views.values():
            validate("GameView", view)
        if views[0]["status"] != "playing":
            break
        rounds_seen.add(views[0]["round"])
        seat = views[0]["to_act"][0]
        legal = views[seat]["you"]["legal_actions"]
        for mover, view in views.items():
            assert bool(view["you"]["legal_actions"]) == (mover in view["to_act"])
        action = rng.choice(legal)
        validate("DuelAction", action)
        res = act(clients[seat], code, views[seat]["version"], action)
        assert res.status_code == 200, res.content
    else:
        raise AssertionError("the match did not end")

    final = state(clients[0], code)
    assert final["status"] == "finished" and final["phase"] == "match_over" and rounds_seen == {1, 2}
    result = final["last_round"]
    validate("DuelResult", result)
    assert sum(result["scores"]) == 12 and result["winners"] == [
        s for s, t in enumerate(result["scores"]) if t == min(result["scores"])
    ]
    replay = clients[1].get(f"/api/v1/rooms/{code}/replay")
    assert replay.status_code == 200, replay.content
    assert [h["round"] for h in replay.json()["hands"]] == [1, 2]


@pytest.mark.django_db
def test_a_card_it_does_not_allow_is_refused(api_client: Any, make_user: Any) -> None:
    host = api_client(make_user())
    code = host.post("/api/v1/rooms/", {"game": "duel", "options": {}}, format="json").json()["code"]
    assert host.post(f"/api/v1/rooms/{code}/bots", {}, format="json").status_code == 201
    assert host.post(f"/api/v1/rooms/{code}/start").status_code == 200
    view = state(host, code)
    assert view["to_act"] == [0], "the computer player leads and plays at once"
    legal = {a["card"] for a in view["you"]["legal_actions"]}
    others = [c for c in view["you"]["hand"] if c not in legal]
    if view["trick"] and others:
        res = act(host, code, view["version"], {"type": "play", "card": others[0]})
        assert res.status_code == 400 and res.json()["errors"][0]["code"] == "must_follow_suit"
    res = act(host, code, view["version"], {"type": "play", "card": "2C"})
    assert res.status_code == 400 and res.json()["errors"][0]["code"] == "card_not_in_hand"


@pytest.mark.django_db
def test_a_rated_match_of_people_places_the_fewest_tricks_first(make_user: Any) -> None:
    people = [make_user(), make_user(), make_user()]
    room = play_out(room_ready("duel", {"players": 3, "hands": 2}, people), people, seed=3)
    assert room.status == "finished"
    placings = list(Placing.objects.filter(room=room).order_by("place", "seat"))
    assert len(placings) == 3
    # The game counts points against: every place is at least as few points as the next.
    assert all(a.score <= b.score for a, b in itertools.pairwise(placings))
    assert placings[0].won and placings[0].place == 1
    assert all(p.won == (p.score == placings[0].score) for p in placings)
    assert Rating.objects.filter(game="duel").count() == 3
    changes = {c.user_id: c for c in RatingChange.objects.filter(room=room)}
    assert set(changes) == {u.id for u in people}
    best, worst = placings[0], placings[-1]
    if best.place != worst.place:
        assert changes[best.user_id].mu_after > changes[worst.user_id].mu_after


@pytest.mark.django_db
def test_every_stored_hand_replays(make_user: Any) -> None:
    host = make_user()
    room = play_out(room_ready("duel", {"players": 2, "hands": 2}, [host], bots=1), [host], seed=8)
    rounds = list(Round.objects.filter(room=room))
    assert len(rounds) == 2
    for round_ in rounds:
        report = round_replay(round_=round_)
        assert report.matches, report.detail
