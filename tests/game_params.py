"""The games' lists of the tests, read from the registry, so that a game added as a folder
of games/rules is tested wherever a game is, without an edit here or in the tests.

Only the games of games/rules count: a game registered by a test for itself (Duel, in
tests/duel, on the catalogue for one test at a time) is no game of these lists, even if
a list is read while it is registered. Each test id starts with the game's key, which
`make test-game GAME=key` selects on (see the hook in tests/conftest.py).

A game's `profile.py` names the whole matches its tests play with computers in the
other seats: `SHORT_MATCH`, the options of a match that ends in a few hands, and
`MATCH_VARIANTS`, the options, by name, of the matches a client must play to the end. A
game without them plays its default options (tests/test_project_config.py fails until it
names them).
"""

from __future__ import annotations

import importlib
import json
from types import ModuleType
from typing import Any

import pytest

from games import rules
from games.rules.base import AnyGame

GAMES_PACKAGE = "games.rules"


def folder_of(game: AnyGame) -> str:
    """The package of the game's engine: `games.rules.hearts`."""
    return type(game).__module__.rpartition(".")[0]


def registered_games() -> list[AnyGame]:
    """The games of games/rules, in catalogue order."""
    return [g for g in rules.all_games() if folder_of(g).rpartition(".")[0] == GAMES_PACKAGE]


def game_keys() -> list[str]:
    return [g.key for g in registered_games()]


def profile_module(game: AnyGame) -> ModuleType | None:
    try:
        return importlib.import_module(f"{folder_of(game)}.profile")
    except ModuleNotFoundError as error:
        if error.name != f"{folder_of(game)}.profile":
            raise
        return None


def short_match(game: AnyGame) -> dict[str, Any]:
    options: dict[str, Any] = getattr(profile_module(game), "SHORT_MATCH", {})
    return options


def match_variants(game: AnyGame) -> dict[str, dict[str, Any]]:
    variants: dict[str, dict[str, Any]] = getattr(profile_module(game), "MATCH_VARIANTS", {"default": {}})
    return variants


def seats_for(game: AnyGame, options: dict[str, Any]) -> int:
    return game.seat_count(game.validate_options(options))


def game_params() -> list[Any]:
    """`game`: each game's key, the id its key."""
    return [pytest.param(key, id=key) for key in game_keys()]


def short_match_params(**extra: Any) -> list[Any]:
    """`game, options, seats`: each game's short match (with `extra` options), id its key."""
    params = []
    for game in registered_games():
        options = {**short_match(game), **extra}
        params.append(pytest.param(game.key, options, seats_for(game, options), id=game.key))
    return params


def variant_params() -> list[Any]:
    """`game, options, seats`: each game's match variants, id `key-name`."""
    return [
        pytest.param(game.key, options, seats_for(game, options), id=f"{game.key}-{name}")
        for game in registered_games()
        for name, options in match_variants(game).items()
    ]


def option_cover(game: AnyGame) -> list[dict[str, Any]]:
    """The game's match variants, and as few of its conformance runs' options as give,
    between them, every option each value any run gives it (validated: with the
    defaults filled in), for tests that check what each option changes in a view.
    Numbers and lists (a target, a count of players, team sizes) are not each a case:
    a choice of a kind (a mode, a rule, a switch) is."""
    from games.rules.conformance import profile_for

    def values(options: dict[str, Any]) -> set[tuple[str, str]]:
        return {
            (name, json.dumps(value, sort_keys=True))
            for name, value in game.validate_options(options).items()
            if value is None or isinstance(value, str | bool)
        }

    cases = list(match_variants(game).values())
    covered = set().union(*(values(options) for options in cases))
    runs = [run.options for run in profile_for(game).runs()]
    wanted = set().union(*(values(options) for options in runs))
    while not wanted <= covered:
        # The run that adds the most (the first of equals: the profile's order decides).
        best = max(runs, key=lambda options: len(values(options) - covered))
        cases.append(best)
        covered |= values(best)
    return cases


def option_cover_params() -> list[Any]:
    """`game, options`: each game's `option_cover`, id `key-n`."""
    return [
        pytest.param(game.key, options, id=f"{game.key}-{n}")
        for game in registered_games()
        for n, options in enumerate(option_cover(game))
    ]
