"""The JSON types of Moon's actions, view and scored hand, for the API's document."""

from __future__ import annotations

from .. import dominoes
from ..schema import (
    CLAIM_EVENTS,
    HAND_END_EVENTS,
    INTS,
    SEAT_NUMBER,
    SEATS,
    TILE,
    GameSchema,
    last_trick,
    nullable,
    payload,
    record,
)
from .engine import MAX_BID, MIN_BID, MOON

SUIT = {"type": "integer", "minimum": 0, "maximum": dominoes.HIGH}

SCHEMA = GameSchema(
    action_fields={
        "value": {
            "type": "integer",
            "enum": [*range(MIN_BID, MAX_BID + 1), MOON],
            "description": f"Tricks bid, or {MOON} for moon.",
        },
        "suit": SUIT,
        "take": {"type": "boolean"},
        "discard": TILE,
        "tile": TILE,
    },
    required_fields={"bid": ("value",), "trump": ("suit",), "widow": ("take",), "play": ("tile",)},
    hand_piece=TILE,
    trick_piece=("tile", TILE),
    trump=nullable(SUIT),
    result=record(
        "A scored hand of Moon.",
        round={"type": "integer"},
        dealer=SEAT_NUMBER,
        bidder=SEAT_NUMBER,
        bid={"type": "integer"},
        moon={"type": "boolean", "description": "The bid was moon (21)."},
        trump=nullable(SUIT),
        widow_taken=nullable({"type": "boolean"}),
        made={"type": "boolean"},
        tricks=INTS,
        points=INTS,
        scores=INTS,
        teams=nullable({"type": "array", "items": SEATS}),
        match_over={"type": "boolean"},
        winners=SEATS,
        tie={"type": "boolean", "description": "An exact tie for highest: another hand is played."},
    ),
    view_fields={
        "redeals": {"type": "integer"},
        "teams": nullable({"type": "array", "items": SEATS}),
        "bidder": nullable(SEAT_NUMBER),
        "widow_taken": nullable({"type": "boolean"}),
        "led_suit": {
            "description": 'The suit led: a pip number (0-6), or `"trump"`.',
            "oneOf": [SUIT, {"type": "string", "enum": ["trump"]}, {"type": "null"}],
        },
        "tricks_played": {"type": "integer"},
        "last_trick": last_trick("tile", TILE),
    },
    seat_fields={
        "tiles_left": {"type": "integer"},
        "tricks_taken": {"type": "integer"},
        "bid": nullable({"type": "integer"}),
        "passed": {"type": "boolean"},
        "ready": {"type": "boolean"},
    },
    you_fields={"widow": nullable(TILE), "discard": nullable(TILE)},
    events={
        **HAND_END_EVENTS,
        **CLAIM_EVENTS,
        "bid": payload("A seat bid.", seat=SEAT_NUMBER, value={"type": "integer"}),
        "pass": payload("A seat passed in the auction.", seat=SEAT_NUMBER),
        "bid_won": payload("The auction is over: the bidder and the bid.", seat=SEAT_NUMBER, value={"type": "integer"}),
        "redeal": payload(
            "Everyone passed: the hand is dealt again by the next dealer.",
            dealer=SEAT_NUMBER,
            redeals={"type": "integer"},
        ),
        "trump": payload("The bidder named trumps.", seat=SEAT_NUMBER, suit=SUIT),
        "widow": payload("The bidder took the widow or left it.", seat=SEAT_NUMBER, take={"type": "boolean"}),
        "widow_private": payload(
            "Seen only by the bidder: the widow's tile, and the tile discarded for it (null when left).",
            seat=SEAT_NUMBER,
            widow=TILE,
            discard=nullable(TILE),
        ),
        "play": payload("A seat played a tile.", seat=SEAT_NUMBER, tile=TILE),
        "trick_won": payload(
            "A trick was taken: by whom, and how many tricks are played.", winner=SEAT_NUMBER, trick={"type": "integer"}
        ),
    },
    rule_codes={
        "moon_not_allowed": (400, "Moon may not be bid now."),
        "must_lead_trump": (400, "The first lead must be a trump."),
        "widow_discard_required": (400, "Taking the widow needs a discard."),
        "widow_compulsory": (400, "This room's bidder must take the widow."),
    },
)
