"""Pure-Python game engines. Nothing here imports Django.

`get(key)` returns a game's rules object; `all_games()` lists them in catalogue order.
"""

from __future__ import annotations

from .base import Applied, Event, Game
from .errors import RuleError
from .registry import all_games, get, register

# Each game's module registers itself on import; the catalogue lists them in this order.
# isort: off
from . import hearts  # noqa: F401
from . import moon  # noqa: F401
from . import kali_tidi  # noqa: F401

# isort: on

__all__ = ["Applied", "Event", "Game", "RuleError", "all_games", "get", "register"]
