"""What a moderation log entry did, kept as facts (`ModerationEntry.facts`) and said in
the language of the moderator who reads the log, whoever wrote the entry and in
whatever language they worked. Entries written before the facts were kept say it in
their English words (`ModerationEntry.detail`), as written.

Each fact is a dict whose `what` says which; `room` is a room's code, `seat` a seat
numbered from 1 as people read them, `at` a time in ISO 8601 (UTC)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

Fact = dict[str, Any]

# A chat timeout's length, as moderation.queue.TIMEOUT_CHOICES keys them.
LENGTHS = ("10m", "1h", "24h")


def until(at: datetime) -> Fact:
    return {"what": "until", "at": at.isoformat()}


def room_closed(room: str) -> Fact:
    return {"what": "room_closed", "room": room}


def seat_to_bot(room: str, index: int) -> Fact:
    return {"what": "seat_to_bot", "room": room, "seat": index + 1}


def seat_freed(room: str, index: int) -> Fact:
    return {"what": "seat_freed", "room": room, "seat": index + 1}


def seat_left_as_it_was(room: str, index: int, code: str) -> Fact:
    """The room moved on since it was listed: `code` is the refusal's (ServiceError)."""
    return {"what": "left_as_it_was", "room": room, "seat": index + 1, "code": code}


def no_open_rooms() -> Fact:
    return {"what": "no_open_rooms"}


def seat(index: int) -> Fact:
    return {"what": "seat", "seat": index + 1}


def chat_timeout(length: str, room: str | None) -> Fact:
    return {"what": "chat_timeout", "length": length, "room": room}


def _length(length: str) -> str:
    if length == "10m":
        return _("10 minutes")
    if length == "1h":
        return _("an hour")
    return _("a day")


def said(fact: Fact) -> str:
    """One fact in the active language."""
    what = fact.get("what")
    if what == "until":
        at = datetime.fromisoformat(fact["at"])
        # Translators: how long a temporary ban lasts; the time is in UTC.
        return _("until %(when)s UTC") % {"when": f"{at:%Y-%m-%d %H:%M}"}
    if what == "room_closed":
        return _("%(room)s closed (nobody else was seated)") % {"room": fact["room"]}
    if what == "seat_to_bot":
        return _("%(room)s seat %(seat)s given to a computer player") % fact
    if what == "seat_freed":
        return _("%(room)s seat %(seat)s freed") % fact
    if what == "left_as_it_was":
        # Translators: the room had moved on (its match finished, say); the code is the refusal's, as the API names it.
        return _("%(room)s seat %(seat)s left as it was (%(code)s)") % fact
    if what == "no_open_rooms":
        return _("No open rooms.")
    if what == "seat":
        return _("seat %(seat)s") % fact
    if what == "chat_timeout":
        if fact.get("room"):
            return _("%(length)s in %(room)s") % {"length": _length(fact["length"]), "room": fact["room"]}
        return _("%(length)s everywhere") % {"length": _length(fact["length"])}
    return str(fact)


def facts_said(facts: list[Fact]) -> str:
    """Every fact of an entry, in the active language, one after another."""
    return "; ".join(said(fact) for fact in facts)
