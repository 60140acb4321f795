"""OpenAPI components for the game view and the action body, built from the registered games.

Each engine declares its phases with the actions they accept (`phase_actions`) and each
action type's fields (`action_fields`); each game's folder declares the JSON types of
those fields and of its view's and scored hand's own parts (`game.schema`, a
`games.rules.schema.GameSchema`). The components below are made from those, so a new
game, phase or action type appears in the document by itself; building the document
fails when an engine declares a field its schema does not type, so the two cannot drift
apart silently. Nothing here knows any one game.

Built when the document is generated (a postprocessing hook), never per request.
"""

from __future__ import annotations

from typing import Any

from games import rules
from games.models import EndCause, RoomStatus
from games.rules import fairness
from games.rules import schema as rules_schema
from games.rules.base import COMPLETE, MATCH_OVER, VIEW_FIELDS, YOU_FIELDS
from games.rules.schema import SEAT_NUMBER, SEATS, Schema, nullable, open_enum, trick

from .serializers import POSITIVE_INT_MAX

# The phase the view reports before the first hand is dealt (games.selectors.table_view).
LOBBY = "lobby"

PHASE = (
    "Where the match stands: `lobby` before the first deal, the game's phases, `complete` between hands "
    "and `match_over` at the end. Later versions of v1 may add phases: treat one you do not know as a "
    "phase in which you have nothing to do unless `you.legal_actions` says otherwise."
)
ROOM_STATUS_REF: Schema = {"$ref": "#/components/schemas/RoomStatus"}
OPTION_VALUE: Schema = {
    "description": "An option's value (see each game's `options` in `games`).",
    "anyOf": [
        {"type": "string"},
        {"type": "integer"},
        {"type": "boolean"},
        {"type": "array", "items": {"type": "integer"}},
        {"type": "null"},
    ],
}

SHARED_COMPONENTS: Schema = {
    **rules_schema.SHARED_COMPONENTS,
    "RoomStatus": open_enum(
        list(RoomStatus.values),
        "`lobby` (seats open), `playing`, then `finished`, `abandoned` (a player's time ran out "
        "with on_abandon `end`, or everyone left) or `closed` (by a moderator). Later versions of v1 may add "
        "statuses: treat one you do not know as a room you cannot act in.",
    ),
    "EndCause": {
        "type": "object",
        "description": "Why an abandoned or closed room ended, for a client to say in its reader's language "
        "(`status_reason` holds the server's own English words).",
        "properties": {
            "code": open_enum(
                list(EndCause.values),
                "`idle`: the player in `seat` did not play in time; `everyone_away`: the last person's seat "
                "went to a computer player; `everyone_left`: everyone left the lobby before the start; "
                "`moderator`: a moderator closed the room, saying `words`. Later versions of v1 may add "
                "causes: show `status_reason` for one you do not know.",
            ),
            "seat": nullable({**SEAT_NUMBER, "description": "The idle player's seat (`idle`); null otherwise."}),
            "words": nullable(
                {
                    "type": "string",
                    "description": "The moderator's own words, as written (`moderator`); null otherwise.",
                }
            ),
        },
        "required": ["code", "seat", "words"],
    },
    "OtherLegalAction": {
        "type": "object",
        "description": "A legal action of a type this version of the document does not know.",
        "properties": {"type": {"type": "string"}},
        "required": ["type"],
    },
    "OtherGameView": {
        "type": "object",
        "description": "The view of a room of a game this version of the document does not know: what "
        "every game's view holds.",
        "properties": {
            "code": {"type": "string"},
            "game": {"type": "string"},
            "version": {"type": "integer"},
            "status": ROOM_STATUS_REF,
            "phase": {"type": "string"},
        },
        "required": ["code", "game", "version", "status", "phase"],
    },
    "OptionDescription": {
        "type": "object",
        "description": "One option of a game, for forms and people: its JSON type (`integer_list`: a list "
        "of whole numbers), default, meaning and allowed values.",
        "properties": {
            "type": {"type": "string", "enum": ["string", "integer", "boolean", "array"]},
            "default": OPTION_VALUE,
            "description": {"type": "string"},
            "nullable": {"type": "boolean", "description": "null (or leaving it out) means worked out from the others"},
            "choices": {"type": "array", "items": OPTION_VALUE},
            "minimum": {"type": "integer"},
            "maximum": {"type": "integer"},
            "items": {
                "type": "object",
                "properties": {
                    "type": {"type": "string", "enum": ["integer"]},
                    "minimum": {"type": "integer"},
                    "maximum": {"type": "integer"},
                },
                "required": ["type"],
            },
        },
        "required": ["type", "default", "description"],
    },
    "FairnessCommitment": {
        "type": "object",
        "properties": {
            "algorithm": {
                "type": "string",
                "enum": list(fairness.ALGORITHMS),
                "description": "The hand's (v1 only for a hand dealt before v2 came).",
            },
            "commitment": {"type": "string", "description": "SHA-256 (hex) of the 64 characters of the server seed."},
            "hand": {"type": "integer", "description": "The hand whose deal the seed shuffles."},
        },
        "required": ["algorithm", "commitment", "hand"],
    },
}


