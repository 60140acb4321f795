"""Helpers every game's engine tests share."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.rules import Game, RuleError


def strings_in(obj: dict[str, Any] | list[Any], out: set[str]) -> None:
    """Every string in a JSON-like value, dict keys included. A hand-rolled walk: about twice
    as fast as dumping to JSON and searching the text, and the play-outs run it at every step."""
    if type(obj) is dict:
        out.update(obj)
        values: Any = obj.values()
    else:
        values = obj
    for value in values:
        kind = type(value)
        if kind is str:
            out.add(value)
        elif kind is dict or kind is list:
            strings_in(value, out)


def refused(game: Game, state: dict[str, Any], seat: Any, action: Any) -> RuleError:
    """The RuleError an action gets, having checked that it changed nothing."""
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(RuleError) as info:
        game.apply(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before, "a refused action changed the state"
    return info.value
