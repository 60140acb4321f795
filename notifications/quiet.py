"""Quiet periods: the hours of a player's day when nothing is sent to them.

A period runs from `start` to `end` in the player's time zone, past midnight when
`start` is later than `end` (22:00 to 07:00), and includes `start` but not `end`.
"""

from __future__ import annotations

import re
import zoneinfo
from datetime import datetime, time
from functools import cache

from games.errors import ServiceError

_HH_MM = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9])")
TIMEZONE_MAX = 64


@cache
def time_zones() -> frozenset[str]:
    """The IANA names zoneinfo knows (read once: it walks the tz database)."""
    return frozenset(zoneinfo.available_timezones())


def time_of(value: str, attr: str) -> time:
    match = _HH_MM.fullmatch(value)
    if match is None:
        raise ServiceError("bad_time", "A time is written HH:MM, from 00:00 to 23:59.", 400, attr)
    return time(int(match[1]), int(match[2]))


def zone_check(name: str) -> str:
    if len(name) > TIMEZONE_MAX or name not in time_zones():
        raise ServiceError(
            "bad_time_zone", "The time zone must be an IANA name such as Europe/Paris.", 400, "quiet.timezone"
        )
    return name


def is_quiet(*, start: time, end: time, zone: str, now: datetime) -> bool:
    try:
        tz = zoneinfo.ZoneInfo(zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        # A zone the tz database of this machine no longer has (it was checked when it
        # was set): better a notice in the night than none, or a scan that fails for all.
        return False
    local = now.astimezone(tz).time().replace(tzinfo=None)
    if start < end:
        return start <= local < end
    return local >= start or local < end


def hh_mm(moment: time) -> str:
    return moment.strftime("%H:%M")
