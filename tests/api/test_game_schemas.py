"""The documented game view, legal actions and action bodies are what the engines make.

Hands of every game are played by the computer players; every view (each seat's and a
spectator's), every legal action and every action sent is checked against the
components of the OpenAPI document, read strictly: an object may hold no property the
document does not name. A field an engine adds without documenting it fails here.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from api import game_schemas
from games import rules
from tests.game_params import option_cover_params
from tests.strict_answers import served_view

# Enough for several hands of the longest game; a play-out that stalls fails.
MAX_STEPS = 3000
HANDS = 2


def _strict(node: Any) -> Any:
    """The document's schemas read strictly: every object closed to unnamed properties,
    and every open choice (`x-open`) to the values this version knows (its last
    alternative, the fallback for later ones, dropped)."""
    if isinstance(node, list):
        return [_strict(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: _strict(v) for k, v in node.items() if k != "discriminator"}
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    if out.pop("x-open", False):
        for choice in ("anyOf", "oneOf"):
            if choice in out:
                out[choice] = out[choice][:-1]
    return out


@pytest.fixture(scope="module")
def validator():
    schemas = _strict(game_schemas.components())
    checkers: dict[str, Draft202012Validator] = {}

    def validate(name: str, value: Any) -> None:
        # Through JSON, as a client reads it (a funky pass's seat keys become strings).
        value = json.loads(json.dumps(value))
        if name not in checkers:
            root = {"$ref": f"#/components/schemas/{name}", "components": {"schemas": schemas}}
            checkers[name] = Draft202012Validator(root)
        errors = sorted(checkers[name].iter_errors(value), key=lambda e: list(e.absolute_path))
        assert not errors, f"{name}: {errors[0].message} at {list(errors[0].absolute_path)}"

    return validate


def _label(game: rules.Game) -> str:
    return "".join(part.capitalize() for part in game.key.split("_"))


# Every game, with options that between them give each option each of its values
# (tests/game_params.py).
@pytest.mark.parametrize(("key", "raw"), option_cover_params())
def test_views_and_actions_match_the_document(validator, key: str, raw: dict[str, Any]) -> None:
    game = rules.get(key)
    label = _label(game)
    options = game.validate_options(raw)
    players = game.seat_count(options)
    rng = random.Random(f"{key}{raw}")
    teams = None
    if game.lobby_teams(options) is not None:
        teams = [t for t, size in enumerate(game.lobby_teams(options)) for _ in range(size)]
    carry = game.first_carry(
        options=options, players=players, host_seat=0, teams=teams or [None] * players, seed=rng.randrange(2**31)
    )
    state = game.new_round(options=options, players=players, seed=rng.randrange(2**31), carry=carry)
    hands = 1
    phases_seen: set[str] = set()
    for _ in range(MAX_STEPS):
        # Every seat's view and a spectator's when the phase changes, else the acting
        # seats' (checking every view at every step takes far longer and finds no more).
        new_phase = state["phase"] not in phases_seen
        phases_seen.add(state["phase"])
        for seat in [*range(players), None] if new_phase else game.to_act(state):
            view = served_view(game.view(state, seat))
            validator(f"{label}View", view)
            if new_phase:
                validator("GameView", view)
        if game.is_match_over(state):
            break
        if game.is_complete(state):
            if hands == HANDS:
                break
            hands += 1
            state = game.new_round(options=options, players=players, seed=rng.randrange(2**31), carry=game.carry(state))
            continue
        seat = rng.choice(game.to_act(state))
        for legal in game.legal_actions(state, seat):
            validator(f"{label}LegalAction", legal)
        action = game.bot_action(state, seat)
        validator(f"{label}Action", action)
        validator("ActionRequest", {"version": 3, "action": action})
        state = game.apply(state, seat, action).state
    else:
        pytest.fail(f"no end within {MAX_STEPS} steps")
    assert phases_seen <= set(game_schemas.phases(game))
    assert "play" in phases_seen


@pytest.mark.parametrize("game", rules.all_games(), ids=lambda g: g.key)
def test_a_body_with_a_field_its_type_does_not_define_is_not_documented(validator, game: rules.Game) -> None:
    label = _label(game)
    for kind in game.action_fields:
        with pytest.raises(AssertionError):
            validator(f"{label}Action", {"type": kind, "pad": 1})
    with pytest.raises(AssertionError):
        validator(f"{label}Action", {"type": "no_such_type"})


def test_every_declared_action_field_must_be_typed(monkeypatch) -> None:
    """A field an engine declares and its schema does not type stops the document."""
    hearts = rules.get("hearts")
    monkeypatch.setattr(hearts, "schema", dataclasses.replace(hearts.schema, action_fields={}))
    with pytest.raises(LookupError, match="hearts"):
        game_schemas.components()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("key", "raw"), [("hearts", {}), ("moon", {"players": 4}), ("kali_tidi", {"team_mode": "cards"})]
)
def test_served_views_match_the_document(validator, api_client, make_user, key: str, raw: dict[str, Any]) -> None:
    """What the server sends, room facts included: in the lobby and in play, to a seated
    player and to a spectator."""
    host, spectator = api_client(make_user()), api_client(make_user())
    res = host.post("/api/v1/rooms/", {"game": key, "options": raw}, format="json")
    assert res.status_code == 201, res.content
    code = res.json()["code"]
    label = _label(rules.get(key))

    def check_both(component: str) -> None:
        for client in (host, spectator):
            view = client.get(f"/api/v1/rooms/{code}/state").json()
            validator(component, view)
            validator("GameView", view)
            assert ("you" in view) is (client is host)

    check_both("LobbyView")
    check_both(f"{label}LobbyView")
    # Another game's lobby is not this one's: each game's lobby names its game alone.
    other = next(g for g in rules.all_games() if g.key != key)
    with pytest.raises(AssertionError, match=r"was expected"):
        validator(f"{_label(other)}LobbyView", host.get(f"/api/v1/rooms/{code}/state").json())
    # The game's own view needs the game's facts, which a lobby does not have yet.
    lobby = host.get(f"/api/v1/rooms/{code}/state").json()
    with pytest.raises(AssertionError, match="required"):
        validator(f"{label}View", lobby)
    for _ in range(rules.get(key).seat_count(rules.get(key).validate_options(raw)) - 1):
        assert host.post(f"/api/v1/rooms/{code}/bots", {}, format="json").status_code == 201
    started = host.post(f"/api/v1/rooms/{code}/start")
    assert started.status_code == 200, started.content
    validator(f"{label}View", started.json())
    check_both(f"{label}View")


def test_each_view_names_its_game_alone_and_each_legal_action_its_type() -> None:
    """Every variant of `GameView` but the fallback has a `game` of one value (clients
    narrow by it), and each game's legal actions are told apart by `type` (a discriminator
    whose mapping names each type's one component); the fallbacks stay last, open."""
    schemas = game_schemas.components()
    variants = [ref["$ref"].rsplit("/", 1)[1] for ref in schemas["GameView"]["anyOf"]]
    assert variants[-1] == "OtherGameView" and schemas["GameView"]["x-open"] is True
    for game in rules.all_games():
        label = _label(game)
        assert {f"{label}View", f"{label}LobbyView"} <= set(variants)
        for name in (f"{label}View", f"{label}LobbyView"):
            assert schemas[name]["properties"]["game"] == {"type": "string", "const": game.key}, name
        assert schemas[f"{label}LobbyView"]["properties"]["phase"] == {"type": "string", "const": "lobby"}
        legal = schemas[f"{label}LegalAction"]
        refs = [ref["$ref"] for ref in legal["anyOf"]]
        assert refs[-1].endswith("/OtherLegalAction") and legal["x-open"] is True
        mapping = legal["discriminator"]["mapping"]
        assert legal["discriminator"]["propertyName"] == "type"
        assert list(mapping.values()) == refs[:-1]
        for kind, ref in mapping.items():
            assert schemas[ref.rsplit("/", 1)[1]]["properties"]["type"]["const"] == kind
    status = schemas["RoomStatus"]
    assert status["x-open"] is True and status["anyOf"][-1] == {"type": "string"}
