"""The JSON types a game declares for the API's document, and the ones games share.

The engines declare their phases, action types and each type's fields; what they do not
say is a field's JSON type, nor the shape of the game's part of a view and of a scored
hand. Each game writes those in its folder's `schema.py` as a `GameSchema`, from the
shared types below, and `api.game_schemas` builds the OpenAPI components from them.
Plain data: nothing here knows OpenAPI tooling, only the JSON shapes (OpenAPI 3.1, whose
schemas are JSON Schema 2020-12: null is a type like any other).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import cards, dominoes
from .errors import RuleCodes

Schema = dict[str, Any]

SEAT_NUMBER: Schema = {"type": "integer", "minimum": 0}
SEATS: Schema = {"type": "array", "items": SEAT_NUMBER}
INTS: Schema = {"type": "array", "items": {"type": "integer"}}
CARD: Schema = {
    "type": "string",
    "pattern": f"^[{cards.RANKS}][{cards.SUITS}]$",
    "description": "A card: rank (2-9, T, J, Q, K, A) then suit (C, D, H, S), e.g. `QS`.",
}
CARDS: Schema = {"type": "array", "items": CARD}
# A suit is one component, so generated clients make one type of it, not one per field.
CARD_SUIT: Schema = {"$ref": "#/components/schemas/CardSuit"}
TILE: Schema = {
    "type": "string",
    "pattern": f"^[0-{dominoes.HIGH}]-[0-{dominoes.HIGH}]$",
    "description": "A domino tile, high end first, e.g. `6-4`.",
}
COUNT: Schema = {"type": "integer", "minimum": 1, "description": "How many of `choices` to send."}


# The components every game's types may refer to.
SHARED_COMPONENTS: dict[str, Schema] = {
    "CardSuit": {"type": "string", "enum": list(cards.SUITS), "description": "A suit: C, D, H or S."},
}


def open_enum(values: list[str], description: str) -> Schema:
    """A string whose known values are `values` and to which later versions of v1 may add
    (docs/api/contract.md): the known ones typed, any other string
    accepted. `x-open` marks a choice whose last alternative is the fallback for values
    added later."""
    return {
        "anyOf": [{"type": "string", "enum": values}, {"type": "string"}],
        "x-open": True,
        "description": description,
    }


def nullable(schema: Schema) -> Schema:
    """`schema` or null. A typed schema adds "null" to its types (and to its enum, which
    null must also be one of); any other (a reference, a choice of schemas) becomes one
    of it and null, its description kept outside where readers look for it."""
    kind = schema.get("type")
    if isinstance(kind, str):
        out = {**schema, "type": [kind, "null"]}
        if "enum" in schema:
            out["enum"] = [*schema["enum"], None]
        return out
    described = {k: schema[k] for k in ("description",) if k in schema}
    inner = {k: v for k, v in schema.items() if k not in described}
    return {"anyOf": [inner, {"type": "null"}], **described}


def trick(piece: str, piece_schema: Schema) -> Schema:
    """A trick as the view shows it: who played which `piece` ("card", "tile"), in order."""
    return {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"seat": SEAT_NUMBER, piece: piece_schema},
            "required": ["seat", piece],
        },
    }


def last_trick(piece: str, piece_schema: Schema, extra: Schema | None = None) -> Schema:
    """The trick just won, kept in view until the next is led (`extra`: the game's own facts)."""
    props = {f"{piece}s": trick(piece, piece_schema), "winner": SEAT_NUMBER, **(extra or {})}
    return nullable({"type": "object", "properties": props, "required": list(props)})


def payload(description: str, *, optional: tuple[str, ...] = (), **props: Schema) -> Schema:
    """An event's fields beside its `type` (and the log's seq, round, version and at):
    all of them always there but those named `optional`."""
    return {
        "type": "object",
        "description": description,
        "properties": props,
        "required": [name for name in props if name not in optional],
    }


# The events every game's hands end with (`base.record_result`, `base.apply_next_round`);
# `hand_scored` is the game's scored hand (`GameSchema.result`) and needs no entry.
HAND_END_EVENTS: dict[str, Schema] = {
    "match_over": payload("The match is over: its winners and final totals.", winners=SEATS, scores=INTS),
    "ready": payload("A seat is ready for the next hand.", seat=SEAT_NUMBER),
}
# The event of an accepted claim (`claims`); the tricks it takes are played out as events after it.
CLAIM_EVENTS: dict[str, Schema] = {
    "claimed": payload("A seat claimed the rest of the tricks, and the claim held.", seat=SEAT_NUMBER),
}
# What a `play` event may say beside the game's own fields (a game without claims never says it).
CLAIM_PLAY_MARK: dict[str, Schema] = {
    "claimed": {
        "type": "boolean",
        "const": True,
        "description": "Present on the plays that played out an accepted claim (after its `claimed` event).",
    }
}


def record(description: str, **props: Schema) -> Schema:
    """A scored hand: it always holds every one of its fields."""
    return {"type": "object", "description": description, "properties": props, "required": list(props)}


@dataclass(frozen=True)
class GameSchema:
    """What the document needs to know of one game besides what its engine declares.

    Component names are the game's key in CamelCase (`KaliTidiView`); `components` may add
    the game's own, named the same way, for its fields to refer to.
    """

    # The JSON type of every action field the engine declares (`Game.action_fields`).
    action_fields: dict[str, Schema]
    # The fields a body must send, per action type; every other declared field is optional.
    required_fields: dict[str, tuple[str, ...]]
    # The piece a hand holds, and the name and type of one played to a trick.
    hand_piece: Schema
    trick_piece: tuple[str, Schema]
    # The view's `trump`.
    trump: Schema
    # The scored hand (`last_round` between hands, and the hand summaries).
    result: Schema
    # The game's own part of the view: top-level fields, each seat's facts and `you`'s.
    # None is present in the lobby, so none is required.
    view_fields: dict[str, Schema] = field(default_factory=dict)
    seat_fields: dict[str, Schema] = field(default_factory=dict)
    you_fields: dict[str, Schema] = field(default_factory=dict)
    # Action types whose multi-card choice arrives in `legal_actions` as a template
    # (count and choices) rather than whole, and the template's fields.
    template_types: frozenset[str] = frozenset()
    template_fields: dict[str, Schema] = field(default_factory=dict)
    components: dict[str, Schema] = field(default_factory=dict)
    # The fields of every event the engine logs, per type, besides `hand_scored` (which
    # is `result`); the document's `Event` is built from them, and the play-outs check
    # every event logged against it.
    events: dict[str, Schema] = field(default_factory=dict)
    # The codes of the game's own rules beside the shared ones (`errors.SHARED_RULE_CODES`).
    rule_codes: RuleCodes = field(default_factory=dict)
