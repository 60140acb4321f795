"""OpenAPI components for the game view and the action body, built from the engines.

Each engine declares its phases with the actions they accept (`phase_actions`) and each
action type's fields (`action_fields`); the components below are made from those, so a
new game, phase or action type appears in the document by itself. What the engines do
not declare is the JSON type of a field or of a view's game-specific part: that is
written here, per game, and building the document fails when an engine declares a field
this module does not type, so the two cannot drift apart silently.

Built when the document is generated (a postprocessing hook), never per request.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games import rules
from games.models import RoomStatus
from games.rules import cards, dominoes, fairness, hearts, kali_tidi, moon
from games.rules.base import COMPLETE, MATCH_OVER

from .serializers import POSITIVE_INT_MAX

Schema = dict[str, Any]

# The phase the view reports before the first hand is dealt (games.selectors.table_view).
LOBBY = "lobby"

SEAT_NUMBER: Schema = {"type": "integer", "minimum": 0}
SEATS: Schema = {"type": "array", "items": SEAT_NUMBER}
CARD: Schema = {
    "type": "string",
    "pattern": f"^[{cards.RANKS}][{cards.SUITS}]$",
    "description": "A card: rank (2-9, T, J, Q, K, A) then suit (C, D, H, S), e.g. `QS`.",
}
CARDS: Schema = {"type": "array", "items": CARD}
TILE: Schema = {
    "type": "string",
    "pattern": f"^[0-{dominoes.HIGH}]-[0-{dominoes.HIGH}]$",
    "description": "A domino tile, high end first, e.g. `6-4`.",
}
CARD_SUIT: Schema = {"type": "string", "enum": list(cards.SUITS)}
MOON_SUIT: Schema = {"type": "integer", "minimum": 0, "maximum": dominoes.HIGH}
COUNT: Schema = {"type": "integer", "minimum": 1, "description": "How many of `choices` to send."}


def nullable(schema: Schema) -> Schema:
    out = {**schema, "nullable": True}
    if "enum" in schema:
        # OpenAPI 3.0.3: `nullable` does not widen an enum; null must be one of its values.
        out["enum"] = [*schema["enum"], None]
    return out


def _choices(engine: Any, option: str) -> tuple[Any, ...]:
    return next(o.choices for o in engine.OPTIONS.options if o.name == option)


# The JSON type of each action field, per game: what a body sends.
ACTION_FIELD_SCHEMAS: dict[str, dict[str, Schema]] = {
    "hearts": {
        "cards": {
            **CARDS,
            "minItems": hearts.PASS_COUNT,
            "maxItems": hearts.PASS_COUNT,
            "description": "The cards passed (a standard pass).",
        },
        "to": {
            "type": "object",
            "additionalProperties": CARD,
            "minProperties": hearts.PASS_COUNT,
            "maxProperties": hearts.PASS_COUNT,
            "description": 'A funky pass: receiving seat (as a string) to card, e.g. `{"1": "QS"}`.',
        },
        "card": CARD,
        "choice": {"type": "string", "enum": list(hearts.MOON_CHOICES)},
    },
    "moon": {
        "value": {
            "type": "integer",
            "enum": [*range(moon.MIN_BID, moon.MAX_BID + 1), moon.MOON],
            "description": f"Tricks bid, or {moon.MOON} for moon.",
        },
        "suit": MOON_SUIT,
        "take": {"type": "boolean"},
        "discard": TILE,
        "tile": TILE,
    },
    "kali_tidi": {
        "cards": CARDS,
        "value": {"type": "integer", "minimum": kali_tidi.BID_STEP, "multipleOf": kali_tidi.BID_STEP},
        "suit": CARD_SUIT,
        "card": CARD,
    },
}

# Fields that a body must send, per game and type; every other declared field is optional.
REQUIRED_FIELDS: dict[str, dict[str, tuple[str, ...]]] = {
    # A pass names `cards`, or `to` when the pass is funky: neither alone is required.
    "hearts": {"play": ("card",), "moon_choice": ("choice",)},
    "moon": {"bid": ("value",), "trump": ("suit",), "widow": ("take",), "play": ("tile",)},
    "kali_tidi": {
        "remove_cards": ("cards",),
        "bid": ("value",),
        "call_partners": ("cards",),
        "trump": ("suit",),
        "play": ("card",),
    },
}

# Multi-card choices arrive in `legal_actions` as a template (count and choices), not whole.
TEMPLATE_FIELDS: dict[str, dict[str, Schema]] = {
    "hearts": {
        "count": COUNT,
        "choices": CARDS,
        "to": {**SEATS, "description": "A funky pass: the seats that get one card each."},
    },
    "moon": {},
    "kali_tidi": {"count": COUNT, "choices": CARDS},
}
TEMPLATE_TYPES: dict[str, frozenset[str]] = {
    "hearts": frozenset({"pass_cards"}),
    "moon": frozenset(),
    "kali_tidi": frozenset({"remove_cards", "call_partners"}),
}


def _trick(piece: str, piece_schema: Schema) -> Schema:
    return {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"seat": SEAT_NUMBER, piece: piece_schema},
            "required": ["seat", piece],
        },
    }


def _last_trick(piece: str, piece_schema: Schema, extra: Schema | None = None) -> Schema:
    props = {f"{piece}s": _trick(piece, piece_schema), "winner": SEAT_NUMBER, **(extra or {})}
    return nullable({"type": "object", "properties": props, "required": list(props)})


# The game-specific part of each view: top-level fields, each seat's facts, and `you`'s.
# None of them is present in the lobby, so none is required.
VIEW_FIELDS: dict[str, Schema] = {
    "hearts": {
        "pass_direction": nullable({"type": "string", "enum": [*hearts.PASS_OFFSET, *_choices(hearts, "fourth_hand")]}),
        "led_suit": nullable(CARD_SUIT),
        "tricks_played": {"type": "integer"},
        "last_trick": _last_trick("card", CARD),
        "hearts_broken": {"type": "boolean"},
        "moon_shooter": nullable(SEAT_NUMBER),
    },
    "moon": {
        "redeals": {"type": "integer"},
        "teams": nullable({"type": "array", "items": SEATS}),
        "bidder": nullable(SEAT_NUMBER),
        "widow_taken": nullable({"type": "boolean"}),
        "led_suit": {
            "nullable": True,
            "description": 'The suit led: a pip number (0-6), or `"trump"`.',
            "oneOf": [MOON_SUIT, {"type": "string", "enum": ["trump"]}],
        },
        "tricks_played": {"type": "integer"},
        "last_trick": _last_trick("tile", TILE),
    },
    "kali_tidi": {
        "first_bidder": SEAT_NUMBER,
        "team_mode": {"type": "string", "enum": list(_choices(kali_tidi, "team_mode"))},
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
        "last_trick": _last_trick("card", CARD, {"points": {"type": "integer"}}),
        "target": {"type": "integer"},
    },
}
SEAT_FIELDS: dict[str, Schema] = {
    "hearts": {
        "cards_left": {"type": "integer"},
        "tricks_taken": {"type": "integer"},
        "points_taken": {"type": "integer"},
        "passed": {"type": "boolean"},
        "ready": {"type": "boolean"},
    },
    "moon": {
        "tiles_left": {"type": "integer"},
        "tricks_taken": {"type": "integer"},
        "bid": nullable({"type": "integer"}),
        "passed": {"type": "boolean"},
        "ready": {"type": "boolean"},
    },
    "kali_tidi": {
        "cards_left": {"type": "integer"},
        "points_taken": {"type": "integer"},
        "tricks_taken": {"type": "integer"},
        "bid": nullable({"type": "integer"}),
        "passed": {"type": "boolean"},
        "partner": {"type": "boolean"},
        "ready": {"type": "boolean"},
    },
}
YOU_FIELDS: dict[str, Schema] = {
    "hearts": {
        "pass_chosen": {
            "nullable": True,
            "description": "The cards you passed (a list), or seat to card (a funky pass).",
            "oneOf": [CARDS, {"type": "object", "additionalProperties": CARD}],
        },
        "received": {
            "nullable": True,
            "description": "What you were passed: from one seat, or from each (a funky pass).",
            "oneOf": [
                {"$ref": "#/components/schemas/HeartsReceived"},
                {"type": "array", "items": {"$ref": "#/components/schemas/HeartsReceived"}},
            ],
        },
    },
    "moon": {"widow": nullable(TILE), "discard": nullable(TILE)},
    "kali_tidi": {},
}
INTS: Schema = {"type": "array", "items": {"type": "integer"}}


def _record(description: str, **props: Schema) -> Schema:
    # A scored hand always holds every one of its fields.
    return {"type": "object", "description": description, "properties": props, "required": list(props)}


# A scored hand (`last_round` between hands, and the hand summaries), per game.
RESULTS: dict[str, Schema] = {
    "hearts": _record(
        "A scored hand of Hearts.",
        round={"type": "integer"},
        points={**INTS, "description": "Each seat's points this hand."},
        scores={**INTS, "description": "The match totals after it."},
        tricks=INTS,
        moon=nullable(
            {
                "type": "object",
                "properties": {
                    "shooter": SEAT_NUMBER,
                    "choice": {"type": "string", "enum": list(hearts.MOON_CHOICES)},
                },
                "required": ["shooter", "choice"],
            }
        ),
        no_trick={**SEATS, "description": "Seats given the no-trick bonus."},
        match_over={"type": "boolean"},
        winners=SEATS,
    ),
    "moon": _record(
        "A scored hand of Moon.",
        round={"type": "integer"},
        dealer=SEAT_NUMBER,
        bidder=SEAT_NUMBER,
        bid={"type": "integer"},
        moon={"type": "boolean", "description": "The bid was moon (21)."},
        trump=nullable(MOON_SUIT),
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
    "kali_tidi": _record(
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
}
HAND_PIECE: dict[str, Schema] = {"hearts": CARD, "moon": TILE, "kali_tidi": CARD}
TRICK_PIECE: dict[str, tuple[str, Schema]] = {
    "hearts": ("card", CARD),
    "moon": ("tile", TILE),
    "kali_tidi": ("card", CARD),
}
TRUMP: dict[str, Schema] = {
    "hearts": nullable(CARD_SUIT),
    "moon": nullable(MOON_SUIT),
    "kali_tidi": nullable(CARD_SUIT),
}
EXTRA_COMPONENTS: Schema = {
    "FairnessCommitment": {
        "type": "object",
        "properties": {
            "algorithm": {"type": "string", "enum": [fairness.ALGORITHM]},
            "commitment": {"type": "string", "description": "SHA-256 (hex) of the 64 characters of the server seed."},
            "hand": {"type": "integer", "description": "The hand whose deal the seed shuffles."},
        },
        "required": ["algorithm", "commitment", "hand"],
    },
    "HeartsReceived": {
        "type": "object",
        "properties": {"from": SEAT_NUMBER, "cards": CARDS},
        "required": ["from", "cards"],
    },
}


def _camel(*words: str) -> str:
    return "".join(part.capitalize() for word in words for part in word.split("_"))


def _game_name(game: rules.Game) -> str:
    return _camel(game.key)


def _type_enum(kind: str) -> Schema:
    return {"type": "string", "enum": [kind]}


def _of[T](table: Mapping[str, T], game: rules.Game) -> T:
    """A game's entry in one of the tables above: a new game must be typed there too."""
    if game.key not in table:
        raise LookupError(f"api/game_schemas.py does not describe {game.key}'s view and actions yet.")
    return table[game.key]


