"""The codes games answer: the engines' refusals of an action, and the rooms', seats'
and matches' own."""

from __future__ import annotations

from core.errors import Catalogue

from . import rules
from .rules.errors import SHARED_RULE_CODES, RuleCodes


def _rule_codes() -> RuleCodes:
    """What an engine can answer to an action: the shared rules' codes and each
    registered game's own (tests/test_error_codes.py holds them to the engines' sources).
    Two games may share a code only with one status and one meaning."""
    codes = dict(SHARED_RULE_CODES)
    for game in rules.all_games():
        for code, entry in game.schema.rule_codes.items():
            if codes.setdefault(code, entry) != entry:
                raise ValueError(f"rule code {code!r} of {game.key} differs from the one declared before")
    return codes


_RULES = _rule_codes()

# The engines refuse a field of an action with the shared `invalid` (core.errors).
RULE_CODES = frozenset({*_RULES, "invalid"})

CODES = Catalogue(
    "games",
    {
        **_RULES,
        "not_seated": (403, "You have no seat in this room."),
        "not_host": (403, "Only the host may do that."),
        "stale_version": (409, "The room changed since the version you sent; fetch the state and retry."),
        "room_full": (409, "Every seat is taken."),
        "blocked_at_table": (409, "Someone seated at the table blocked the joining person, or was blocked by them."),
        "already_started": (409, "The game has already started."),
        "already_seated": (409, "You already have a seat in this room."),
        "not_finished": (409, "The hand or match is not finished yet."),
        "match_not_over": (
            409,
            "The match is not over: its replay, like anything of its deals and plays, is given only once it is "
            "finished, and a rematch is asked for once it is finished or abandoned.",
        ),
        "not_playing": (409, "The room is not being played."),
        "already_dealt": (
            409,
            "A hand is in play (from its start, before Kali Tidi's deal too): a client seed counts from "
            "the next hand, set between hands.",
        ),
        "seats_not_filled": (409, "Every seat must be taken before the start."),
        "team_full": (409, "The team asked for already has all its players."),
        "teams_not_filled": (409, "The lobby teams must have the sizes the room declares before the start."),
        "room_closed": (409, "The room was closed or abandoned."),
        "seat_held_by_computer": (
            409,
            "A computer player holds your seat since you were away (on_abandon: bot); POST reclaim to play again.",
        ),
        "nothing_to_reclaim": (409, "You play your seat yourself: no computer player holds it for you."),
        "idempotency_key_reused": (422, "This Idempotency-Key was used for a different request."),
    },
)
