"""Legal actions made concrete. `legal_actions` gives a multi-piece choice as a template
— choose `count` of `choices` — and every other legal action as it is submitted. A
template becomes its action by dropping `count` and `choices` and adding the picks
(`cards`), every other field copied as it is: Hearts' funky pass keeps its `to`, and
`cards[i]` goes to the seat `to[i]`. Clients that play (the tests' players, the
benchmarks) turn one into an action with `concrete`, generic over the fields the game
declares for the action's type (`Game.action_fields`).
"""

from __future__ import annotations

import copy
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


# The field a template's picks go in, where the action's type declares it.
PICKS = "cards"
# The fields of a template that are no part of its action.
TEMPLATE_ONLY = frozenset({"count", "choices"})


def picks_field(legal: Action, fields: Collection[str]) -> str:
    """The field of the action that holds a template's picks: `cards`, or for a type that
    declares no such field, the one field it declares that the template does not carry."""
    if PICKS in fields:
        return PICKS
    (name,) = set(fields) - set(legal)
    return name


def concrete(legal: Action, fields: Collection[str], choose: Choose | random.Random | None = None) -> Action:
    """The action that plays `legal`. A template's picks (`choose`: a function, a
    `random.Random` to sample with, or None for the `first` ones) go in `picks_field`
    (`fields`: `Game.action_fields[type]`), its other fields but `count` and `choices`
    copied as they are. Any other legal action is already one."""
    if not is_template(legal):
        return dict(legal)
    choices, count = list(legal["choices"]), int(legal["count"])
    if choose is None:
        picked = first(choices, count)
    elif isinstance(choose, random.Random):
        picked = choose.sample(choices, count)
    else:
        picked = choose(choices, count)
    action = {k: copy.deepcopy(v) for k, v in legal.items() if k not in TEMPLATE_ONLY}
    action[picks_field(legal, fields)] = picked
    return action
