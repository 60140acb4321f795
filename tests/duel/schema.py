"""The JSON types of Duel's actions, view and scored hand, for the API's document."""

from __future__ import annotations

from games.rules.schema import (
    CARD,
    HAND_END_EVENTS,
    INTS,
    SEAT_NUMBER,
    SEATS,
    GameSchema,
    last_trick,
    payload,
    record,
)

SCHEMA = GameSchema(
    action_fields={"card": CARD},
    required_fields={"play": ("card",)},
    hand_piece=CARD,
    trick_piece=("card", CARD),
    trump={"type": "null", "description": "Duel has no trumps."},
    result=record(
        "A scored hand of Duel.",
        round={"type": "integer"},
        points={**INTS, "description": "Tricks taken this hand: a point against each."},
        scores=INTS,
        match_over={"type": "boolean"},
        winners=SEATS,
    ),
    view_fields={"last_trick": last_trick("card", CARD)},
    seat_fields={"cards_left": {"type": "integer"}, "tricks_taken": {"type": "integer"}},
    events={
        **HAND_END_EVENTS,
        "play": payload("A seat played a card.", seat=SEAT_NUMBER, card=CARD),
        "trick_won": payload("A trick was taken.", winner=SEAT_NUMBER, trick={"type": "integer"}),
    },
)
