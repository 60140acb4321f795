"""Pure-Python game engines. Nothing here imports Django.

A game is one folder here (a package): `engine.py` (its rules, a `base.Game` generic
over its state type), `state.py` (the TypedDict of its round state, the JSON its rounds
are stored as), `bot.py` (its computer player, which sees only what its seat may know),
`schema.py` (the JSON types of its views, actions and scored hand, a
`schema.GameSchema`), `profile.py` (its profile for the conformance suite: option sets
to play, what each seat may know) and `web.js` (how the web client draws it). Its
`__init__` registers it. What games share stays at this level: cards, dominoes, tricks,
claims, fairness, options, errors, the `base` protocol, the `schema` types, the
`conformance` play-outs and the `registry`.
A game folder imports no other game's.

Adding a game is adding its folder, nothing else: every package here is imported below
(its `register` call names its place in the catalogue), and the API's document, the
ratings, the web client and the conformance suite all read the registry.

`get(key)` returns a game's rules object; `all_games()` lists them in catalogue order.
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import Applied, Event, Game
from .errors import RuleError
from .registry import all_games, get, register, unregister

# Every package here is a game's folder, which registers the game when imported.
for _folder in pkgutil.iter_modules(__path__):
    if _folder.ispkg:
        importlib.import_module(f"{__name__}.{_folder.name}")

__all__ = ["Applied", "Event", "Game", "RuleError", "all_games", "get", "register", "unregister"]
