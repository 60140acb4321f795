"""Game data as moderators read it in the admin: cards with their suits, seats numbered
from 1 with their players' names, a hand's state as tables rather than raw JSON.

The state's shape differs from game to game, so this reads it generically: a list with
one entry per seat becomes a column of the seats' table, anything else a row of the
table's facts. The raw JSON stays one click away for what a table cannot say.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
CARD = re.compile(r"^([2-9TJQKA])([CDHS])$")
# Keys whose whole number is a seat index, in every game's state and events.
SEAT_KEYS = frozenset({"seat", "turn", "dealer", "bidder", "winner", "from", "host", "remover", "first_bidder"})
# A funky pass's `to` lists the seats its cards go to, in the order of its `cards`.
SEAT_LIST_KEYS = frozenset({"ready", "partners", "to_act", "winners", "visible_to", "to"})
# Keys whose dict is keyed by seat index (a funky pass as v1 first sent it, and as the
# state keeps it: the card given to each seat).
SEAT_DICT_KEYS = frozenset({"to"})
# Facts repeated from the room's page or too long for a row: left to the raw JSON.
SKIPPED = frozenset({"game", "options", "players", "seed"})


def seat_label(index: int, name: str = "") -> str:
    """ "Seat 2 (Ann)": numbered as the players see it, in the moderator's language."""
    if name:
        # Translators: a seat of a table, numbered from 1, and its player's name.
        return _("Seat %(number)s (%(name)s)") % {"number": index + 1, "name": name}
    return _("Seat %(number)s") % {"number": index + 1}


def seat_in(index: int, names: list[str] | None) -> str:
    return seat_label(index, names[index] if names and 0 <= index < len(names) else "")


def card(code: str) -> str:
    found = CARD.match(code)
    if not found:
        return code
    rank = "10" if found[1] == "T" else found[1]
    return rank + SUITS[found[2]]


def text(value: Any, key: str = "", names: list[str] | None = None) -> str:
    """One value as a line of plain text."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return pgettext("value", "yes") if value else pgettext("value", "no")
    if isinstance(value, int) and key in SEAT_KEYS:
        return seat_in(value, names)
    if isinstance(value, str):
        return card(value)
    if isinstance(value, list):
        if key in SEAT_LIST_KEYS and all(isinstance(v, int) for v in value):
            return ", ".join(seat_in(v, names) for v in value) or "-"
        if all(isinstance(v, str) for v in value):
            return " ".join(card(v) for v in value) or "-"
        return "; ".join(text(v, key, names) for v in value) or "-"
    if isinstance(value, dict):
        if key in SEAT_DICT_KEYS and all(k.isdigit() for k in value):
            return ", ".join(f"{seat_in(int(k), names)}: {text(v, '', names)}" for k, v in value.items()) or "-"
        if set(value) == {"seat", "card"} or set(value) == {"seat", "tile"}:
            piece = value["card"] if "card" in value else value["tile"]
            return f"{seat_in(value['seat'], names)}: {card(piece)}"
        return ", ".join(f"{k.replace('_', ' ')}: {text(v, k, names)}" for k, v in value.items()) or "-"
    return str(value)


def action_text(payload: dict[str, Any]) -> str:
    """An action as a line: its type, then its fields ("play: card 10♠")."""
    rest = ", ".join(f"{k}: {text(v, k)}" for k, v in payload.items() if k != "type")
    return f"{payload.get('type', '?')}: {rest}" if rest else str(payload.get("type", "?"))


def per_seat_keys(data: dict[str, Any], players: int) -> list[str]:
    return [
        k
        for k, v in data.items()
        if isinstance(v, list) and len(v) == players and k not in SEAT_LIST_KEYS and k not in SKIPPED
    ]


def state_html(data: dict[str, Any] | None, names: list[str]) -> SafeString:
    """A hand's state (or its result) as two tables: per seat, and the table's facts."""
    if not data:
        return mark_safe("-")
    players = len(names)
    columns = per_seat_keys(data, players)
    seats = ""
    if columns:
        head = format_html_join("", "<th>{}</th>", ((k.replace("_", " "),) for k in columns))
        rows = format_html_join(
            "",
            "<tr><th>{}</th>{}</tr>",
            (
                (
                    seat_in(i, names),
                    format_html_join("", "<td>{}</td>", ((text(data[k][i], k, names),) for k in columns)),
                )
                for i in range(players)
            ),
        )
        seats = format_html(
            '<table class="game-state"><tr><th>{}</th>{}</tr>{}</table>', pgettext("admin column", "seat"), head, rows
        )
    facts = [(k.replace("_", " "), text(v, k, names)) for k, v in data.items() if k not in columns and k not in SKIPPED]
    table = ""
    if facts:
        table = format_html(
            '<table class="game-state">{}</table>', format_html_join("", "<tr><th>{}</th><td>{}</td></tr>", facts)
        )
    raw = format_html(
        "<details><summary>{}</summary><pre>{}</pre></details>",
        _("Raw JSON"),
        json.dumps(data, indent=1, ensure_ascii=False),
    )
    return format_html('<div class="game-state">{}{}{}</div>', seats, table, raw)