def _camel(*words: str) -> str:
    return "".join(part.capitalize() for word in words for part in word.split("_"))


def _game_name(game: rules.Game) -> str:
    return _camel(game.key)


def _type_const(kind: str) -> Schema:
    return {"type": "string", "const": kind}


def _field_schemas(game: rules.Game) -> dict[str, Schema]:
    declared = {name for fields in game.action_fields.values() for name in fields}
    typed = game.schema.action_fields
    missing = sorted(declared - set(typed))
    if missing:
        raise LookupError(f"{game.key}'s schema gives no JSON type for its action fields {missing}.")
    return typed


def _action_name(game: rules.Game, kind: str) -> str:
    return _camel(game.key, kind, "action")


def action_components(game: rules.Game) -> dict[str, Schema]:
    """One component per action type (what a body sends), and `<Game>Action`: one of
    them, told apart by `type`."""
    fields = _field_schemas(game)
    required = game.schema.required_fields
    out: dict[str, Schema] = {}
    mapping: dict[str, str] = {}
    for kind, names in game.action_fields.items():
        name = _action_name(game, kind)
        out[name] = {
            "type": "object",
            "properties": {"type": _type_const(kind), **{f: fields[f] for f in sorted(names)}},
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


TEMPLATE_PICKS = "cards"
LEGAL_ACTION = (
    "Something you may do now, shaped like the action that does it: a whole action is the body to send; "
    "a template (`count` and `choices`) is sent with `cards`, `count` of the `choices`, in place of those "
    "two, every other field as it is. Action types this version does not know may appear: leave them alone."
)


def legal_action_components(game: rules.Game) -> dict[str, Schema]:
    """`<Game>LegalAction`: something the player may do now, shaped like the action that
    does it. A single choice is that action's body, ready to send; a choice of several
    pieces is the body's template, `<Game><Type>Template`: the body less `cards`, plus
    `count` and `choices`. To send it, drop those two and set `cards` to `count` of the
    `choices`, keeping every other field (Hearts' funky pass: `to`, the seats `cards` go
    to, in order). Later versions of v1 may add action types: the last alternative
    takes those, for clients to leave alone."""
    fields = _field_schemas(game)
    out: dict[str, Schema] = {}
    refs: list[Schema] = []
    for kind, names in game.action_fields.items():
        if kind not in game.schema.template_types:
            refs.append({"$ref": f"#/components/schemas/{_action_name(game, kind)}"})
            continue
        if TEMPLATE_PICKS not in names:
            raise LookupError(f"{game.key}'s template {kind} must be sent with `{TEMPLATE_PICKS}`.")
        kept = {f: fields[f] for f in sorted(names - {TEMPLATE_PICKS})}
        name = _camel(game.key, kind, "template")
        out[name] = {
            "type": "object",
            "description": f"A template of `{kind}`: send `{TEMPLATE_PICKS}`, `count` of `choices`, "
            "in place of those two, with the other fields as they are.",
            "properties": {"type": _type_const(kind), **kept, **game.schema.template_fields},
            "required": ["type", "count", "choices"],
            "additionalProperties": False,
        }
        refs.append({"$ref": f"#/components/schemas/{name}"})
    mapping = dict(zip(game.action_fields, (ref["$ref"] for ref in refs), strict=True))
    out[f"{_game_name(game)}LegalAction"] = {
        "anyOf": [*refs, {"$ref": "#/components/schemas/OtherLegalAction"}],
        "discriminator": {"propertyName": "type", "mapping": mapping},
        "x-open": True,
        "description": LEGAL_ACTION,
    }
    return out


def phases(game: rules.Game) -> list[str]:
    return [LOBBY, *game.phase_actions, COMPLETE, MATCH_OVER]


# What every view holds besides the game's own facts: the room's.
ROOM_FACTS: Schema = {
    "code": {"type": "string"},
    "version": {"type": "integer", "description": "Send it with your next action."},
    "status": ROOM_STATUS_REF,
    "status_reason": {
        "type": "string",
        "description": "Why the match ended as it did, said to the reader: the player whose idleness "
        'abandoned it reads "You did not play in time", the others their name. The server\'s words, in '
        "English: `status_cause` is what to say in the reader's language.",
    },
    "status_cause": nullable(
        {
            "$ref": "#/components/schemas/EndCause",
            "description": "Why an abandoned or closed room ended; null while it plays, and for a match played out.",
        }
    ),
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
    "fairness": nullable(
        {
            "$ref": "#/components/schemas/FairnessCommitment",
            "description": "The commitment to the server seed of the next hand to be dealt (during a "
            "hand: of that hand's).",
        }
    ),
}
PUBLIC_SEAT: Schema = {
    "seat": SEAT_NUMBER,
    "user": nullable({"type": "string", "description": "The player's username; null for a computer player."}),
    "display_name": {"type": "string"},
    "is_bot": {"type": "boolean"},
    "team": nullable({"type": "integer", "description": "Where the team is public."}),
    "client_seed": {"type": "string", "description": "The player's public seed for the next deal."},
}
NOTHING: Schema = {"type": "null"}


def lobby_view(game: rules.Game | None = None) -> Schema:
    """A room's view before its first deal: of `game` (its `game` that one value, so that
    a client's types narrow by it), or whatever its game."""
    props: Schema = {
        **ROOM_FACTS,
        "game": (
            open_enum(game_keys(), "The game's key; later versions of v1 may add games.")
            if game is None
            else {"type": "string", "const": game.key}
        ),
        "phase": {"type": "string", "const": LOBBY},
        "round": {"type": "integer", "const": 0},
        "dealer": NOTHING,
        "to_act": {**SEATS, "maxItems": 0},
        "seats": {
            "type": "array",
            "items": {"type": "object", "properties": PUBLIC_SEAT, "required": list(PUBLIC_SEAT)},
        },
        # Nothing is on the table, in a hand or to do yet (the items' types are for generators).
        "trick": {"type": "array", "items": {"type": "object"}, "maxItems": 0},
        "trump": NOTHING,
        "bid": NOTHING,
        "scores": {"type": "array", "items": {"type": "integer"}},
        "last_round": NOTHING,
        "you": {
            "type": "object",
            "description": "Your seat; absent for spectators.",
            "properties": {
                "seat": SEAT_NUMBER,
                "hand": {"type": "array", "items": {"type": "string"}, "maxItems": 0},
                "legal_actions": {"type": "array", "items": {"type": "object"}, "maxItems": 0},
            },
            "required": ["seat", "hand", "legal_actions"],
        },
    }
    return {
        "type": "object",
        "description": f"A view of a room {'of any game' if game is None else 'of ' + game.name} before its "
        "first hand is dealt (phase `lobby`); a room closed or left by everyone before it started stays in it.",
        "properties": props,
        "required": [name for name in props if name != "you"],
    }


def view_component(game: rules.Game) -> Schema:
    """A view of a room of `game` once its first hand is dealt: every field always
    there but `you`, which spectators do not get."""
    label = _game_name(game)
    piece, piece_schema = game.schema.trick_piece
    seat = {
        "type": "object",
        "description": "A seat's public facts and its game facts.",
        "properties": {**PUBLIC_SEAT, **game.schema.seat_fields},
    }
    seat["required"] = list(seat["properties"])
    # The fields every game's `you` and view hold (base.YOU_FIELDS, base.VIEW_FIELDS),
    # typed here in the engines' order; a field named there and not typed here fails.
    own = {
        "seat": SEAT_NUMBER,
        "hand": {"type": "array", "items": game.schema.hand_piece},
        "legal_actions": {"type": "array", "items": {"$ref": f"#/components/schemas/{label}LegalAction"}},
    }
    you = {
        "type": "object",
        "description": "What only you know and may do; absent for spectators.",
        "properties": {**{name: own[name] for name in YOU_FIELDS}, **game.schema.you_fields},
    }
    you["required"] = list(you["properties"])
    shared = {
        "game": {"type": "string", "const": game.key},
        "phase": open_enum([p for p in phases(game) if p != LOBBY], PHASE),
        "round": {"type": "integer"},
        "dealer": nullable(SEAT_NUMBER),
        "to_act": SEATS,
        "seats": {"type": "array", "items": {"$ref": f"#/components/schemas/{label}Seat"}},
        "trick": trick(piece, piece_schema),
        "trump": game.schema.trump,
        "bid": nullable({"type": "integer"}),
        "scores": {"type": "array", "items": {"type": "integer"}},
        "last_round": nullable(
            {"$ref": f"#/components/schemas/{label}Result", "description": "The hand just finished, between hands."}
        ),
    }
    facts = {**ROOM_FACTS, **{name: shared[name] for name in VIEW_FIELDS}, **game.schema.view_fields}
    return {
        "view": {
            "type": "object",
            "description": f"A view of a {game.name} room once its first hand is dealt.",
            "properties": {**facts, "you": {"$ref": f"#/components/schemas/{label}You"}},
            "required": list(facts),
        },
        "seat": seat,
        "you": you,
    }


def _refs(names: list[str]) -> list[Schema]:
    return [{"$ref": f"#/components/schemas/{name}"} for name in names]


def game_keys() -> list[str]:
    return [game.key for game in rules.all_games()]


def open_union(names: list[str], other: str, description: str) -> Schema:
    """One of the components `names`, or `other`, the fallback for what a later version
    of v1 adds (a game, an action type); `x-open` marks the last as that fallback."""
    return {"anyOf": _refs([*names, other]), "x-open": True, "description": description}


def components() -> dict[str, Schema]:
    """Every game's view, seats, `you`, legal actions, options, scored hand and action
    bodies, and the unions: `GameView` (one game's view, by `game`), `GameOptions`,
    `GameResult`, `GameAction` and `ActionRequest` (any game's action)."""
    out: dict[str, Schema] = dict(SHARED_COMPONENTS)
    for game in rules.all_games():
        out.update(game.schema.components)
    labels = [_game_name(game) for game in rules.all_games()]
    for game, label in zip(rules.all_games(), labels, strict=True):
        parts = view_component(game)
        out[f"{label}View"] = parts["view"]
        out[f"{label}Seat"] = parts["seat"]
        out[f"{label}You"] = parts["you"]
        out.update(legal_action_components(game))
        out[f"{label}Result"] = game.schema.result
        out[f"{label}Options"] = game.all_options.value_schema(f"A {game.name} room's options, complete.")
        out.update(action_components(game))
    out["LobbyView"] = lobby_view()
    for game, label in zip(rules.all_games(), labels, strict=True):
        out[f"{label}LobbyView"] = lobby_view(game)
    # Two fields tell the views apart (`game`, and `phase` for the lobby), so no one
    # discriminator can: each variant's `game` is its one value, for clients to narrow by.
    out["GameView"] = open_union(
        [*(f"{label}View" for label in labels), *(f"{label}LobbyView" for label in labels)],
        "OtherGameView",
        "The caller's view of a room; its `game` tells which game, its `phase` (`lobby`) whether the first "
        "hand is dealt. Later versions of v1 may add games.",
    )
    out["GameOptions"] = open_union(
        [f"{label}Options" for label in labels],
        "OtherGameOptions",
        "A room's options, complete: its game's.",
    )
    out["OtherGameOptions"] = {"type": "object", "additionalProperties": OPTION_VALUE}
    out["GameResult"] = open_union(
        [f"{label}Result" for label in labels], "OtherGameResult", "A scored hand, of the room's game."
    )
    out["OtherGameResult"] = {"type": "object", "properties": {"round": {"type": "integer"}}, "required": ["round"]}
    out["GameAction"] = open_union(
        [f"{label}Action" for label in labels], "OtherLegalAction", "An action as the engine applied it."
    )
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
            "action": {"anyOf": _refs([f"{label}Action" for label in labels])},
        },
        "required": ["version", "action"],
        "additionalProperties": False,
    }
    return out


