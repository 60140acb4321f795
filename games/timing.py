"""When the server must act in a hand: the turn deadline, the computer players' move, an
idle player's abandonment. Functions of the table, the clock and two settings (the
computer players' delay, BOT_DELAY_SECONDS, and how far ahead a task may be queued,
GAME_TASK_HORIZON_SECONDS); none reads or writes the database. `plan` alone changes
anything: the hand's clock fields, in memory, which games.services.clock then writes;
games.services.timekeeper calls it, and games.services.due asks `due_now`.

The rules, for every game (docs/time/clocks.md):
- A turn is a turn. Whenever the game starts waiting for a seat — the same seat again
  included (it won the trick and leads) — that seat's turn starts (`Seat.turn_since`),
  and the turn clock (`Round.deadline_at`) restarts: `turn_seconds`, or
  `between_rounds_seconds` in the pause between hands. In a simultaneous phase (Hearts'
  pass) the seats still to act keep the one clock as the others act.
- Idle time is the player's own. A player's waiting time is the time the game waited
  for them in their turns since their own last action (`Seat.idle_seconds` for the
  turns before, plus the turn in progress), never the pause between hands. When it
  reaches `abandon_seconds` the match is abandoned, or their seat handed to a computer
  player (`on_abandon`). Consecutive turns that run out therefore add up; acting once
  starts it again from nothing.
- The server's outage is nobody's time. An outage (uptime.Outage: no process
  answered the API, until one answered again) that began before a clock ran out extends
  it by the part of the outage after the turn began (`extended`), and the same is taken
  off the player's waiting time. And after it the turn has at least
  UPTIME_MIN_SERVING_AFTER_OUTAGE_SECONDS of serving time (the whole clock when that is
  shorter), counted from the outage's end, the first answer served: those who queued
  at a restarting server get their answer in time to play (`after_outage`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings

from .rules.base import ROUND_OVER

if TYPE_CHECKING:
    from .models import Seat
    from .store import Table

# Defaults for rooms made before the timing options existed; the options schema has
# the same values.
TURN_SECONDS = 60
ABANDON_SECONDS = 300
BETWEEN_ROUNDS_SECONDS = 20


def bot_delay() -> timedelta:
    return timedelta(seconds=float(getattr(settings, "BOT_DELAY_SECONDS", 1.0)))


def bots_inline() -> bool:
    """With no delay, computer players move inside the request that made it their turn."""
    return bot_delay() <= timedelta(0)


def task_horizon() -> timedelta:
    """How far ahead a round's due time may be for a task to be scheduled for it.

    A worker holds a task it reserved, unacknowledged, until its ETA; Redis hands any
    task unacknowledged for the broker's visibility timeout to a worker again, so a
    task scheduled further ahead would be delivered again and again while it waits.
    Rounds due later than this are left to the pickup (games.services.clock).
    """
    return timedelta(seconds=int(getattr(settings, "GAME_TASK_HORIZON_SECONDS", 300)))


def option_seconds(options: dict[str, Any], name: str, default: int) -> timedelta:
    return timedelta(seconds=int(options.get(name, default)))


@dataclass(frozen=True)
class Due:
    """What is owed now: bots to move, humans to time out, a human who abandoned."""

    bots: list[int]
    timed_out: list[int]
    abandoned: int | None


def waiting(table: Table) -> list[int]:
    """The seats the game waits for: none unless the match is being played."""
    return table.to_act if table.room.status == "playing" and table.round is not None else []


def in_pause(table: Table) -> bool:
    """The pause between hands: its clock is not a turn's, and idleness does not count."""
    return table.round is not None and table.round.state.get("phase") == ROUND_OVER


def is_person(seat: Seat) -> bool:
    return seat.user_id is not None and not seat.is_bot


