"""The registered games, by key, in the order they were registered (the catalogue's).

A game is a folder, a package such as `games.rules.hearts`, whose `__init__` registers
it with the JSON types of its views and actions; `games.rules` imports the folders of
the games the server offers, in catalogue order.
"""

from __future__ import annotations

from .base import Game
from .errors import RuleError
from .schema import GameSchema

_REGISTRY: dict[str, Game] = {}


def register(game: Game, schema: GameSchema) -> Game:
    game.schema = schema
    _REGISTRY[game.key] = game
    return game


def unregister(key: str) -> None:
    """Take a game off the catalogue (a game registered only for some tests)."""
    _REGISTRY.pop(key, None)


def get(key: str) -> Game:
    try:
        return _REGISTRY[key]
    except KeyError:
        raise RuleError("invalid", f"Unknown game '{key}'.", "game") from None


def all_games() -> list[Game]:
    return list(_REGISTRY.values())