GAME_VIEW_REF: Schema = {"$ref": "#/components/schemas/GameView"}
ACTION_REQUEST_REF: Schema = {"$ref": "#/components/schemas/ActionRequest"}


ROOM_CREATE = "RoomCreateRequest"


def options_request(game: rules.Game) -> Schema:
    """The options a new room of `game` may ask for (the same `GET games/` describes):
    any of them, each of its type, a preset by name; no other (`additionalProperties`,
    so that a misspelt option is refused before it is sent, as the server refuses it)."""
    complete = game.all_options.value_schema(
        f"The options of a new {game.name} room: any of them (the others take their default or the preset's)."
    )
    props = dict(complete["properties"])
    if "preset" in props:
        # Asked for by name, or null: no preset, as when it is left out (the room's own
        # options then name none).
        chosen = props["preset"]
        props["preset"] = {
            **chosen,
            "type": ["string", "null"],
            "enum": [*chosen["enum"], None],
            "description": "A preset by name; null or left out, none.",
        }
    return {**complete, "properties": props, "required": [], "additionalProperties": False}


def room_create_requests(frame: Schema) -> dict[str, Schema]:
    """The body of `POST rooms/`, one per game (`<Game>RoomCreateRequest`, its options
    typed), told apart by `game`: `RoomCreateRequest` is one of them. `frame` is the
    serializer's body, whose other fields every game's keeps."""
    out: dict[str, Schema] = {}
    mapping: dict[str, str] = {}
    for game in rules.all_games():
        label = _game_name(game)
        out[f"{label}OptionsRequest"] = options_request(game)
        name = f"{label}{ROOM_CREATE}"
        out[name] = {
            **frame,
            "properties": {
                **frame["properties"],
                "game": {"type": "string", "const": game.key},
                "options": {"$ref": f"#/components/schemas/{label}OptionsRequest"},
            },
        }
        mapping[game.key] = f"#/components/schemas/{name}"
    out[ROOM_CREATE] = {
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "game", "mapping": mapping},
        "description": "A new room: its game, and that game's options.",
    }
    return out


def add_game_components(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the components the game endpoints refer to."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(components())
    if ROOM_CREATE in schemas:
        schemas.update(room_create_requests(schemas[ROOM_CREATE]))
    return result