def _field_schemas(game: rules.Game) -> dict[str, Schema]:
    declared = {name for fields in game.action_fields.values() for name in fields}
    typed = _of(ACTION_FIELD_SCHEMAS, game)
    missing = sorted(declared - set(typed))
    if missing:
        raise LookupError(f"api/game_schemas.py gives no JSON type for {game.key}'s action fields {missing}.")
    return typed


def action_components(game: rules.Game) -> dict[str, Schema]:
    """One component per action type (what a body sends), and `<Game>Action`: one of
    them, discriminated by `type`."""
    fields = _field_schemas(game)
    required = _of(REQUIRED_FIELDS, game)
    out: dict[str, Schema] = {}
    mapping: dict[str, str] = {}
    for kind, names in game.action_fields.items():
        name = _camel(game.key, kind, "action")
        out[name] = {
            "type": "object",
            "properties": {"type": _type_enum(kind), **{f: fields[f] for f in sorted(names)}},
            "required": ["type", *required.get(kind, ())],
            "additionalProperties": False,
        }
        mapping[kind] = f"#/components/schemas/{name}"
    out[f"{_game_name(game)}Action"] = {
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping},
        "description": f"An action in {game.name}.",
    }
    return out


def legal_action_component(game: rules.Game) -> Schema:
    """An entry of `legal_actions`: whole actions, and the multi-card templates."""
    fields = _field_schemas(game)
    templates = _of(TEMPLATE_FIELDS, game)
    whole = {f for kind, names in game.action_fields.items() if kind not in _of(TEMPLATE_TYPES, game) for f in names}
    props = {f: fields[f] for f in sorted(whole)}
    props.update(templates)
    return {
        "type": "object",
        "description": (
            "Something you may do now. Single choices are whole actions, ready to send; "
            "multi-card choices are a template: send `count` of `choices`."
        ),
        "properties": {"type": {"type": "string", "enum": sorted(game.action_fields)}, **props},
        "required": ["type"],
    }


