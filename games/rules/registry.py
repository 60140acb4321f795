"""The registered games, by key, in catalogue order.

A game is a folder, a package such as `games.rules.hearts`, whose `__init__` registers
it with the JSON types of its views and actions and its place in the catalogue;
`games.rules` imports every such folder it holds.
"""

from __future__ import annotations

from .base import AnyGame
from .errors import RuleError, gettext_noop
from .schema import GameSchema

_REGISTRY: dict[str, AnyGame] = {}
_POSITION: dict[str, int] = {}


def register(game: AnyGame, schema: GameSchema, *, position: int | None = None) -> AnyGame:
    """Put `game` on the catalogue. `position` orders the catalogue, lowest first; a game
    without one comes after those with one, in the order registered."""
    game.schema = schema
    _REGISTRY[game.key] = game
    if position is not None:
        _POSITION[game.key] = position
    return game


def unregister(key: str) -> None:
    """Take a game off the catalogue (a game registered only for some tests)."""
    _REGISTRY.pop(key, None)
    _POSITION.pop(key, None)


def get(key: str) -> AnyGame:
    try:
        return _REGISTRY[key]
    except KeyError:
        raise RuleError("invalid", gettext_noop("Unknown game '%(game)s'."), "game", game=key) from None


def all_games() -> list[AnyGame]:
    # A stable sort: the games without a position stay in the order registered, last.
    last = max(_POSITION.values(), default=0) + 1
    return sorted(_REGISTRY.values(), key=lambda game: _POSITION.get(game.key, last))
