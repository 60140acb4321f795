"""The registered games, by key. Each game's module registers itself when imported;
`games.rules` imports them all, in catalogue order."""

from __future__ import annotations

from .base import Game
from .errors import RuleError

_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    _REGISTRY[game.key] = game
    return game


def get(key: str) -> Game:
    try:
        return _REGISTRY[key]
    except KeyError:
        raise RuleError("invalid", f"Unknown game '{key}'.", "game") from None


def all_games() -> list[Game]:
    return list(_REGISTRY.values())
