"""The codes games answer: the engines' refusals of an action, and the rooms', seats'
and matches' own."""

from __future__ import annotations

from core.errors import Catalogue

# What an engine can answer to an action (tests/test_error_codes.py holds this to the
# engines' sources).
_RULES = {
    "must_follow_suit": (400, "You hold the led suit and must play it."),
    "hearts_not_broken": (400, "Hearts may not be led before they are broken."),
    "no_points_on_first_trick": (400, "No heart or Q♠ on the first trick unless you hold nothing else."),
    "must_lead_two_of_clubs": (400, "The first trick must be led with 2♣ (or a club with lead_any_club)."),
    "must_lead_trump": (400, "The first lead must be a trump."),
    "bad_pass": (400, "The cards passed are not a valid pass."),
    "card_not_in_hand": (400, "That card is not in your hand."),
    "tile_not_in_hand": (400, "That tile is not in your hand."),
    "bid_too_low": (400, "The bid must be higher than the current bid and at least the minimum."),
    "bid_too_high": (400, "The bid is above the maximum."),
    "bad_bid_step": (400, "Bids go up in the game's steps."),
    "moon_not_allowed": (400, "Moon may not be bid now."),
    "bad_suit": (400, "Not a suit of this game."),
    "widow_discard_required": (400, "Taking the widow needs a discard."),
    "widow_compulsory": (400, "This room's bidder must take the widow."),
    "wrong_count": (400, "The wrong number of cards."),
    "card_has_points": (400, "Only zero-point cards may be removed."),
    "not_callable": (400, "Nobody else holds that card."),
    "claim_not_certain": (
        400,
        "A claim of the remaining tricks was refused: it is not certain (or too long to prove) that "
        "your side takes every one whatever anyone plays. Nothing changed; play on.",
    ),
    "unknown_action": (400, "The action's type is not known or the action is malformed."),
    # About timing rather than the move itself.
    "not_your_turn": (409, "It is not your turn (checked before the phase)."),
    "wrong_phase": (409, "That action is not possible in the current phase."),
}

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
            "The hand in play is dealt: a client seed counts from the next hand, set between hands.",
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
