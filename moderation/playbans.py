"""Playbans: a person who abandons rated matches (their idle clock ran out) waits before
taking a seat at another rated table, longer each time.

Every abandonment of a rated match is counted (`abandonment_record`, on games'
`player_abandoned` signal, inside the room's transaction). Once PLAYBAN_THRESHOLD of
them fall within PLAYBAN_WINDOW_HOURS, each one from then on brings a wait that starts
at it: the first PLAYBAN_MINUTES step, then the next, and so on (15 minutes, an hour, a
day by default). Server outages never count (the clocks are credited for them, so no
turn runs out in one), nor do a moderator's hand-overs (not this signal). Unrated
tables stay open throughout."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from core.errors import ServiceError
from games.models import Room

from .models import Abandonment


@dataclass(frozen=True)
class Playban:
    until: datetime
    # Abandonments within the window, the latest included.
    abandonments: int
    reason: str


def abandonment_record(*, room: Room, user: User, **_: Any) -> None:
    """Receives games.signals.player_abandoned. Only a rated match's counts."""
    if room.options.get("rated"):
        Abandonment.objects.create(user=user, room=room, at=timezone.now())


def playban_of(*, user: User, now: datetime) -> Playban | None:
    """The playban in force for `user` now, if any."""
    window = timedelta(hours=settings.PLAYBAN_WINDOW_HOURS)
    times = list(
        Abandonment.objects.filter(user=user, at__gt=now - window - _longest())
        .order_by("at")
        .values_list("at", flat=True)
    )
    found = None
    for index, at in enumerate(times):
        within = [t for t in times[: index + 1] if t > at - window]
        beyond = len(within) - settings.PLAYBAN_THRESHOLD
        if beyond < 0:
            continue
        steps = settings.PLAYBAN_MINUTES
        until = at + timedelta(minutes=steps[min(beyond, len(steps) - 1)])
        if until > now:
            found = Playban(until=until, abandonments=len(within), reason=_playban_reason(len(within)))
    return found


def _playban_reason(abandonments: int) -> str:
    """Why a playban is in force, in the language of the request that reads it."""
    hours = settings.PLAYBAN_WINDOW_HOURS
    # Translators: the window of time a playban counts abandonments in, as in "within 24 hours".
    window = ngettext("%(hours)s hour", "%(hours)s hours", hours) % {"hours": hours}
    return ngettext(
        # Translators: the window is a length of time such as "24 hours".
        "%(n)s rated match abandoned within %(window)s.",
        "%(n)s rated matches abandoned within %(window)s.",
        abandonments,
    ) % {"n": abandonments, "window": window}


def _longest() -> timedelta:
    return timedelta(minutes=max(settings.PLAYBAN_MINUTES))


def require_no_playban(*, user: User, rated: bool | None, now: datetime) -> None:
    """Refuse a seat at a rated table (or one that may become rated: `rated` null) while
    a playban lasts: 409 `playbanned`, with the time left."""
    if rated is False:
        return
    ban = playban_of(user=user, now=now)
    if ban is not None:
        left = math.ceil((ban.until - now).total_seconds())
        raise ServiceError(
            "playbanned",
            # Translators: the reason is a sentence such as "3 rated matches abandoned within 24 hours.";
            # the time is HH:MM.
            _("%(reason)s You can join a rated table again at %(time)s UTC; unrated tables are open.")
            % {"reason": ban.reason, "time": f"{ban.until:%H:%M}"},
            409,
            retry_after=max(1, left),
        )
