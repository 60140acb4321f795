"""Typed answers: the parts of serializer-built components that the serializers can only
call "an object", given the game types of api.game_schemas.

The serializers document an answer's frame (a room, a replay, a hand summary); what lies
inside depends on the room's game: its options, its scored hands, its actions. Those
fields are typed here, after the game components exist, so that a strict reader (no
property the document does not name) accepts every answer. Values a later version of v1
may add to (games, phases) are open: their known values listed, any other string taken.

A drf-spectacular postprocessing hook, run after `api.game_schemas.add_game_components`.
"""

from __future__ import annotations

import json
from typing import Any

from games import rules
from games.rules.schema import Schema, open_enum

from .game_schemas import OPTION_VALUE, _camel, _refs, game_keys, open_union, phases

GAMES = "The game's key. Later versions of v1 may add games."
PHASES = "The hand's phase, as in the game view. Later versions of v1 may add phases."


def _ref(name: str, **extra: Any) -> Schema:
    return {"$ref": f"#/components/schemas/{name}", **extra}


def _every_phase() -> list[str]:
    seen: dict[str, None] = {}
    for game in rules.all_games():
        seen.update(dict.fromkeys(phases(game)))
    return list(seen)


def _open_names(schemas: dict[str, Schema]) -> None:
    """Every plain string field named `game` or `phase` lists the known values, open."""
    games = game_keys()
    every_phase = _every_phase()
    for schema in schemas.values():
        for name, prop in schema.get("properties", {}).items():
            if name not in ("game", "phase") or prop.get("type") != "string" or "enum" in prop or "const" in prop:
                continue
            described = prop.get("description", GAMES if name == "game" else PHASES)
            if name == "game":
                schema["properties"][name] = open_enum(games, described)
            else:
                schema["properties"][name] = open_enum(every_phase, described)


def _round_summaries(schemas: dict[str, Schema]) -> None:
    """`RoundSummary`: the hand's own facts (the serializer's) and its scored hand (the game's)."""
    frame = schemas["RoundSummary"]
    labels = [_camel(game.key) for game in rules.all_games()]
    for game, label in zip(rules.all_games(), labels, strict=True):
        result = game.schema.result
        schemas[f"{label}RoundSummary"] = {
            "type": "object",
            "description": f"A finished hand of {game.name}: its scored hand, when it was played, and its deal "
            "revealed.",
            "properties": {**result["properties"], **frame["properties"]},
            "required": sorted({*result["required"], *frame["required"]}),
        }
    schemas["OtherRoundSummary"] = {**frame, "description": "A finished hand of a game this version does not know."}
    schemas["RoundSummary"] = open_union(
        [f"{label}RoundSummary" for label in labels], "OtherRoundSummary", "A finished hand, of the room's game."
    )


def type_answers(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    _open_names(schemas)

    room = schemas["Room"]["properties"]
    room["options"] = _ref("GameOptions")
    room["scores"] = {
        "type": "array",
        "items": {"type": "integer"},
        "description": "The match totals, in seat order; empty before the first hand is scored.",
    }
    room["seats"] = {"type": "array", "items": _ref("Seat"), "readOnly": True}
    room["status"] = _ref("RoomStatus")
    # The serializer's own enum of the statuses, in place of which RoomStatus is open.
    if "StatusEnum" in schemas and '"#/components/schemas/StatusEnum"' not in json.dumps(result, default=str):
        del schemas["StatusEnum"]

    game = schemas["Game"]["properties"]
    game["options"] = {
        "type": "object",
        "additionalProperties": _ref("OptionDescription"),
        "description": game["options"].get("description", ""),
    }
    game["presets"] = {
        "type": "object",
        "additionalProperties": {"type": "object", "additionalProperties": OPTION_VALUE},
        "description": game["presets"].get("description", ""),
    }

    replay = schemas["Replay"]["properties"]
    replay["options"] = _ref("GameOptions", description=replay["options"].get("description", ""))
    schemas["ReplayHand"]["properties"]["result"] = _ref(
        "GameResult", description=schemas["ReplayHand"]["properties"]["result"].get("description", "")
    )
    action = schemas["ReplayAction"]["properties"]
    action["action"] = _ref("GameAction", description=action["action"].get("description", ""))
    action["trump"] = {
        "description": action["trump"].get("description", ""),
        "anyOf": [*_refs(["CardSuit"]), {"type": "integer", "minimum": 0}, {"type": "null"}],
    }
    _round_summaries(schemas)
    return result
