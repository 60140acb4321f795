"""Playing over HTTP as a client would: read the view, pick from legal_actions, post."""

from __future__ import annotations

import random
from typing import Any

from games import rules
from games.rules import templates
from tests.rules.support import without_claim


def concrete(template: dict[str, Any], rng: random.Random | None = None) -> dict[str, Any]:
    """A legal action (a template, possibly) as a client submits it: random picks with
    `rng`, else the first ones. A client knows the action's type, not its game."""
    fields = templates.declared_fields(rules.all_games(), template["type"])
    return templates.concrete(template, fields, None if rng is None else shuffled(rng))


def shuffled(rng: random.Random) -> templates.Choose:
    """The first of the choices once shuffled: the picks the seeds of these tests were
    written for (the choices come in order, so a seed picks the same places of a hand
    whatever the deal: the two of clubs, first, is kept by some seeds and not others)."""

    def choose(choices: list[Any], count: int) -> list[Any]:
        rng.shuffle(choices)
        return choices[:count]

    return choose


def state(client: Any, code: str) -> dict[str, Any]:
    res = client.get(f"/api/v1/rooms/{code}/state")
    assert res.status_code == 200, res.content
    return res.json()


def act(client: Any, code: str, version: int, action: dict[str, Any], **extra: Any) -> Any:
    return client.post(f"/api/v1/rooms/{code}/actions", {"version": version, "action": action}, format="json", **extra)


def play_one(clients: dict[int, Any], code: str, rng: random.Random) -> dict[str, Any]:
    """One human move by whoever may act; returns the mover's new view."""
    view = state(next(iter(clients.values())), code)
    movers = [s for s in view["to_act"] if s in clients]
    assert movers, f"no human to act in {view['phase']}: {view['to_act']}"
    seat = movers[0]
    mine = state(clients[seat], code)
    legal = mine["you"]["legal_actions"]
    assert legal, f"seat {seat} is to act but has no legal action"
    # A claim at random is mostly refused (tests/api/test_claims.py): random players play on.
    res = act(clients[seat], code, mine["version"], concrete(rng.choice(without_claim(legal)), rng))
    assert res.status_code == 200, res.content
    return res.json()


def play_to_end(clients: dict[int, Any], code: str, seed: int = 0, max_moves: int = 5000) -> dict[str, Any]:
    rng = random.Random(seed)
    for _ in range(max_moves):
        view = state(next(iter(clients.values())), code)
        if view["status"] != "playing":
            return view
        play_one(clients, code, rng)
    raise AssertionError("the match did not end")


def errors(res: Any) -> list[tuple[str, str | None]]:
    """(code, attr) of each error of an answer in the API's error shape."""
    body = res.json()
    assert set(body) == {"type", "errors"}, body
    return [(e["code"], e["attr"]) for e in body["errors"]]


def error_code(res: Any) -> str:
    body = res.json()
    assert set(body) == {"type", "errors"}, body
    return body["errors"][0]["code"]


def move_by_whoever_acts(code: str, players: dict[int, Any], rng: random.Random) -> bool:
    """One move through the service by the person of `players` (seat: user) who is to
    act, a random legal one (never a claim); False once the match is over."""
    from games import selectors
    from games.services import play

    view = selectors.view_by_code(code=code, user=players[0])
    if view["status"] != "playing":
        return False
    seat = next(s for s in view["to_act"] if s in players)
    mine = selectors.view_by_code(code=code, user=players[seat])
    action = concrete(rng.choice(without_claim(mine["you"]["legal_actions"])), rng)
    play.action_submit(code=code, user=players[seat], version=mine["version"], action=action, idempotency_key=None)
    return True
