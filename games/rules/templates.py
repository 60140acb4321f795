"""Legal actions made concrete. `legal_actions` gives a multi-piece choice as a template
— choose `count` of `choices`, and, where they go to several seats (Hearts' funky pass),
one to each seat of `to` — and every other legal action as it is submitted. Clients
that play (the tests' players, the benchmarks) turn one into an action with `concrete`,
generic over the fields the game declares for the action's type (`Game.action_fields`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable
from typing import Any

from .base import Action, AnyGame

# Which `count` of the `choices` to take: given them and the count, gives the picks.
Choose = Callable[[list[Any], int], list[Any]]


def is_template(legal: Action) -> bool:
    """Whether a legal action asks for a choice rather than being one."""
    return "choices" in legal


def first(choices: list[Any], count: int) -> list[Any]:
    """The first `count` choices, in the engine's order (a fixed, repeatable pick)."""
    return list(choices[:count])


def declared_fields(games: Iterable[AnyGame], kind: str) -> frozenset[str]:
    """The fields these games declare for actions of type `kind`, for a client that
    knows an action's type but not its game (a template's type belongs to one game)."""
    return frozenset().union(*(game.action_fields.get(kind, frozenset()) for game in games))


def concrete(legal: Action, fields: Collection[str], choose: Choose | random.Random | None = None) -> Action:
    """The action that plays `legal`. A template's picks (`choose`: a function, a
    `random.Random` to sample with, or None for the `first` ones) go in the one field its
    type declares besides `to` (`fields`: `Game.action_fields[type]`), or, when it has
    `to`, in `to` as a map from each of those seats to its pick. Any other legal action
    is already one."""
    if not is_template(legal):
        return dict(legal)
    kind = legal["type"]
    choices, count = list(legal["choices"]), int(legal["count"])
    if choose is None:
        picked = first(choices, count)
    elif isinstance(choose, random.Random):
        picked = choose.sample(choices, count)
    else:
        picked = choose(choices, count)
    if "to" in legal:
        return {"type": kind, "to": {str(seat): pick for seat, pick in zip(legal["to"], picked, strict=True)}}
    (name,) = set(fields) - {"to"}
    return {"type": kind, name: picked}
