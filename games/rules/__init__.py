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
    # Each module registers itself on import; the catalogue lists them in this order.
    import importlib

    for name in ("hearts", "moon", "kali_tidi"):
        importlib.import_module(f"{__name__}.{name}")


_load()

__all__ = ["Applied", "Event", "Game", "RuleError", "all_games", "get", "register"]
