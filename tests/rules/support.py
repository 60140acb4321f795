"""Helpers every game's engine tests share."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from games.rules import Game, RuleError
from games.rules.base import MATCH_OVER


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


def pieces_in(obj: dict[str, Any] | list[Any], pieces: frozenset[str]) -> set[str]:
    """The cards or tiles named anywhere in a JSON-like value; `pieces` is every code of the game."""
    found: set[str] = set()
    strings_in(obj, found)
    return found & pieces


class TrackedHand:
    """One hand under random play, with what each seat may know tracked apart from the
    engine. The games' play-outs subclass it; a subclass sets, besides `game` and `pieces`
    (every card or tile code): `viewers` (the seats and None, a spectator), `args` (the
    new_round arguments), `state`, `actions` (seat, action) in play order, `known` (per seat,
    the pieces it was dealt or shown) and `played` (pieces played, known to everyone)."""

    game: Game
    pieces: frozenset[str]
    viewers: tuple[int | None, ...]
    args: dict[str, Any]
    state: dict[str, Any]
    actions: list[tuple[int, dict[str, Any]]]
    known: list[set[str]]
    played: set[str]

    def leaked(self, viewer: int | None, seen: set[str]) -> set[str]:
        """The pieces in `seen` that `viewer` may not know."""
        unknown = seen - self.played
        if unknown and viewer is not None:
            unknown -= self.known[viewer]
        return unknown

    # -- invariants of one state --------------------------------------------------------------

    def check_turns(self) -> tuple[list[int], list[list[dict[str, Any]]]]:
        """Exactly the seats to act have legal actions; nobody acts only once the match is over."""
        state = self.state
        seats = range(state["players"])
        to_act = self.game.to_act(state)
        legal = [self.game.legal_actions(state, seat) for seat in seats]
        for seat in seats:
            assert bool(legal[seat]) == (seat in to_act), (seat, state["phase"])
        assert (to_act == []) == (state["phase"] == MATCH_OVER)
        return to_act, legal

    def check_view(self, viewer: int | None, to_act: list[int]) -> None:
        view = self.game.view(self.state, viewer)
        leaked = self.leaked(viewer, pieces_in(view, self.pieces))
        assert not leaked, (viewer, leaked, self.state["phase"])
        assert view["to_act"] == to_act
        assert ("you" in view) == (viewer is not None)

    def check_json(self) -> dict[str, Any]:
        copied = json.loads(json.dumps(self.state))
        assert copied == self.state
        return copied

    def check_whole(self, to_act: list[int]) -> dict[str, Any]:
        """The state survives a JSON round trip (the copy is returned) and every viewer's
        view is walked."""
        copied = self.check_json()
        for viewer in self.viewers:
            self.check_view(viewer, to_act)
        return copied

    def check_events(self, events: list[Any]) -> None:
        assert all(isinstance(e.data.get("type"), str) for e in events)
        # One walk over the step's events first: most name no piece beyond those played.
        if not pieces_in([e.data for e in events], self.pieces) - self.played:
            return
        for event in events:
            seen = pieces_in(event.data, self.pieces) - self.played
            for viewer in self.viewers:
                if seen and event.visible(viewer):
                    assert not self.leaked(viewer, seen), (event.data, viewer)

    def check_replay(self) -> None:
        """new_round with the same arguments and the recorded actions rebuild the state."""
        replayed = self.game.new_round(**self.args)
        for seat, action in self.actions:
            replayed = self.game.apply(replayed, seat, action).state
        assert replayed == self.state


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
