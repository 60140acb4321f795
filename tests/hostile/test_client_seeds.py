"""`PUT client_seed` through gunicorn: a seat sets its seed a bounded number of times a
minute (429 `throttled` with Retry-After beyond), and a seed neither moves the room's
version nor sends a notice, so the others' `next_round` sent with the version they read
goes through during a storm of seeds; the hand still deals from the seeds set, and the
standalone verifier checks it against the server's reveal."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.helpers import concrete, without_claim
from tests.servers import database_url, free_port, server_env, serving

from .conftest import LOGS
from .support import assert_error_shape, token_client

SEED_LIMIT = 5
VERIFIER = Path(__file__).resolve().parents[2] / "tools" / "verify_deals.py"


@pytest.fixture(scope="module")
def seeds_url(django_db_setup: Any, django_db_blocker: Any) -> Iterator[str]:
    port = free_port()
    with django_db_blocker.unblock():
        env = server_env(database_url(), DEBUG="0", THROTTLE_CLIENT_SEED=f"{SEED_LIMIT}/min")
    argv = [sys.executable, "-m", "gunicorn", "config.wsgi", "-w", "1", "-b", f"127.0.0.1:{port}"]
    log_path = LOGS / f"gunicorn-seeds-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    with serving("gunicorn", argv, port=port, env=env, log_path=log_path) as url:
        yield url


def view(client: httpx.Client, code: str) -> dict[str, Any]:
    res = client.get(f"/api/v1/rooms/{code}/state")
    assert res.status_code == 200, res.text
    return res.json()


def act(client: httpx.Client, code: str, version: int, action: dict[str, Any]) -> httpx.Response:
    return client.post(f"/api/v1/rooms/{code}/actions", json={"version": version, "action": action})


def play_until_pause(clients: dict[int, httpx.Client], code: str, hand: int, rng: random.Random) -> None:
    """Play the humans' moves (the computer players move at once) until hand `hand` is over."""
    for _ in range(500):
        seen = view(clients[0], code)
        if seen["round"] == hand and seen["phase"] == "round_over":
            return
        seat = next(s for s in seen["to_act"] if s in clients)
        mine = view(clients[seat], code)
        action = concrete(rng.choice(without_claim(mine["you"]["legal_actions"])), rng)
        res = act(clients[seat], code, mine["version"], action)
        assert res.status_code == 200, res.text
    raise AssertionError("the hand did not end")


def put_seed(client: httpx.Client, code: str, seed: str) -> httpx.Response:
    return client.put(f"/api/v1/rooms/{code}/client_seed", json={"client_seed": seed})


def test_a_storm_of_seeds_is_bounded_and_turns_no_one_s_next_round_into_a_conflict(
    seeds_url, transactional_db, make_user
):
    users = [make_user(), make_user()]
    clients = {i: token_client(seeds_url, user) for i, user in enumerate(users)}
    code = clients[0].post("/api/v1/rooms/", json={"game": "hearts", "options": {}}).json()["code"]
    assert clients[1].post(f"/api/v1/rooms/{code}/join", json={}).status_code == 201
    for _ in range(2):
        assert clients[0].post(f"/api/v1/rooms/{code}/bots", json={}).status_code == 201
    assert put_seed(clients[1], code, "lobby seed").status_code == 200
    assert clients[0].post(f"/api/v1/rooms/{code}/start").status_code == 200
    rng = random.Random(7)
    play_until_pause(clients, code, 1, rng)

    # Between hands: seat 1 reads the view it will answer with; seat 0 sets seeds, all in
    # one window of the limit (it counts per minute of the clock).
    if time.time() % 60 > 45:
        time.sleep(61 - time.time() % 60)
    read = view(clients[1], code)
    seeds = [f"storm {i}" for i in range(SEED_LIMIT + 3)]
    answers = [put_seed(clients[0], code, seed) for seed in seeds]
    assert [a.status_code for a in answers[:SEED_LIMIT]] == [200] * SEED_LIMIT
    refused = answers[-1]
    assert refused.status_code == 429 and assert_error_shape(refused)["code"] == "throttled"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    accepted = [seed for seed, answer in zip(seeds, answers, strict=True) if answer.status_code == 200]
    now = view(clients[1], code)
    assert now["version"] == read["version"]  # no change counted
    assert now["seats"][0]["client_seed"] == accepted[-1]  # and yet shown at once
    # Another seat's limit is its own.
    assert put_seed(clients[1], code, "mine too").status_code == 200

    # Seat 1's next_round, sent with the version it read before the storm, goes through.
    res = act(clients[1], code, read["version"], {"type": "next_round"})
    assert res.status_code == 200, res.text
    res = act(clients[0], code, view(clients[0], code)["version"], {"type": "next_round"})
    assert res.status_code == 200, res.text
    play_until_pause(clients, code, 2, rng)

    rounds = clients[0].get(f"/api/v1/rooms/{code}/rounds").json()
    assert rounds[0]["fairness"]["client_seeds"][1] == "lobby seed"
    assert rounds[1]["fairness"]["client_seeds"][:2] == [accepted[-1], "mine too"]
    # The log tells every seed set, in order.
    events = clients[0].get(f"/api/v1/rooms/{code}/events", params={"limit": 1000}).json()
    told = [(e["seat"], e["client_seed"]) for e in events if e["type"] == "client_seed"]
    assert told == [(1, "lobby seed"), *((0, seed) for seed in accepted), (1, "mine too")]
    # The standalone verifier checks both hands against the server's reveal.
    token = clients[0].headers["Authorization"].split()[1]
    checked = subprocess.run(
        [sys.executable, str(VERIFIER), f"{seeds_url}/api/v1/rooms/{code}/rounds", "--token", token],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "hand 1: verified" in checked.stdout and "hand 2: verified" in checked.stdout
