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
from games.models import RoomStatus
from games.rules import fairness
from games.rules.base import COMPLETE, MATCH_OVER
from games.rules.schema import SEAT_NUMBER, SEATS, Schema, nullable, trick

from .serializers import POSITIVE_INT_MAX

# The phase the view reports before the first hand is dealt (games.selectors.table_view).
LOBBY = "lobby"

SHARED_COMPONENTS: Schema = {
    "FairnessCommitment": {
        "type": "object",
        "properties": {
            "algorithm": {"type": "string", "enum": [fairness.ALGORITHM]},
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


def _type_enum(kind: str) -> Schema:
    return {"type": "string", "enum": [kind]}


def _field_schemas(game: rules.Game) -> dict[str, Schema]:
    declared = {name for fields in game.action_fields.values() for name in fields}
    typed = game.schema.action_fields
    missing = sorted(declared - set(typed))
    if missing:
        raise LookupError(f"{game.key}'s schema gives no JSON type for its action fields {missing}.")
    return typed


def action_components(game: rules.Game) -> dict[str, Schema]:
    """One component per action type (what a body sends), and `<Game>Action`: one of
    them, discriminated by `type`."""
    fields = _field_schemas(game)
    required = game.schema.required_fields
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
    templates = game.schema.template_fields
    whole = {f for kind, names in game.action_fields.items() if kind not in game.schema.template_types for f in names}
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
    piece, piece_schema = game.schema.trick_piece
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
            **game.schema.seat_fields,
        },
        "required": ["seat", "user", "display_name", "is_bot", "team", "client_seed"],
    }
    you = {
        "type": "object",
        "description": "What only you know and may do; absent for spectators.",
        "properties": {
            "seat": SEAT_NUMBER,
            "hand": {"type": "array", "items": game.schema.hand_piece},
            "legal_actions": {"type": "array", "items": {"$ref": f"#/components/schemas/{label}LegalAction"}},
            **game.schema.you_fields,
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
        "fairness": nullable(
            {
                "$ref": "#/components/schemas/FairnessCommitment",
                "description": "The commitment to the server seed of the next hand to be dealt (during a "
                "hand: of that hand's).",
            }
        ),
        "phase": {"type": "string", "enum": phases(game)},
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
    return {
        "view": {
            "type": "object",
            "description": f"A view of a {game.name} room.",
            "properties": {**common, **game.schema.view_fields, "you": {"$ref": f"#/components/schemas/{label}You"}},
            "required": list(common),
        },
        "seat": seat,
        "you": you,
    }


def components() -> dict[str, Schema]:
    """Every game's view, seats, `you`, legal actions, scored hand and action bodies, and
    the unions: `GameView` (one game's view, by `game`) and `ActionRequest` (any game's action)."""
    out: dict[str, Schema] = dict(SHARED_COMPONENTS)
    for game in rules.all_games():
        out.update(game.schema.components)
    views: dict[str, str] = {}
    actions: list[Schema] = []
    for game in rules.all_games():
        label = _game_name(game)
        parts = view_component(game)
        out[f"{label}View"] = parts["view"]
        out[f"{label}Seat"] = parts["seat"]
        out[f"{label}You"] = parts["you"]
        out[f"{label}LegalAction"] = legal_action_component(game)
        out[f"{label}Result"] = game.schema.result
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
