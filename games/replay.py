"""Rebuilding a hand from its seeds, its carry and its actions, to check the stored state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import rules
from .models import Round
from .rules import fairness
from .rules.errors import RuleError


@dataclass(frozen=True)
class ReplayReport:
    matches: bool
    actions: int
    detail: str
    rebuilt: dict[str, Any] | None


def round_dealt(*, round_: Round, players: int) -> dict[str, Any]:
    """The hand as it was dealt, rebuilt from what its row keeps (seeds and carry)."""
    room = round_.room
    fair = None
    if round_.server_seed:
        fair = fairness.Inputs(round_.server_seed, room.code, round_.number, tuple(round_.client_seeds or ()))
    return rules.get(room.game).new_round(
        options=room.options, players=players, seed=round_.seed, carry=round_.carry, fair=fair
    )


def round_replay(*, round_: Round) -> ReplayReport:
    room = round_.room
    game = rules.get(room.game)
    state = round_dealt(round_=round_, players=room.seats.count())
    actions = list(round_.actions.order_by("seq"))
    for action in actions:
        try:
            state = game.apply(state, action.seat, _own_fields(game, action.payload)).state
        except RuleError as err:
            return ReplayReport(False, action.seq, f"Action {action.seq} was refused on replay: {err.code}.", None)
    if state == round_.state:
        return ReplayReport(True, len(actions), f"The {len(actions)} actions rebuild the stored state exactly.", state)
    differing = sorted(k for k in set(state) | set(round_.state) if state.get(k) != round_.state.get(k))
    return ReplayReport(False, len(actions), f"The rebuilt state differs in: {', '.join(differing)}.", state)


def _own_fields(game: rules.Game, payload: Any) -> Any:
    """The action without fields its type does not define. Actions stored before such
    fields were refused may carry some, which the engine then ignored as it does here."""
    if not isinstance(payload, dict):
        return payload
    kind = payload.get("type")
    fields = game.action_fields.get(kind, frozenset()) if isinstance(kind, str) else frozenset()
    return {k: v for k, v in payload.items() if k == "type" or k in fields}