def phases(game: rules.Game) -> list[str]:
    return [LOBBY, *game.phase_actions, COMPLETE, MATCH_OVER]


def view_component(game: rules.Game) -> Schema:
    label = _game_name(game)
    piece, piece_schema = _of(TRICK_PIECE, game)
    seat = {
        "type": "object",
        "description": "A seat's public facts. Its game facts are absent in the lobby.",
        "properties": {
            "seat": SEAT_NUMBER,
            "user": nullable({"type": "string", "description": "The player's username; null for a computer player."}),
            "display_name": {"type": "string"},
            "is_bot": {"type": "boolean"},
            "team": nullable({"type": "integer", "description": "Where the team is public."}),
            "client_seed": {"type": "string", "description": "The player's public seed for the next deal."},
            **_of(SEAT_FIELDS, game),
        },
        "required": ["seat", "user", "display_name", "is_bot", "team", "client_seed"],
    }
    you = {
        "type": "object",
        "description": "What only you know and may do; absent for spectators.",
        "properties": {
            "seat": SEAT_NUMBER,
            "hand": {"type": "array", "items": _of(HAND_PIECE, game)},
            "legal_actions": {"type": "array", "items": {"$ref": f"#/components/schemas/{label}LegalAction"}},
            **_of(YOU_FIELDS, game),
        },
        "required": ["seat", "hand", "legal_actions"],
    }
    common = {
        "code": {"type": "string"},
        "game": {"type": "string", "enum": [game.key]},
        "version": {"type": "integer", "description": "Send it with your next action."},
        "status": {"type": "string", "enum": list(RoomStatus.values)},
        "status_reason": {
            "type": "string",
            "description": "Why the match ended as it did, said to the reader: the player whose idleness "
            'abandoned it reads "You did not play in time", the others their name.',
        },
        "deadline": nullable(
            {
                "type": "string",
                "format": "date-time",
                "description": "When the turn clock runs out and the server acts for the players to act "
                "(in the pause between hands: when the next hand is dealt). Every turn has its own, the "
                "same seat's next turn included; extended by any outage of the server.",
            }
        ),
        "rematch": nullable(
            {
                "type": "object",
                "description": "Once the match is finished or abandoned: the seats whose players want a "
                "rematch with the same players (POST rooms/{code}/rematch), and the rematch's room once all "
                "of them agreed. Null while the match is played, and for a room a moderator closed.",
                "properties": {
                    "agreed": {"type": "array", "items": {"type": "integer"}},
                    "room": nullable({"type": "string", "description": "The rematch's room code."}),
                },
                "required": ["agreed", "room"],
                "additionalProperties": False,
            }
        ),
        "abandon_deadline": nullable(
            {
                "type": "string",
                "format": "date-time",
                "description": "Only in your own view, while the game waits for you outside the pause "
                "between hands: when, if you do not act, your own waiting time (the turns since your last "
                "action, never others' time or the server's outages) reaches abandon_seconds and the match "
                "is abandoned or your seat handed to a computer player (options.on_abandon). Null otherwise.",
            }
        ),
        "fairness": {
            "nullable": True,
            "description": "The commitment to the server seed of the next hand to be dealt (during a hand: "
            "of that hand's).",
            "allOf": [{"$ref": "#/components/schemas/FairnessCommitment"}],
        },
        "phase": {"type": "string", "enum": phases(game)},
        "round": {"type": "integer"},
        "dealer": nullable(SEAT_NUMBER),
        "to_act": SEATS,
        "seats": {"type": "array", "items": {"$ref": f"#/components/schemas/{label}Seat"}},
        "trick": _trick(piece, piece_schema),
        "trump": _of(TRUMP, game),
        "bid": nullable({"type": "integer"}),
        "scores": {"type": "array", "items": {"type": "integer"}},
        "last_round": {
            "nullable": True,
            "description": "The hand just finished, between hands.",
            "allOf": [{"$ref": f"#/components/schemas/{label}Result"}],
        },
    }
    return {
        "view": {
            "type": "object",
            "description": f"A view of a {game.name} room.",
            "properties": {**common, **_of(VIEW_FIELDS, game), "you": {"$ref": f"#/components/schemas/{label}You"}},
            "required": list(common),
        },
        "seat": seat,
        "you": you,
    }


