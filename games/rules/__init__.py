"""Pure-Python game engines. Nothing here imports Django.

`get(key)` returns a game's rules object; `all_games()` lists them in catalogue order.
"""

from __future__ import annotations

from .base import Applied, Event, Game
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


def _load() -> None:
    # Each module registers itself; the order is the catalogue's.
    from . import hearts, moon  # noqa: F401


_load()

__all__ = ["Applied", "Event", "Game", "RuleError", "all_games", "get", "register"]
