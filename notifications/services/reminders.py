"""One reminder of a turn before its clock runs out, on clocks of an hour or more.

The window. In a room whose `turn_seconds` is CLOCK_MIN_SECONDS (an hour) or more, a
player the game has waited for (and who has not acted) is reminded once per turn when
the time left falls to the window: a quarter of the clock, at most
NOTIFY_REMINDER_BEFORE_SECONDS (6 hours by default). A one-day clock reminds 6 hours
before it runs out, an hour's clock 15 minutes before. The pause between hands is not
a turn clock, and is never reminded of.

Quiet hours. Nothing is sent inside the player's quiet period. When the window would
open inside it (the deadline falls in the quiet period, or less than the window after
its end), the reminder goes instead in the last hour before the quiet period begins
(BEFORE_QUIET; the first scan in that hour sends it, so a scan or two missed do not lose
it), saying how much time is left then. When it did not go then (the player was at the
screen, or the turn began during the quiet period), it goes when the quiet period ends,
if the turn still waits; it is never sent during the quiet period.

As for the first notice: nothing while the player has a fresh ws/me/ socket open, and
only once the turn has waited NOTIFY_AFTER_SECONDS. The reminder is distinct from the
first notice: a player told of the turn is reminded of it too; a first notice and a
reminder claimed by one scan go as one notice; a new turn gets a reminder of its own.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction

from .. import selectors
from ..models import TurnReminder
from ..quiet import quiet_period_next
from . import claims

# Clocks shorter than this are played at the table: no reminder.
CLOCK_MIN_SECONDS = 3600
# How long before a quiet period begins the reminder goes when the period would swallow
# the window.
BEFORE_QUIET = timedelta(hours=1)
# How far ahead of a deadline that can be: a quiet period lasts less than a day.
QUIET_REACH = timedelta(days=1) + BEFORE_QUIET


def reminder_window(clock_seconds: int) -> timedelta | None:
    """How long before a turn runs out its reminder is due, for a room's turn clock;
    None when such a clock has no reminder."""
    if clock_seconds < CLOCK_MIN_SECONDS:
        return None
    seconds = min(clock_seconds / 4, settings.NOTIFY_REMINDER_BEFORE_SECONDS)
    return timedelta(seconds=seconds) if seconds > 0 else None


def reminder_due(*, due: datetime, window: timedelta, preferences: selectors.Preferences, now: datetime) -> bool:
    """Whether the reminder of a turn running out at `due` goes at `now` (the rule of the
    module's docstring)."""
    if preferences.quiet_at(now):
        return False
    if due - now <= window:
        return True
    if preferences.quiet is None:
        return False
    start, end, zone = preferences.quiet
    period = quiet_period_next(start=start, end=end, zone=zone, after=now)
    if period is None:
        return False
    begins, ends = period
    return begins - BEFORE_QUIET <= now and begins <= due - window < ends


def reminders_claim(*, now: datetime) -> list[int]:
    """Claim every reminder due now; returns the players to deliver to."""
    longest = timedelta(seconds=settings.NOTIFY_REMINDER_BEFORE_SECONDS)
    if longest <= timedelta(0):
        return []
    bounds = {
        "now": now,
        "waited_before": now - timedelta(seconds=settings.NOTIFY_AFTER_SECONDS),
        "present_after": now - timedelta(seconds=settings.NOTIFY_PRESENCE_TTL_SECONDS),
        # The window is at most `longest`; moved before a quiet period, it reaches further.
        "due_before": now + longest,
        "quiet_due_before": now + longest + QUIET_REACH,
    }
    players: set[int] = set()
    after = None
    while True:
        seats = selectors.seats_due(**bounds, clock_min_seconds=CLOCK_MIN_SECONDS, after=after, limit=claims.BATCH)
        if not seats:
            break
        after = seats[-1]
        wanted = selectors.preferences_of_users(user_ids=sorted({s.user_id for s in seats}))
        due = []
        for seat in seats:
            window = reminder_window(seat.clock_seconds)
            preferences = wanted.get(seat.user_id)
            if window is not None and preferences is not None:
                if reminder_due(due=seat.due, window=window, preferences=preferences, now=now):
                    due.append(seat)
        with transaction.atomic():
            players.update(user_id for user_id, _ in claims.claim(TurnReminder, due, now))
        if len(seats) < claims.BATCH:
            break
    return sorted(players)
