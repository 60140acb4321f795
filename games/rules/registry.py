"""The registered games, by key, in the order they were registered (the catalogue's).

A game is a folder, a package such as `games.rules.hearts`, whose `__init__` registers
it with the JSON types of its views and actions; `games.rules` imports the folders of
the games the server offers, in catalogue order.
"""

from __future__ import annotations

from .base import AnyGame
from .errors import RuleError
from .schema import GameSchema

_REGISTRY: dict[str, AnyGame] = {}


def register(game: AnyGame, schema: GameSchema) -> AnyGame:
    game.schema = schema
    _REGISTRY[game.key] = game
    return game


def unregister(key: str) -> None:
    """Take a game off the catalogue (a game registered only for some tests)."""
    _REGISTRY.pop(key, None)


def get(key: str) -> AnyGame:
    try:
        return _REGISTRY[key]
    except KeyError:
        raise RuleError("invalid", f"Unknown game '{key}'.", "game") from None


def all_games() -> list[AnyGame]:
    return list(_REGISTRY.values())
