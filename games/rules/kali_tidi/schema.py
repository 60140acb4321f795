"""The JSON types of Kali Tidi's actions, view and scored hand, for the API's document."""

from __future__ import annotations

from ..schema import (
    CARD,
    CARD_SUIT,
    CARDS,
    CLAIM_EVENTS,
    COUNT,
    HAND_END_EVENTS,
    INTS,
    SEAT_NUMBER,
    SEATS,
    GameSchema,
    last_trick,
    nullable,
    payload,
    record,
)
from .engine import BID_STEP, OPTIONS

TEAM_MODES = next(o.choices or () for o in OPTIONS.options if o.name == "team_mode")

SCHEMA = GameSchema(
    action_fields={
        "cards": CARDS,
        "value": {"type": "integer", "minimum": BID_STEP, "multipleOf": BID_STEP},
        "suit": CARD_SUIT,
        "card": CARD,
    },
    required_fields={
        "remove_cards": ("cards",),
        "bid": ("value",),
        "call_partners": ("cards",),
        "trump": ("suit",),
        "play": ("card",),
    },
    hand_piece=CARD,
    trick_piece=("card", CARD),
    trump=nullable(CARD_SUIT),
    result=record(
        "A scored hand of Kali Tidi.",
        round={"type": "integer"},
        bidder=SEAT_NUMBER,
        bid={"type": "integer"},
        trump=CARD_SUIT,
        called=CARDS,
        partners=SEATS,
        bidding_side=SEATS,
        other_side=SEATS,
        bidding_points={"type": "integer"},
        other_points={"type": "integer"},
        points=INTS,
        made={"type": "boolean"},
        hand_winners=SEATS,
        scores=INTS,
        match_over={"type": "boolean"},
        winners=SEATS,
    ),
    view_fields={
        "first_bidder": SEAT_NUMBER,
        "team_mode": {"type": "string", "enum": list(TEAM_MODES)},
        "decks": {"type": "integer", "minimum": 1, "maximum": 2},
        "remover": nullable(SEAT_NUMBER),
        "remove_count": {"type": "integer"},
        "removed": CARDS,
        "bidder": nullable(SEAT_NUMBER),
        "min_bid": {"type": "integer"},
        "max_bid": {"type": "integer"},
        "called": CARDS,
        "partners": SEATS,
        "trump_card": nullable(CARD),
        "led_suit": nullable(CARD_SUIT),
        "tricks_played": {"type": "integer"},
        "last_trick": last_trick("card", CARD, {"points": {"type": "integer"}}),
        "target": {"type": "integer"},
    },
    seat_fields={
        "cards_left": {"type": "integer"},
        "points_taken": {"type": "integer"},
        "tricks_taken": {"type": "integer"},
        "bid": nullable({"type": "integer"}),
        "passed": {"type": "boolean"},
        "partner": {"type": "boolean"},
        "ready": {"type": "boolean"},
    },
    template_types=frozenset({"remove_cards", "call_partners"}),
    template_fields={"count": COUNT, "choices": CARDS},
    events={
        **HAND_END_EVENTS,
        **CLAIM_EVENTS,
        "cards_removed": payload(
            "The zero-point cards set aside so the deck deals evenly.", seat=SEAT_NUMBER, cards=CARDS
        ),
        "bid": payload("A seat bid.", seat=SEAT_NUMBER, value={"type": "integer"}),
        "pass": payload("A seat passed in the auction.", seat=SEAT_NUMBER),
        "auction_won": payload(
            "The auction is over: the bidder, the bid, and whether everyone passed (the first bidder then "
            "plays the lowest bid).",
            seat=SEAT_NUMBER,
            bid={"type": "integer"},
            all_passed={"type": "boolean"},
        ),
        "partners_called": payload(
            "The bidder called the cards whose holders are its partners.", seat=SEAT_NUMBER, cards=CARDS
        ),
        "trump": payload("The bidder named trumps.", seat=SEAT_NUMBER, suit=CARD_SUIT),
        "play": payload("A seat played a card.", seat=SEAT_NUMBER, card=CARD),
        "partner_revealed": payload(
            "A called card was played: its holder is now known as the bidder's partner.", seat=SEAT_NUMBER, card=CARD
        ),
        "trick_won": payload(
            "A trick was taken: by whom, how many tricks are played, and its points.",
            winner=SEAT_NUMBER,
            trick={"type": "integer"},
            points={"type": "integer"},
            seat={
                **SEAT_NUMBER,
                "description": "The winner again, as Kali Tidi's events first named it: read `winner`.",
                "deprecated": True,
            },
        ),
    },
    rule_codes={
        "bad_bid_step": (400, "Bids go up in the game's steps."),
        "card_has_points": (400, "Only zero-point cards may be removed."),
        "not_callable": (400, "Nobody else holds that card."),
    },
)