def abandon_at(table: Table, seat: Seat) -> datetime | None:
    """When this seat's person, if they do not act, will have waited `abandon_seconds`
    of their own; None when the game does not wait for them or it is the pause."""
    if seat.turn_since is None or seat.index not in waiting(table) or not is_person(seat) or in_pause(table):
        return None
    limit = option_seconds(table.room.options, "abandon_seconds", ABANDON_SECONDS)
    return seat.turn_since + limit - timedelta(seconds=seat.idle_seconds)


def after_outage(clock: timedelta) -> timedelta:
    """The serving time a turn on `clock` is owed after an outage it overlapped, from
    the outage's end: UPTIME_MIN_SERVING_AFTER_OUTAGE_SECONDS, or the whole clock when
    that is shorter."""
    minimum = timedelta(seconds=float(getattr(settings, "UPTIME_MIN_SERVING_AFTER_OUTAGE_SECONDS", 15)))
    return max(timedelta(0), min(minimum, clock))


def extended(
    until: datetime,
    start: datetime,
    outages: Iterable[tuple[datetime, datetime]],
    minimum: timedelta = timedelta(0),
) -> datetime:
    """A clock that started at `start` and runs out at `until`, given back every outage
    that began before it ran out: by the part of each after `start` (oldest first, so
    that an extension can reach into a later outage), and then to no sooner than
    `minimum` (`after_outage`) after the outage's end."""
    for began, ended in sorted(outages):
        if began < until and ended > start:
            until += ended - max(began, start)
            until = max(until, ended + minimum)
    return until


def clock_length(table: Table) -> timedelta:
    """The clock of the turn in progress: `between_rounds_seconds` in the pause between
    hands, else `turn_seconds`."""
    if in_pause(table):
        return option_seconds(table.room.options, "between_rounds_seconds", BETWEEN_ROUNDS_SECONDS)
    return option_seconds(table.room.options, "turn_seconds", TURN_SECONDS)


def plan(table: Table, *, started: set[int], now: datetime) -> None:
    """Set the hand's deadline, the computer players' time and the due time, in memory,
    after the turns have been settled (`started`: the seats whose turn began now)."""
    round_ = table.round
    assert round_ is not None
    to_act = waiting(table)
    by_seat = {s.index: s for s in table.seats}
    bots = [s for s in to_act if not is_person(by_seat[s])]
    people = [s for s in to_act if is_person(by_seat[s])]
    if not people:
        round_.deadline_at = None
    elif started.intersection(people) or round_.deadline_at is None:
        round_.deadline_at = now + clock_length(table)
    if not bots:
        round_.bots_due_at = None
    elif started.intersection(bots) or round_.bots_due_at is None:
        round_.bots_due_at = now + bot_delay()
    candidates = [t for t in (round_.deadline_at, round_.bots_due_at) if t is not None]
    candidates += [t for s in people if (t := abandon_at(table, by_seat[s])) is not None]
    round_.due_at = min(candidates, default=None)


def due_now(table: Table, *, now: datetime, served: datetime | None = None) -> Due:
    """What is owed at `now`. A person's clock runs out only once the API is known to
    have served after it ran out (`served`: the heartbeat's last beat, None when nothing
    is known): a deadline that passed while the API may already have been down waits for
    the next beat, which records that outage if there was one (and the clock then gets
    it back) or proves there was none."""
    round_ = table.round
    assert round_ is not None
    to_act = waiting(table)
    by_seat = {s.index: s for s in table.seats}
    people = [s for s in to_act if is_person(by_seat[s])]
    clock = now if served is None else min(now, served)
    abandoned = next((s for s in people if (at := abandon_at(table, by_seat[s])) is not None and clock >= at), None)
    bots_due = round_.bots_due_at is not None and now >= round_.bots_due_at
    bots = [s for s in to_act if not is_person(by_seat[s]) and bots_due]
    late = round_.deadline_at is not None and clock >= round_.deadline_at
    return Due(bots=bots, timed_out=people if late else [], abandoned=abandoned)
