"""Provably fair deals through the API: the commitment shown before the players set
their seeds, the reveal after the hand, refusals, what no viewer sees early, and the
standalone verifier over every game and variant."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.models import Room, Round

from .helpers import error_code, play_one, state

pytestmark = pytest.mark.django_db

VERIFIER = Path(__file__).parents[2] / "tools" / "verify_deals.py"


def new_room(api_client, make_user, game: str, options: dict[str, Any]) -> tuple[str, Any]:
    host = api_client(make_user())
    res = host.post("/api/v1/rooms/", {"game": game, "options": options}, format="json")
    assert res.status_code == 201, res.content
    code = res.json()["code"]
    while any(s["user"] is None and not s["is_bot"] for s in host.get(f"/api/v1/rooms/{code}/").json()["seats"]):
        assert host.post(f"/api/v1/rooms/{code}/bots", {}, format="json").status_code == 201
    return code, host


def set_seed(client: Any, code: str, value: Any) -> Any:
    return client.put(f"/api/v1/rooms/{code}/client_seed", {"client_seed": value}, format="json")


def rounds(client: Any, code: str) -> list[dict[str, Any]]:
    res = client.get(f"/api/v1/rooms/{code}/rounds")
    assert res.status_code == 200, res.content
    return res.json()


def play_until(client: Any, code: str, done: Any, rng: random.Random, moves: int = 3000) -> dict[str, Any]:
    for _ in range(moves):
        view = state(client, code)
        if done(view) or view["status"] != "playing":
            return view
        play_one({0: client}, code, rng)
    raise AssertionError("never got there")


def verify(answer: list[dict[str, Any]]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(VERIFIER), "-"], input=json.dumps(answer), capture_output=True, text=True, timeout=60
    )


def test_the_deal_is_committed_before_the_seeds_and_revealed_after_the_hand(api_client, make_user):
    code, host = new_room(api_client, make_user, "hearts", {})
    lobby = state(host, code)
    committed = lobby["fairness"]
    assert committed["algorithm"] == "hmac-sha256-fisher-yates-v2" and committed["hand"] == 1
    assert len(committed["commitment"]) == 64
    res = set_seed(host, code, "my seed, with: punctuation ~")
    assert res.status_code == 200 and res.json()["client_seed"] == "my seed, with: punctuation ~"
    assert state(host, code)["seats"][0]["client_seed"] == "my seed, with: punctuation ~"

    assert host.post(f"/api/v1/rooms/{code}/start").status_code == 200
    first = state(host, code)
    assert first["fairness"] == committed  # the seed the lobby showed deals hand 1
    dealt_to_me = sorted(first["you"]["hand"])
    res = set_seed(host, code, "too late")
    assert res.status_code == 409 and error_code(res) == "already_dealt"
    assert rounds(host, code) == []

    rng = random.Random(3)
    pause = play_until(host, code, lambda v: v["round"] == 1 and v["phase"] == "round_over", rng)
    following = pause["fairness"]
    assert following["hand"] == 2 and following["commitment"] != committed["commitment"]
    assert set_seed(host, code, "second").status_code == 200

    (hand_1,) = rounds(host, code)
    fair = hand_1["fairness"]
    assert hashlib.sha256(fair["server_seed"].encode()).hexdigest() == committed["commitment"] == fair["commitment"]
    assert fair["client_seeds"] == ["my seed, with: punctuation ~", "", "", ""]
    assert (fair["code"], fair["hand"], fair["game"]) == (code, 1, "hearts")
    assert sorted(fair["deals"][0]["hands"][0]) == dealt_to_me and fair["deals"][0]["widow"] == []

    play_until(host, code, lambda v: v["round"] == 2 and v["phase"] == "round_over", rng)
    hand_2 = rounds(host, code)[1]["fairness"]
    assert hand_2["commitment"] == following["commitment"] and hand_2["client_seeds"][0] == "second"
    checked = verify(rounds(host, code))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "hand 1: verified" in checked.stdout and "hand 2: verified" in checked.stdout

    # The verifier fails a hand whose revealed deal was changed.
    answer = rounds(host, code)
    hands = answer[1]["fairness"]["deals"][0]["hands"]
    hands[0][0], hands[2][0] = hands[2][0], hands[0][0]
    tampered = verify(answer)
    assert tampered.returncode == 1 and "hand 2: FAILED" in tampered.stdout


@pytest.mark.parametrize(
    "value, status, code",
    [
        ("x" * 65, 400, "max_length"),
        ("café", 400, "invalid"),
        ("tab\there", 400, "invalid_character"),
        (7, 400, "invalid"),
        (None, 400, "null"),
    ],
)
def test_a_bad_client_seed_is_refused_and_changes_nothing(api_client, make_user, value, status, code):
    room, host = new_room(api_client, make_user, "moon", {})
    before = Room.objects.get(code=room).version
    res = set_seed(host, room, value)
    assert res.status_code == status and error_code(res) == code
    assert res.json()["errors"][0]["attr"] in ("client_seed", None)
    assert Room.objects.get(code=room).version == before
    assert state(host, room)["seats"][0]["client_seed"] == ""


def test_only_a_seated_player_sets_a_seed_and_not_after_the_match(api_client, make_user):
    room, host = new_room(api_client, make_user, "moon", {})
    stranger = api_client(make_user())
    res = set_seed(stranger, room, "mine")
    assert res.status_code == 403 and error_code(res) == "not_seated"
    res = host.put(f"/api/v1/rooms/{room}/client_seed", {"client_seed": "a", "extra": 1}, format="json")
    assert res.status_code == 400
    assert set_seed(host, room, "").status_code == 200  # the empty seed is allowed
    Room.objects.filter(code=room).update(status="finished")
    res = set_seed(host, room, "after")
    assert res.status_code == 409 and error_code(res) == "not_playing"


FORBIDDEN_KEYS = {"server_seed", "deals", "fair"}


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


@pytest.mark.parametrize("game, options", [("hearts", {}), ("moon", {"players": 3})])
def test_no_viewer_learns_a_seed_or_a_deal_before_the_hand_is_over(api_client, make_user, game, options):
    """Every answer every viewer can get, after every move: no seat's client sees the
    server seed of a hand not over (nor the next hand's), nor the record of the deals."""
    code, host = new_room(api_client, make_user, game, options)
    spectator = api_client(make_user())
    assert host.post(f"/api/v1/rooms/{code}/start").status_code == 200
    rng = random.Random(5)
    checked = 0
    for _ in range(400):
        room = Room.objects.get(code=code)
        hidden = [room.next_server_seed] if room.next_server_seed else []
        hidden += [r.server_seed for r in Round.objects.filter(room=room, result__isnull=True)]
        # Any run of 12 hex characters of a secret seed counts as a leak.
        pieces = {seed[k : k + 12] for seed in hidden for k in range(len(seed) - 11)}
        finished = {r.number for r in Round.objects.filter(room=room, result__isnull=False)}
        for client in (host, spectator):
            for path in ("state", "events", "rounds", ""):
                res = client.get(f"/api/v1/rooms/{code}/{path}")
                text = res.content.decode()
                assert not any(p in text for p in pieces), (path, res.json())
                body = res.json()
                if path == "rounds":
                    assert {r["round"] for r in body} == finished
                    assert all(r["fairness"]["hand"] in finished for r in body)
                else:
                    assert not _keys(body) & FORBIDDEN_KEYS, path
                checked += 1
        view = state(host, code)
        if view["round"] >= 2 or view["status"] != "playing":
            break
        play_one({0: host}, code, rng)
    assert checked > 50 and Round.objects.filter(room__code=code, result__isnull=False).exists()


VARIANTS = [
    ("hearts", {}),
    ("hearts", {"preset": "sweedo", "fourth_hand": "funky", "moon": "shooter_choice"}),
    ("moon", {"players": 3}),
    ("moon", {"players": 3, "widow": "compulsory", "moon_any_time": True}),
    ("moon", {"players": 4, "trump_instead_of_follow": True}),
    ("kali_tidi", {"players": 2, "team_mode": "teams"}),
    ("kali_tidi", {"players": 3, "team_mode": "random"}),
    ("kali_tidi", {"players": 4, "team_mode": "cards", "trump_card": "three_of_spades"}),
    ("kali_tidi", {"players": 4, "decks": 2, "team_mode": "teams"}),
    ("kali_tidi", {"players": 5, "team_mode": "cards", "partner_rule": "last"}),
    ("kali_tidi", {"players": 6, "team_mode": "random"}),
    ("kali_tidi", {"players": 7, "team_mode": "cards"}),
]


@pytest.mark.parametrize("game, options", VARIANTS, ids=[f"{g}-{json.dumps(o, sort_keys=True)}" for g, o in VARIANTS])
def test_the_verifier_checks_every_game_and_variant(api_client, make_user, game, options):
    code, host = new_room(api_client, make_user, game, options)
    assert host.post(f"/api/v1/rooms/{code}/start").status_code == 200
    play_until(host, code, lambda v: len(rounds(host, code)) >= 2, random.Random(7))
    answer = rounds(host, code)
    assert answer and all(r["fairness"] is not None for r in answer)
    checked = verify(answer)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count(": verified") == len(answer)
