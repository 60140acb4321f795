"""`Event`: one entry of a room's log (GET rooms/{code}/events), typed by its `type`.

An event is the log's envelope (seq, round, version, at) and a `type` with that type's
fields. The types are the engines' (each game's `GameSchema.events`, and `hand_scored`,
which is the game's scored hand) and the services' (`games.service_events`). A type
whose fields are the same in every game that logs it is one component, `<Type>Event`;
one whose fields differ by game (a play of a card or of a tile, each game's scored hand)
is one per game, `<Game><Type>Event`. `Event` is any of them, or `OtherEvent`, the
fallback for types a later version of v1 adds (docs/api/contract.md).

A drf-spectacular postprocessing hook, run after `api.game_schemas.add_game_components`.
"""

from __future__ import annotations

from typing import Any

from games import rules
from games.rules.schema import CLAIM_PLAY_MARK, Schema
from games.service_events import PLAY_MARKS, SERVICE_EVENTS

from .game_schemas import _camel, _game_name, _refs

ENVELOPE: Schema = {
    "seq": {"type": "integer", "description": "The event's place in the room's log; read on with `after`."},
    "round": {"type": ["integer", "null"], "description": "The hand it happened in; null outside any hand."},
    "version": {"type": "integer", "description": "The room's version once it happened."},
    "at": {"type": "string", "format": "date-time"},
}
HAND_SCORED = "hand_scored"
PLAY = "play"
EVENT = (
    "One entry of the room's log: what happened (`type`) and its facts. Later versions of v1 may add "
    "types (and fields to a type): skip an event whose type you do not know."
)


def _component(kind: str, fields: Schema) -> Schema:
    """The event of type `kind` whose facts are `fields` (a `payload`), in its envelope."""
    props = {**ENVELOPE, "type": {"type": "string", "const": kind}, **fields.get("properties", {})}
    if kind == PLAY:
        props.update(PLAY_MARKS)
        props.update(CLAIM_PLAY_MARK)
    return {
        "type": "object",
        "description": fields.get("description", ""),
        "properties": props,
        # A game's own field may be an envelope's too (a scored hand names its `round`):
        # each is required once.
        "required": list(dict.fromkeys([*ENVELOPE, "type", *fields.get("required", [])])),
    }


def event_fields() -> dict[str, dict[str, Schema]]:
    """Every event type's fields, per game key ("" for the services', the same in every game)."""
    out: dict[str, dict[str, Schema]] = {"": dict(SERVICE_EVENTS)}
    for game in rules.all_games():
        own = dict(game.schema.events)
        clash = sorted(set(own) & set(SERVICE_EVENTS))
        if clash or HAND_SCORED in own:
            raise LookupError(f"{game.key}'s events {clash or [HAND_SCORED]} are the services' or its result's.")
        own[HAND_SCORED] = game.schema.result
        out[game.key] = own
    return out


def components() -> dict[str, Schema]:
    """One component per event type (per game where games differ), each game's union of
    the types its rooms log (`<Game>Event`), `OtherEvent` and `Event`, any of them."""
    out: dict[str, Schema] = {}
    for kind, fields in SERVICE_EVENTS.items():
        out[_camel(kind, "event")] = _component(kind, fields)
    service = list(out)
    declared = event_fields()
    by_type: dict[str, dict[str, Schema]] = {}
    for game in rules.all_games():
        for kind, fields in declared[game.key].items():
            by_type.setdefault(kind, {})[_game_name(game)] = fields
    # Each game's event components, by the game's label.
    own: dict[str, list[str]] = {}
    of_type: dict[str, list[str]] = {}
    for kind, per_game in by_type.items():
        shapes = list(per_game.values())
        shared = all(shape == shapes[0] for shape in shapes)
        for label, fields in per_game.items():
            name = _camel(kind, "event") if shared else f"{label}{_camel(kind, 'event')}"
            out[name] = _component(kind, fields)
            own.setdefault(label, []).append(name)
            of_type.setdefault(kind, [])
            if name not in of_type[kind]:
                of_type[kind].append(name)
    for game in rules.all_games():
        label = _game_name(game)
        members = [*sorted(own[label]), *service]
        out[f"{label}Event"] = {
            "anyOf": _refs([*members, "OtherEvent"]),
            "discriminator": {"propertyName": "type", "mapping": _by_type(out, members)},
            "x-open": True,
            "description": f"An entry of the log of a {game.name} room. {EVENT}",
        }
    out["OtherEvent"] = {
        "type": "object",
        "description": "An event of a type this version of the document does not know.",
        "properties": {**ENVELOPE, "type": {"type": "string"}},
        "required": [*ENVELOPE, "type"],
    }
    # `Event` is any room's: a type whose facts differ by game is one choice among that
    # type's components (`<Type>Event`), so that `type` alone picks the choice.
    per_type: list[str] = []
    for kind, names in of_type.items():
        if len(names) > 1:
            union = _camel(kind, "event")
            out[union] = {
                "anyOf": _refs(_most_facts_first(out, names)),
                "description": f"A `{kind}` event, whose facts differ by game (the room's game says which).",
            }
            per_type.append(union)
        else:
            per_type.extend(names)
    members = sorted([*service, *per_type])
    out["Event"] = {
        "anyOf": _refs([*members, "OtherEvent"]),
        "discriminator": {"propertyName": "type", "mapping": _by_type(out, members)},
        "x-open": True,
        "description": f"{EVENT} `<Game>Event` (e.g. `HeartsEvent`) lists the types a room of that game logs.",
    }
    return out


def _kind(components: dict[str, Schema], name: str) -> str:
    schema = components[name]
    if "anyOf" in schema:
        return _kind(components, schema["anyOf"][0]["$ref"].rsplit("/", 1)[1])
    kind: str = schema["properties"]["type"]["const"]
    return kind


def _by_type(components: dict[str, Schema], names: list[str]) -> dict[str, str]:
    """A discriminator's mapping: each event type to the component of that type."""
    mapping: dict[str, str] = {}
    for name in names:
        kind = _kind(components, name)
        if kind in mapping:
            raise LookupError(f"two components of the event type {kind}: {mapping[kind]} and {name}")
        mapping[kind] = f"#/components/schemas/{name}"
    return mapping


def _most_facts_first(components: dict[str, Schema], names: list[str]) -> list[str]:
    """Readers that try a union's choices in order (generated clients) take the first
    that fits: the game whose event requires more facts comes before one requiring fewer,
    or a Kali Tidi `trick_won` (with its `seat`) reads as the Hearts one."""
    return sorted(names, key=lambda name: (-len(components[name]["required"]), name))


def add_event_components(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: `Event` and its alternatives, in place of the
    envelope the serializer documents."""
    result["components"]["schemas"].update(components())
    return result
