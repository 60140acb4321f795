"""When the server must act in a round: the turn deadline, the computer players' move,
an idle player's abandonment. Pure functions of the table and the clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings

from .rules.base import ROUND_OVER

if TYPE_CHECKING:
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
    Rounds due later than this are left to the sweeper, which is at most SWEEP_SECONDS
    late: a deadline that far off is a table playing slowly anyway.
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


@dataclass(frozen=True)
class Turn:
    """Who was to act, when: the turn clock restarts whenever this changes other than by
    players of a simultaneous phase dropping out as they act."""

    round: int
    phase: str
    seats: frozenset[int]

    def continues_as(self, other: Turn) -> bool:
        return (self.round, self.phase) == (other.round, other.phase) and other.seats <= self.seats


def turn_of(table: Table) -> Turn:
    round_ = table.round
    assert round_ is not None
    return Turn(round_.number, round_.state.get("phase", ""), frozenset(table.to_act))


def idle_since(seat: Any, room: Any) -> datetime:
    return max(t for t in (seat.last_acted_at, room.started_at) if t is not None)


def plan(table: Table, *, before: Turn | None, now: datetime) -> None:
    """Set the round's deadline, bots' time and due time after a change.

    The turn deadline restarts only when a seat newly becomes one to act, so the players
    of a simultaneous phase share one deadline. Expects the room lock held.
    """
    room, round_ = table.room, table.round
    assert round_ is not None
    to_act = table.to_act if room.status == "playing" else []
    if not to_act:
        round_.deadline_at = round_.bots_due_at = round_.due_at = None
        return
    is_bot = table.bots
    bots = [s for s in to_act if s in is_bot]
    humans = [s for s in to_act if s not in is_bot]
    round_over = round_.state.get("phase") == ROUND_OVER
    restart = before is None or not before.continues_as(turn_of(table))
    if restart or round_.deadline_at is None:
        length = (
            option_seconds(room.options, "between_rounds_seconds", BETWEEN_ROUNDS_SECONDS)
            if round_over
            else option_seconds(room.options, "turn_seconds", TURN_SECONDS)
        )
        round_.deadline_at = now + length
    if bots and (round_.bots_due_at is None or restart):
        round_.bots_due_at = now + bot_delay()
    elif not bots:
        round_.bots_due_at = None
    candidates = [round_.deadline_at] if humans else []
    if round_.bots_due_at is not None:
        candidates.append(round_.bots_due_at)
    if humans and not round_over:
        abandon = option_seconds(room.options, "abandon_seconds", ABANDON_SECONDS)
        by_seat = {s.index: s for s in table.seats}
        candidates.extend(idle_since(by_seat[h], room) + abandon for h in humans)
    round_.due_at = min(candidates)


def due_now(table: Table, *, now: datetime) -> Due:
    room, round_ = table.room, table.round
    assert round_ is not None
    to_act, is_bot = table.to_act, table.bots
    by_seat = {s.index: s for s in table.seats}
    round_over = round_.state.get("phase") == ROUND_OVER
    abandon = option_seconds(room.options, "abandon_seconds", ABANDON_SECONDS)
    abandoned = next(
        (s for s in to_act if s not in is_bot and not round_over and now >= idle_since(by_seat[s], room) + abandon),
        None,
    )
    bots = [s for s in to_act if s in is_bot and round_.bots_due_at is not None and now >= round_.bots_due_at]
    late = round_.deadline_at is not None and now >= round_.deadline_at
    timed_out = [s for s in to_act if s not in is_bot and late]
    return Due(bots=bots, timed_out=timed_out, abandoned=abandoned)
