"""The JSON types of Hearts' actions, view and scored hand, for the API's document."""

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
from .engine import MOON_CHOICES, OPTIONS, PASS_COUNT, PASS_OFFSET

FOURTH_HAND = next(o.choices or () for o in OPTIONS.options if o.name == "fourth_hand")
MOON_CHOICE = {"type": "string", "enum": list(MOON_CHOICES)}
PASS_DIRECTION = {"type": "string", "enum": [*PASS_OFFSET, *FOURTH_HAND]}
# One component for every place a direction is read, so a generator makes one type of it.
PASS_DIRECTION_REF = {"$ref": "#/components/schemas/HeartsPassDirection"}
FUNKY_PASS = {"type": "object", "additionalProperties": CARD, "description": "Seat (as a string) to the card it gets."}

SCHEMA = GameSchema(
    action_fields={
        "cards": {
            **CARDS,
            "minItems": PASS_COUNT,
            "maxItems": PASS_COUNT,
            "description": "The cards passed; in a funky pass, `cards[i]` goes to seat `to[i]`.",
        },
        "to": {
            **SEATS,
            "minItems": PASS_COUNT,
            "maxItems": PASS_COUNT,
            "description": "A funky pass only: each other seat once, in the order of `cards` (as the legal "
            'action lists them). The earlier form, `to` as seat to card (`{"1": "QS", ...}`) without '
            "`cards`, is still accepted.",
        },
        "card": CARD,
        "choice": MOON_CHOICE,
    },
    # A pass names `cards`, and `to` as well when the pass is funky.
    required_fields={"pass_cards": ("cards",), "play": ("card",), "moon_choice": ("choice",)},
    hand_piece=CARD,
    trick_piece=("card", CARD),
    trump=nullable(CARD_SUIT),
    result=record(
        "A scored hand of Hearts.",
        round={"type": "integer"},
        points={**INTS, "description": "Each seat's points this hand."},
        scores={**INTS, "description": "The match totals after it."},
        tricks=INTS,
        moon=nullable(
            {
                "type": "object",
                "properties": {"shooter": SEAT_NUMBER, "choice": MOON_CHOICE},
                "required": ["shooter", "choice"],
            }
        ),
        no_trick={**SEATS, "description": "Seats given the no-trick bonus."},
        match_over={"type": "boolean"},
        winners=SEATS,
    ),
    view_fields={
        "pass_direction": nullable(PASS_DIRECTION_REF),
        "led_suit": nullable(CARD_SUIT),
        "tricks_played": {"type": "integer"},
        "last_trick": last_trick("card", CARD),
        "hearts_broken": {"type": "boolean"},
        "moon_shooter": nullable(SEAT_NUMBER),
    },
    seat_fields={
        "cards_left": {"type": "integer"},
        "tricks_taken": {"type": "integer"},
        "points_taken": {"type": "integer"},
        "passed": {"type": "boolean"},
        "ready": {"type": "boolean"},
    },
    you_fields={
        "pass_chosen": {
            "description": "The cards you passed (a list), or seat to card (a funky pass).",
            "oneOf": [CARDS, FUNKY_PASS, {"type": "null"}],
        },
        "received": {
            "description": "What you were passed: from one seat, or from each (a funky pass).",
            "oneOf": [
                {"$ref": "#/components/schemas/HeartsReceived"},
                {"type": "array", "items": {"$ref": "#/components/schemas/HeartsReceived"}},
                {"type": "null"},
            ],
        },
    },
    template_types=frozenset({"pass_cards"}),
    template_fields={"count": COUNT, "choices": CARDS},
    components={
        "HeartsPassDirection": {
            **PASS_DIRECTION,
            "description": "Where the cards go: left, right or across, or every fourth hand as the "
            "`fourth_hand` option says (`hold`: no pass; `funky`: one card to each other player).",
        },
        "HeartsReceived": {
            "type": "object",
            "properties": {"from": SEAT_NUMBER, "cards": CARDS},
            "required": ["from", "cards"],
        },
    },
    events={
        **HAND_END_EVENTS,
        **CLAIM_EVENTS,
        "passed": payload(
            "A seat chose the cards it passes (which, only it and its receivers learn).", seat=SEAT_NUMBER
        ),
        "pass_chosen": payload(
            "Seen only by the seat that passed: the cards it chose, or in a funky pass which card goes to whom.",
            optional=("cards", "to"),
            seat=SEAT_NUMBER,
            cards=CARDS,
            to=FUNKY_PASS,
        ),
        # (`from` is a keyword of Python: this one is written out.)
        "cards_passed": {
            "type": "object",
            "description": "Seen only by giver and receiver, once every seat has chosen: the cards that went "
            "from one to the other.",
            "properties": {"from": SEAT_NUMBER, "to": SEAT_NUMBER, "cards": CARDS},
            "required": ["from", "to", "cards"],
        },
        "pass_complete": payload(
            "The pass is done: its direction, and the seat that leads the first trick.",
            direction=PASS_DIRECTION_REF,
            leader=SEAT_NUMBER,
        ),
        "play": payload("A seat played a card.", seat=SEAT_NUMBER, card=CARD),
        "hearts_broken": payload("The card that broke hearts, and who played it.", seat=SEAT_NUMBER, card=CARD),
        "trick_won": payload(
            "A trick was taken: by whom, its points, and how many tricks are played.",
            winner=SEAT_NUMBER,
            points={"type": "integer"},
            trick={"type": "integer"},
        ),
        "moon_shot": payload(
            "A seat took every point: its choice, null until it chooses (or when the rules choose for it).",
            shooter=SEAT_NUMBER,
            choice=nullable(MOON_CHOICE),
        ),
        "moon_chosen": payload("The shooter chose how the moon scores.", seat=SEAT_NUMBER, choice=MOON_CHOICE),
    },
    rule_codes={
        "hearts_not_broken": (400, "Hearts may not be led before they are broken."),
        "no_points_on_first_trick": (400, "No heart or Q♠ on the first trick unless you hold nothing else."),
        "must_lead_two_of_clubs": (400, "The first trick must be led with 2♣ (or a club with lead_any_club)."),
        "bad_pass": (400, "The cards passed are not a valid pass."),
    },
)
