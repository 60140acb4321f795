"""Declarative room options: a schema per game, validated and filled with defaults.

Each option is a small frozen value; a game lists its options and presets, and
`validate_options` turns whatever a client sent into a complete, checked dict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import RuleError, gettext_noop, shown_name


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    kind: str = "string"  # "string" | "integer" | "boolean" | "integer_list"

    def schema(self) -> dict[str, Any]:
        if self.kind == "integer_list":
            # JSON Schema's own words, so generic clients render it as a list of numbers.
            item: dict[str, Any] = {"type": "integer"}
            if self.minimum is not None:
                item["minimum"] = self.minimum
            if self.maximum is not None:
                item["maximum"] = self.maximum
            array = {"type": "array", "items": item, "default": self.default, "description": self.description}
            if self.default is None:
                array["nullable"] = True
            return array
        out: dict[str, Any] = {"type": self.kind, "default": self.default, "description": self.description}
        if self.default is None:
            out["nullable"] = True  # null (or leaving it out) means "worked out from the others"
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out

    def value_schema(self) -> dict[str, Any]:
        """The JSON Schema of the option's value, as a room's complete options hold it
        (`schema` above describes the option to people and forms; this types it)."""
        if self.kind == "integer_list":
            item: dict[str, Any] = {"type": "integer"}
            item.update({k: v for k, v in (("minimum", self.minimum), ("maximum", self.maximum)) if v is not None})
            out: dict[str, Any] = {"type": "array", "items": item, "minItems": 1}
        else:
            out = {"type": self.kind}
            if self.choices is not None:
                out["enum"] = list(self.choices)
            out.update({k: v for k, v in (("minimum", self.minimum), ("maximum", self.maximum)) if v is not None})
        if self.default is None:
            out["type"] = [out["type"], "null"]
            if "enum" in out:
                out["enum"] = [*out["enum"], None]
        out["description"] = self.description
        return out

    def check(self, value: Any) -> Any:
        if value is None and self.default is None:
            return None  # an option whose default is derived from the others: "automatic"
        if self.kind == "integer_list":
            # Each element within minimum..maximum; the game checks the list as a whole.
            if not isinstance(value, list) or not value:
                detail = gettext_noop("Option '%(option)s' must be a list of whole numbers.")
                raise RuleError("invalid", detail, self.name, option=self.name)
            item = Option(self.name, None, "", minimum=self.minimum, maximum=self.maximum, kind="integer")
            return [item.check(v) for v in value]
        if self.kind == "integer":
            # bool is an int subclass in Python; a JSON true is not a number of seconds.
            if isinstance(value, bool) or not isinstance(value, int):
                detail = gettext_noop("Option '%(option)s' must be a whole number.")
                raise RuleError("invalid", detail, self.name, option=self.name)
            if self.minimum is not None and value < self.minimum:
                detail = gettext_noop("Option '%(option)s' must be at least %(minimum)s.")
                raise RuleError("invalid", detail, self.name, option=self.name, minimum=self.minimum)
            if self.maximum is not None and value > self.maximum:
                detail = gettext_noop("Option '%(option)s' must be at most %(maximum)s.")
                raise RuleError("invalid", detail, self.name, option=self.name, maximum=self.maximum)
        elif self.kind == "boolean":
            if not isinstance(value, bool):
                detail = gettext_noop("Option '%(option)s' must be true or false.")
                raise RuleError("invalid", detail, self.name, option=self.name)
        elif not isinstance(value, str):
            detail = gettext_noop("Option '%(option)s' must be a string.")
            raise RuleError("invalid", detail, self.name, option=self.name)
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            # Translators: the choices are the option's values, as the API writes them, joined by commas.
            detail = gettext_noop("Option '%(option)s' must be one of: %(choices)s.")
            raise RuleError("invalid", detail, self.name, option=self.name, choices=allowed)
        return value


@dataclass(frozen=True)
class OptionSet:
    options: tuple[Option, ...]
    presets: dict[str, dict[str, Any]] = field(default_factory=dict)

    def schema(self) -> dict[str, Any]:
        return {o.name: o.schema() for o in self.options}

    def value_schema(self, description: str) -> dict[str, Any]:
        """The JSON Schema of a room's complete options: every option's value, and the
        preset's name where one was chosen."""
        props = {o.name: o.value_schema() for o in self.options}
        if self.presets:
            props["preset"] = {"type": "string", "enum": sorted(self.presets), "description": "The preset chosen."}
        return {
            "type": "object",
            "description": description,
            "properties": props,
            "required": [o.name for o in self.options],
        }

    def defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    def validate(self, raw: dict[str, Any] | None) -> dict[str, Any]:
        """Defaults, then the preset's bundle, then the client's own overrides."""
        if raw is None:
            raw = {}
        if not isinstance(raw, dict):
            raise RuleError("invalid", gettext_noop("Options must be an object."), "options")
        raw = dict(raw)
        known = {o.name: o for o in self.options}
        out = self.defaults()
        preset = raw.pop("preset", None)
        if preset is not None:
            # Checked for type first: a list or an object cannot even be looked up.
            if not isinstance(preset, str) or preset not in self.presets:
                if not self.presets:
                    raise RuleError("invalid", gettext_noop("Unknown preset (known: none)."), "preset")
                allowed = ", ".join(sorted(self.presets))
                # Translators: the presets are their names, as the API writes them, joined by commas.
                detail = gettext_noop("Unknown preset (known: %(presets)s).")
                raise RuleError("invalid", detail, "preset", presets=allowed)
            out.update(self.presets[preset])
        for name, value in raw.items():
            if name not in known:
                shown = shown_name(name)
                if shown is None:
                    raise RuleError("invalid", gettext_noop("Unknown option."), "options")
                raise RuleError("invalid", gettext_noop("Unknown option '%(option)s'."), shown, option=shown)
            out[name] = known[name].check(value)
        if preset is not None:
            out["preset"] = preset
        return out


