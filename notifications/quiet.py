"""Quiet periods: the hours of a player's day when nothing is sent to them.

A period runs from `start` to `end` in the player's time zone, past midnight when
`start` is later than `end` (22:00 to 07:00), and includes `start` but not `end`.
"""

from __future__ import annotations

import re
import zoneinfo
from datetime import datetime, time, timedelta
from functools import cache

from django.utils.translation import gettext as _

from core.errors import ServiceError

_HH_MM = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9])")
TIMEZONE_MAX = 64


# Files of the tz database that name no place: the machine's own setting (a link to
# whatever /etc/localtime is), IANA's placeholder for "not set yet" (abbreviated -00),
# and the template of POSIX rules. zoneinfo lists them as it finds them on disk.
NOT_PLACES = frozenset({"localtime", "Factory", "posixrules"})


@cache
def time_zones() -> frozenset[str]:
    """The IANA names zoneinfo knows that name a place (read once: it walks the tz
    database). Old names linked to current ones (`US/Eastern`, `Europe/Kiev`) stay: they
    are IANA's own, kept so that settings made with them go on working."""
    return frozenset(zoneinfo.available_timezones()) - NOT_PLACES


def time_of(value: str, attr: str) -> time:
    match = _HH_MM.fullmatch(value)
    if match is None:
        # Translators: HH:MM is how a time is written (hours and minutes), as it must be typed.
        raise ServiceError("bad_time", _("A time is written HH:MM, from 00:00 to 23:59."), 400, attr)
    return time(int(match[1]), int(match[2]))


def zone_check(name: str) -> str:
    if len(name) > TIMEZONE_MAX or name not in time_zones():
        raise ServiceError(
            "bad_time_zone",
            # Translators: Europe/Paris is a name the server reads: keep it as it is.
            _("The time zone must be an IANA name of a place, such as Europe/Paris."),
            400,
            "quiet.timezone",
        )
    return name


def _zone(name: str) -> zoneinfo.ZoneInfo | None:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        # A zone the tz database of this machine no longer has (it was checked when it
        # was set): better a notice in the night than none, or a scan that fails for all.
        return None


def is_quiet(*, start: time, end: time, zone: str, now: datetime) -> bool:
    tz = _zone(zone)
    if tz is None:
        return False
    local = now.astimezone(tz).time().replace(tzinfo=None)
    if start < end:
        return start <= local < end
    return local >= start or local < end


def quiet_period_next(*, start: time, end: time, zone: str, after: datetime) -> tuple[datetime, datetime] | None:
    """The first quiet period that ends after `after`, as (begins, ends): the one under way
    at `after`, else the next one. None for a zone this machine does not know (as
    `is_quiet`, which then never finds the player quiet)."""
    tz = _zone(zone)
    if tz is None:
        return None
    today = after.astimezone(tz).date()
    # The one that began yesterday (under way past midnight), today's, or tomorrow's.
    for first in (today - timedelta(days=1), today, today + timedelta(days=1)):
        last = first if start < end else first + timedelta(days=1)
        begins, ends = datetime.combine(first, start, tzinfo=tz), datetime.combine(last, end, tzinfo=tz)
        if ends > after:
            break
    return begins, ends


def hh_mm(moment: time) -> str:
    return moment.strftime("%H:%M")
