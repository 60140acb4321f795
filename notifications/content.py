"""What a notice says: the same words in a push message and an e-mail.

A notice names rooms and when their turns run out, and nothing else: not the phase,
not a card, not who else sits there. It is built from the player's turns as
`games.selectors.turns_of` lists them (soonest deadline first), which carry no more.

Its words are made in the language active when `notice_for` is called: a delivery makes
them inside `accounts.languages.speaking_to(player)`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import names

# A push message holds about 4 KB: the codes of this many rooms and three names fit
# well within it, whatever the names hold.
ROOMS_MAX = 50
NAMES_IN_BODY = 3


@dataclass(frozen=True)
class Notice:
    title: str
    body: str
    url: str
    rooms: list[str]
    tag: str
    # Each room's line, for the e-mail: (what it is called and when it runs out, its path).
    lines: list[tuple[str, str]]
    # The soonest deadline, for how long a push service keeps the message.
    deadline: datetime | None
    # How many rooms wait, those beyond ROOMS_MAX included.
    total: int

    def payload(self) -> dict[str, Any]:
        """The push message, as the service worker reads it."""
        return {"title": self.title, "body": self.body, "url": self.url, "rooms": self.rooms, "tag": self.tag}


def _until(deadline: datetime, now: datetime) -> str:
    """How long until `deadline` (a minute or more), in its largest whole unit ("2
    hours"), in the active language. In the project's own words: Django's catalogues
    leave these units untranslated in Hindi and lack Gujarati."""
    seconds = int((deadline - now).total_seconds())
    if seconds >= 24 * 3600:
        days = seconds // (24 * 3600)
        return ngettext("%(n)s day", "%(n)s days", days) % {"n": days}
    if seconds >= 3600:
        hours = seconds // 3600
        return ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours}
    minutes = seconds // 60
    return ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}


def time_left(deadline: datetime | None, now: datetime) -> str:
    if deadline is None:
        return ""
    if deadline <= now:
        # Translators: a turn's time left in a notice, after the room's name ("Hearts — time is up").
        return _("time is up")
    if (deadline - now).total_seconds() < 60:
        # Translators: a turn's time left in a notice, after the room's name ("Hearts — under a minute left").
        return _("under a minute left")
    # Translators: a turn's time left in a notice, after the room's name; time is such as "2 hours".
    return _("%(time)s left") % {"time": _until(deadline, now)}


def _label(turn: dict[str, Any]) -> str:
    return turn["name"] or names.name_of(turn["game"])


def _deadline(turn: dict[str, Any]) -> datetime | None:
    return parse_datetime(turn["deadline"]) if turn["deadline"] else None


def _described(turn: dict[str, Any], now: datetime, joiner: str) -> str:
    left = time_left(_deadline(turn), now)
    return _label(turn) + (joiner + left if left else "")


def _reminded(turn: dict[str, Any], now: datetime) -> str:
    """A reminder's words for one room: "2 hours left to play in room ABC123, Hearts"
    (the room's name, if it has one, for its game's)."""
    deadline = _deadline(turn)
    # Translators: where a reminder's turn waits: the room's code, then its name or its game's ("room ABC123, Hearts").
    place = _("room %(code)s, %(name)s") % {"code": turn["code"], "name": _label(turn)}
    if deadline is None or deadline <= now:
        return _("Time is up in %(place)s") % {"place": place}
    if (deadline - now).total_seconds() < 60:
        return _("under a minute left to play in %(place)s") % {"place": place}
    # Translators: a reminder; time is such as "2 hours", place such as "room ABC123, Hearts".
    return _("%(time)s left to play in %(place)s") % {"time": _until(deadline, now), "place": place}


def notice_for(turns: list[dict[str, Any]], now: datetime, *, reminder: bool = False) -> Notice:
    """One room's notice, or the digest of several (`turns` soonest first, not empty).

    A reminder (that these turns run out soon) has words of its own, the same tags (it
    replaces the turn's first notice on the device) and the same links."""
    total = len(turns)
    turns = turns[:ROOMS_MAX]
    codes = [t["code"] for t in turns]
    deadlines = [d for d in (_deadline(t) for t in turns) if d is not None]
    lines = [(_described(t, now, " — "), f"/rooms/{t['code']}") for t in turns]
    soonest = min(deadlines, default=None)
    if total == 1:
        code = codes[0]
        if reminder:
            body = _reminded(turns[0], now)
            lines = [(body, lines[0][1])]
            # Translators: the title of a reminder that one turn runs out soon.
            title = _("Time is running out")
            return Notice(title, body, f"/rooms/{code}", codes, f"turn-{code}", lines, soonest, total)
        # Translators: the title of a notice that a game waits for the player.
        return Notice(_("Your turn"), lines[0][0], f"/rooms/{code}", codes, f"turn-{code}", lines, soonest, total)
    named = [_described(t, now, ", ") for t in turns[:NAMES_IN_BODY]]
    body = "; ".join(named)
    if total > NAMES_IN_BODY:
        more = total - NAMES_IN_BODY
        # Translators: a digest's first rooms ("Hearts, 2 hours left; Evening, 1 hour left"), and how many more wait.
        body = ngettext("%(rooms)s; and %(n)s more", "%(rooms)s; and %(n)s more", more) % {"rooms": body, "n": more}
    if reminder:
        title = ngettext("Time is running out in %(n)s game", "Time is running out in %(n)s games", total)
    else:
        title = ngettext("%(n)s game waits for you", "%(n)s games wait for you", total)
    return Notice(title % {"n": total}, body, "/", codes, "turns", lines, soonest, total)
