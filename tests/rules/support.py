"""Helpers every game's engine tests share."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from games.rules import Game, RuleError


def top_up(
    fixed: list[list[str]], deck: list[str], size: int, *, keep_out: list[str] | tuple[str, ...] = ()
) -> tuple[list[list[str]], list[str]]:
    """Each hand of `fixed` filled up to `size` with the pieces nobody was given (nor named
    in `keep_out`), in `deck` order; and the pieces left over."""
    used = {p for h in fixed for p in h} | set(keep_out)
    rest = [p for p in deck if p not in used]
    out = []
    for h in fixed:
        need = size - len(h)
        out.append(h + rest[:need])
        rest = rest[need:]
    return out, rest


def refused(game: Game, state: dict[str, Any], seat: Any, action: Any) -> RuleError:
    """The RuleError an action gets, having checked that it changed nothing."""
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(RuleError) as info:
        game.apply(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before, "a refused action changed the state"
    return info.value


# -- the computer players ------------------------------------------------------------------------


def bot_choice(game: Game, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """The computer player's action for `seat`, asked twice: the same state must get the same answer."""
    action = game.bot_action(state, seat)
    assert game.bot_action(state, seat) == action, "the bot must be deterministic"
    return action


def check_bot_refuses(game: Game, state: dict[str, Any], seat: int) -> None:
    """The computer player has no move for a seat that may not act."""
    with pytest.raises(RuleError) as info:
        game.bot_action(state, seat)
    assert info.value.code == "not_your_turn"


def check_bot_matches(
    game: Game, options: dict[str, Any], players: int, play_bots: Callable[[dict[str, Any]], dict[str, Any]]
) -> None:
    """Three matches (seeds 0 to 2) played by the computer player to the end, each with a winner."""
    for seed in range(3):
        state = play_bots(game.new_round(options=options, players=players, seed=seed, carry=None))
        assert state["phase"] == "match_over"
        assert game.result(state)["winners"]


def redeal_hidden(
    state: dict[str, Any], others: list[int], pool: list[str], rng: random.Random
) -> tuple[dict[str, Any], list[str]]:
    """A copy of `state` in which `pool` (the pieces a seat cannot see) is shuffled and dealt
    again to the `others`, each as many as it holds; and what is left of the pool."""
    rng.shuffle(pool)
    hidden = dict(state)
    hidden["hands"] = list(state["hands"])
    for s in others:
        size = len(state["hands"][s])
        hidden["hands"][s], pool = sorted(pool[:size]), pool[size:]
    return hidden, pool


# The claim as a trick-play position lists it for the player to act, where it holds.
CLAIM = {"type": "claim"}


def without_claim(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The legal actions but the claim: what a random player picks from, to play a hand
    out rather than end it."""
    return [a for a in legal if a["type"] != "claim"]
