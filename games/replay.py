"""Rebuilding a hand from its seeds, its carry and its actions: to check the stored
state, and to show a finished match's hands and plays (the replay)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.times import iso

from . import rules, selectors
from .errors import ServiceError
from .models import Action, RoomStatus, Round
from .rules import claims, fairness
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
        fair = fairness.Inputs(
            round_.server_seed,
            room.code,
            round_.number,
            tuple(round_.client_seeds or ()),
            selectors.deal_algorithm(round_),
        )
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
            # Translators: the code is the rules' refusal, as the API names it (not_your_turn).
            refused = _("Action %(seq)s was refused on replay: %(code)s.") % {"seq": action.seq, "code": err.code}
            return ReplayReport(False, action.seq, refused, None)
    if state == round_.state:
        rebuilt = ngettext(
            "The %(count)s action rebuilds the stored state exactly.",
            "The %(count)s actions rebuild the stored state exactly.",
            len(actions),
        ) % {"count": len(actions)}
        return ReplayReport(True, len(actions), rebuilt, state)
    differing = sorted(k for k in set(state) | set(round_.state) if state.get(k) != round_.state.get(k))
    # Translators: the fields are the names of the state's parts, as the code names them (hands, trick).
    differs = _("The rebuilt state differs in: %(fields)s.") % {"fields": ", ".join(differing)}
    return ReplayReport(False, len(actions), differs, state)


def _own_fields(game: rules.Game, payload: Any) -> Any:
    """The action without fields its type does not define. Actions stored before such
    fields were refused may carry some, which the engine then ignored as it does here."""
    if not isinstance(payload, dict):
        return payload
    kind = payload.get("type")
    fields = game.action_fields.get(kind, frozenset()) if isinstance(kind, str) else frozenset()
    return {k: v for k, v in payload.items() if k == "type" or k in fields}


def match_replay(*, code: str) -> dict[str, Any]:
    """A finished match whole: every hand as dealt and every action in order, each with
    every seat's hand and the table after it. Hidden information, so only once the match
    is finished; an abandoned or closed match was never played out and stays hidden."""
    room = selectors.room_for_play(code=code)
    if room.status in (RoomStatus.ABANDONED, RoomStatus.CLOSED):
        raise ServiceError("room_closed", _("The match was abandoned or closed: it has no replay."), 409)
    if room.status != RoomStatus.FINISHED:
        raise ServiceError("match_not_over", _("The replay is available once the match is over."), 409)
    seats = list(room.seats.select_related("user").order_by("index"))
    rounds = (
        room.rounds.filter(result__isnull=False).select_related("room").prefetch_related("actions").order_by("number")
    )
    return {
        "code": room.code,
        "game": room.game,
        "name": room.name,
        "options": room.options,
        "finished_at": iso(room.finished_at),
        "scores": room.scores,
        "players": [
            {
                "seat": s.index,
                "display_name": s.display_name,
                "username": s.user.username if s.user is not None else None,
                "is_bot": s.is_bot,
            }
            for s in seats
        ],
        "hands": [hand_replay(round_=r, players=len(seats)) for r in rounds],
    }


def hand_replay(*, round_: Round, players: int) -> dict[str, Any]:
    game = rules.get(round_.room.game)
    state = round_dealt(round_=round_, players=players)
    # Kali Tidi deals once the cards to leave out are removed: the deal is the first
    # state in which anyone holds something.
    deal = _deal_of(state)
    steps = []
    for action in sorted(round_.actions.all(), key=lambda a: a.seq):
        before = state
        applied = game.apply(state, action.seat, _own_fields(game, action.payload))
        state = applied.state
        if deal is None:
            deal = _deal_of(state)
        if _is_claim(action.payload):
            # The claim, then every card it played out, each a step of its own.
            steps.append(_step(action, action.seat, action.payload, before, before, claimed=False))
            for seat, play in claims.plays_of(applied.events):
                after = game.apply(before, seat, play).state
                steps.append(_step(action, seat, play, before, after, claimed=True))
                before = after
            continue
        steps.append(_step(action, action.seat, action.payload, before, state, claimed=False))
    return {
        "round": round_.number,
        "deal": deal or {"hands": [[] for _ in range(players)], "widow": []},
        "actions": steps,
        "result": round_.result,
    }


def _is_claim(payload: Any) -> bool:
    return isinstance(payload, dict) and payload.get("type") == claims.CLAIM


def _step(
    action: Action, seat: int, payload: Any, before: dict[str, Any], after: dict[str, Any], *, claimed: bool
) -> dict[str, Any]:
    """One step of the replay: an action stored (`payload` its own), or a play that
    played out the claim `action` (`claimed`), with the table after it."""
    return {
        "seq": action.seq,
        "seat": seat,
        "action": payload,
        "automatic": action.automatic or claimed,
        "by_bot": action.by_bot and not claimed,
        "claimed": claimed,
        **_table_after(before, after),
    }


def _deal_of(state: dict[str, Any]) -> dict[str, Any] | None:
    hands = state.get("hands") or []
    if not any(hands):
        return None
    widow = state.get("widow")
    return {"hands": [list(h) for h in hands], "widow": [] if widow is None else [widow]}


def _table_after(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """Every seat's hand and the trick on the table after an action. A play that ends a
    trick leaves it whole here with its winner, as a player sees it before it is taken."""
    won = after.get("last_trick")
    if won is not None and won != before.get("last_trick"):
        trick, winner = won.get("cards", won.get("tiles", [])), won["winner"]
    else:
        trick, winner = after.get("trick", []), None
    return {
        "phase": after.get("phase"),
        "hands": [list(h) for h in after.get("hands", [])],
        "trick": [dict(p) for p in trick],
        "trick_winner": winner,
        "trump": after.get("trump"),
    }
