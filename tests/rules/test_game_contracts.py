"""The contract every registered game states for the platform: who decides its teams
(`team_choice`), each seat's team once dealt (`seat_teams`), the sides of a scored hand
(`result_sides`), and the fields every view holds (`VIEW_FIELDS` and the like). Driven
by the registry and each game's conformance profile (every choice of its options), so a
game added later is held to it at once."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import rules
from games.rules.base import ENGINE_TEAMS, LOBBY_TEAMS, SEAT_VIEW_FIELDS, VIEW_FIELDS, YOU_FIELDS, AnyGame, Game
from games.rules.conformance import profile_for
from tests.game_params import option_cover_params

CONTRACT = ("team_choice", "seat_teams", "result_sides")
GAMES = [game for game in rules.all_games() if game.__module__.startswith("games.rules.")]
CASES = [(game, run.options) for game in GAMES for run in profile_for(game).runs()]
IDS = [f"{game.key}-{'-'.join(f'{k}={v}' for k, v in options.items()) or 'default'}" for game, options in CASES]


@pytest.mark.parametrize("game", rules.all_games(), ids=lambda g: g.key)
@pytest.mark.parametrize("method", CONTRACT)
def test_every_registered_game_states_the_contract_itself(game: AnyGame, method: str) -> None:
    # The base's versions raise: inheriting one would leave the platform to guess.
    assert getattr(type(game), method) is not getattr(Game, method), f"{game.key} must implement {method}"


def first_hand(game: AnyGame, options: dict[str, Any], seed: int) -> tuple[dict[str, Any], dict[str, Any], list]:
    """The first hand of a match under `options`, its lobby teams (if any) split as the
    lobby would fill them: (options, state, teams)."""
    checked = game.validate_options(options)
    players = game.seat_count(checked)
    sizes = game.lobby_teams(checked)
    teams: list[int | None] = [None] * players
    if sizes is not None:
        teams = [t for t, size in enumerate(sizes) for _ in range(size)]
        random.Random(seed).shuffle(teams)
    carry = game.first_carry(options=checked, players=players, host_seat=0, teams=teams, seed=seed)
    return checked, game.new_round(options=checked, players=players, seed=seed, carry=carry), teams


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_team_choice_and_seat_teams_agree(game: AnyGame, options: dict[str, Any]) -> None:
    checked, state, teams = first_hand(game, options, seed=11)
    choice = game.team_choice(checked)
    assert choice in (None, LOBBY_TEAMS, ENGINE_TEAMS)
    # Players pick a team in the lobby exactly where the lobby has team sizes to fill.
    assert (choice == LOBBY_TEAMS) == (game.lobby_teams(checked) is not None)
    seat_teams = game.seat_teams(state)
    if choice is None:
        assert seat_teams is None
        return
    assert seat_teams is not None and len(seat_teams) == game.seat_count(checked)
    assert set(seat_teams) == set(range(max(seat_teams) + 1)) and len(set(seat_teams)) >= 2
    if choice == LOBBY_TEAMS:
        assert seat_teams == teams
    # The public view names the same teams.
    assert [s.get("team") for s in game.view(state, None)["seats"]] == seat_teams


def scored_hand(game: AnyGame, state: dict[str, Any]) -> dict[str, Any]:
    """The computer players' moves until the hand is scored: its result."""
    for _ in range(5000):
        result = game.result(state)
        if result is not None:
            return result
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, game.bot_action(state, seat)).state
    raise AssertionError("the hand was never scored")


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_the_sides_of_a_scored_hand_hold_every_seat_once(game: AnyGame, options: dict[str, Any]) -> None:
    checked, state, _ = first_hand(game, options, seed=5)
    result = scored_hand(game, state)
    sides = game.result_sides(result)
    players = game.seat_count(checked)
    assert sorted(s for side in sides for s in side) == list(range(players))
    assert all(side == sorted(side) and side for side in sides)
    teams = game.seat_teams(state)
    if teams is not None:
        # Fixed teams are the sides: seats of one team are on one side.
        assert sorted(sides) == sorted([s for s in range(players) if teams[s] == t] for t in set(teams))
    elif game.team_choice(checked) is None and not game.partners_hidden(checked):
        assert sides == [[s] for s in range(players)]


@pytest.mark.parametrize(("key", "options"), option_cover_params())
def test_every_view_holds_the_fields_every_game_shares(key: str, options: dict[str, Any]) -> None:
    """base.VIEW_FIELDS, SEAT_VIEW_FIELDS and YOU_FIELDS, in every seat's view and a
    spectator's, at every step of a hand and between hands; `you` for players alone."""
    game = rules.get(key)
    checked, state, _ = first_hand(game, options, seed=3)
    players = game.seat_count(checked)
    for step in range(5000):
        for seat in [*range(players), None]:
            view = game.view(state, seat)
            missing = [name for name in VIEW_FIELDS if name not in view]
            assert not missing, f"step {step}, seat {seat}: no {missing}"
            assert view["game"] == key and view["phase"] == state["phase"]
            assert [s["seat"] for s in view["seats"]] == list(range(players))
            assert all(name in s for s in view["seats"] for name in SEAT_VIEW_FIELDS)
            if seat is None:
                assert "you" not in view
                continue
            you = view["you"]
            assert [name for name in YOU_FIELDS if name not in you] == [] and you["seat"] == seat
            assert (you["legal_actions"] != []) == (seat in view["to_act"]), (step, seat)
        if game.result(state) is not None and state["phase"] != "play":
            return
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, game.bot_action(state, seat)).state
    raise AssertionError("the hand was never scored")