def components() -> dict[str, Schema]:
    """Every game's view, seats, `you`, legal actions, scored hand and action bodies, and
    the unions: `GameView` (one game's view, by `game`) and `ActionRequest` (any game's action)."""
    out: dict[str, Schema] = dict(EXTRA_COMPONENTS)
    views: dict[str, str] = {}
    actions: list[Schema] = []
    for game in rules.all_games():
        label = _game_name(game)
        parts = view_component(game)
        out[f"{label}View"] = parts["view"]
        out[f"{label}Seat"] = parts["seat"]
        out[f"{label}You"] = parts["you"]
        out[f"{label}LegalAction"] = legal_action_component(game)
        out[f"{label}Result"] = _of(RESULTS, game)
        out.update(action_components(game))
        views[game.key] = f"#/components/schemas/{label}View"
        actions.append({"$ref": f"#/components/schemas/{label}Action"})
    out["GameView"] = {
        "oneOf": [{"$ref": ref} for ref in views.values()],
        "discriminator": {"propertyName": "game", "mapping": views},
        "description": "The caller's view of a room, by game.",
    }
    out["ActionRequest"] = {
        "type": "object",
        "properties": {
            "version": {
                "type": "integer",
                "minimum": 0,
                "maximum": POSITIVE_INT_MAX,
                "description": "The `version` of the view you acted on.",
            },
            # The body does not name the game (the room does), and the same action can
            # be valid in two games (Hearts' and Kali Tidi's `play`): any of, not one of.
            "action": {"anyOf": actions},
        },
        "required": ["version", "action"],
        "additionalProperties": False,
    }
    return out


GAME_VIEW_REF: Schema = {"$ref": "#/components/schemas/GameView"}
ACTION_REQUEST_REF: Schema = {"$ref": "#/components/schemas/ActionRequest"}


def add_game_components(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the components the game endpoints refer to."""
    result.setdefault("components", {}).setdefault("schemas", {}).update(components())
    return result