# Timing (and the table's talk) applies to every game; the service layer reads these,
# the engines never do.
WEEK = 7 * 24 * 3600
TIMING_OPTIONS: tuple[Option, ...] = (
    Option(
        "turn_seconds",
        60,
        "Seconds each turn has before the server acts for the player: every turn its own, "
        "the same player's next turn included (in the pause between hands, "
        "between_rounds_seconds). Outages of the server are added.",
        minimum=5,
        maximum=WEEK,
        kind="integer",
    ),
    Option(
        "abandon_seconds",
        300,
        "Seconds of a player's own waiting time before the match is abandoned (or their "
        "seat handed to a computer player, on_abandon): the time the game waited for them "
        "in their turns since they last acted themself. Others' turns, the pause between "
        "hands and the server's outages never count; turns that run out add up.",
        minimum=5,
        maximum=WEEK,
        kind="integer",
    ),
    Option(
        "on_abandon",
        "end",
        "What happens when a player runs past abandon_seconds: 'end' abandons the match; "
        "'bot' gives their seat to a computer player, who plays on until they reclaim it "
        "(the match is abandoned once every seat is a computer player's).",
        choices=("end", "bot"),
    ),
    Option(
        "between_rounds_seconds",
        20,
        "Pause after a hand before the next one starts.",
        minimum=5,
        maximum=WEEK,
        kind="integer",
    ),
    Option(
        "chat_during_hand",
        None,
        "Whether the players may write free text to each other during a hand (quick phrases always; "
        "free text in the lobby, between hands and after the match always); null: yes, except where "
        "partners are hidden (Kali Tidi's cards mode).",
        kind="boolean",
    ),
    Option(
        "rated",
        None,
        "Whether the finished match changes its players' ratings; null: rated when every "
        "seat is a person at the start. In a rated room computer players count as "
        "opponents of a fixed rating. Fixed when the match starts.",
        kind="boolean",
    ),
)


def check_timing(options: dict[str, Any]) -> dict[str, Any]:
    if options["abandon_seconds"] < options["turn_seconds"]:
        raise RuleError("invalid", gettext_noop("abandon_seconds must be at least turn_seconds."), "abandon_seconds")
    return options
