"""The one place that keeps a table's time: every service changes a room inside
`changing(code)`, and nothing else writes who is to act since when.

On entry (the room locked): the clocks are given back any outage of the server since
they last were (`credit_outages`). The service then changes the table. On exit, in this
order (`keep`): computer players and forced plays move where they should at once, the
turns are settled against who was to act before (`settle`: a seat waited for again
begins a new turn, its person's waiting time adds up or starts again), the clock is
planned (games.timing) and written (games.services.clock), and each person whose turn
began is told, with that turn's deadline, once the change commits. The due-time loop
(games.services.due) keeps time the same way between the actions it takes, in memory.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from uptime import heartbeat

from .. import live, selectors, store, timing
from ..errors import ServiceError
from ..models import RoomStatus, Round
from ..store import Table
from . import clock, moves


@contextmanager
def changing(code: str, *, now: datetime | None = None) -> Iterator[Table]:
    """The table locked for a change; its time is kept when the block ends (nothing is
    written when it raises). `now`: the clock to keep time by (tests inject it); else
    `table.now` is the clock as the lock was taken, and the block ends by the clock as
    it ends."""
    with store.locked(code) as table:
        if now is not None:
            table.now = now
        credit_outages(table)
        yield table
        keep(table, now=now or timezone.now(), final=True)


def keep(table: Table, *, now: datetime, final: bool) -> None:
    """Bring the table's time up to date after a change. `final`: the change ends here:
    the turns it began start now (a change's processing time is no one's waiting), the
    clock's task is queued and the people whose turn began are told. A block's time is
    kept finally once: `changing` does it unless the service did (to answer with it)."""
    moves.bots_advance(table)
    if final and table.turns.kept and not table.turns.acted:
        return  # kept finally already, nothing acted since
    if not table.writes.pending():
        return  # nothing changed: the clock stands as it was planned
    started = settle(table, now=now)
    if final:
        started |= table.turns.started
        table.turns.started = set()
        for seat in table.seats:
            if seat.index in started and seat.turn_since is not None and seat.turn_since != now:
                seat.turn_since = now
                table.mark(seat, ["turn_since"])
    else:
        table.turns.started |= started
    if table.round is not None:
        timing.plan(table, started=started, now=now)
    if final:
        clock.write(table, now=now)
        _tell(table)
        table.turns.kept = True


def settle(table: Table, *, now: datetime) -> set[int]:
    """Mark since when the game waits for each seat (`Seat.turn_since`, for people) and
    keep each person's waiting time (`Seat.idle_seconds`); returns the seats whose turn
    began now. Compares who is to act with who was at the last settle: a seat begins a
    turn when it was not to act then, when it acted since (it is waited for again), or
    when the hand or its phase changed."""
    status_before, round_before, state_before = table.turns.settled
    waited_before = set(_to_act(table, status_before, round_before, state_before))
    waits = set(timing.waiting(table))
    round_ = table.round
    phase_before = (round_before.number, state_before.get("phase")) if round_before is not None else None
    phase_now = (round_.number, round_.state.get("phase")) if round_ is not None else None
    moved_on = phase_before != phase_now
    started = {s for s in waits if s not in waited_before or s in table.turns.acted or moved_on}
    paused_before = state_before is not None and state_before.get("phase") == timing.ROUND_OVER
    for seat in table.seats:
        fields = []
        if table.turns.acted.get(seat.index):
            # The person acted themself: their waiting time starts again from nothing.
            if seat.idle_seconds:
                seat.idle_seconds = 0.0
                fields.append("idle_seconds")
        elif seat.turn_since is not None and (seat.index not in waits or seat.index in started) and not paused_before:
            # A turn of theirs ended without their acting (the server acted for them):
            # it counts against them.
            seat.idle_seconds += max(0.0, (now - seat.turn_since).total_seconds())
            fields.append("idle_seconds")
        person_waits = seat.index in waits and timing.is_person(seat)
        if person_waits and (seat.turn_since is None or seat.index in started):
            seat.turn_since = now
            fields.append("turn_since")
            table.turns.begun.add(seat.index)
        elif not person_waits and seat.turn_since is not None:
            seat.turn_since = None
            fields.append("turn_since")
        if fields:
            table.mark(seat, fields)
    table.turns.settled = (table.room.status, round_, None if round_ is None else round_.state)
    table.turns.acted = {}
    return started


def credit_outages(table: Table) -> None:
    """Give the clocks of the turns in progress every outage of the server recorded
    since they last were given one: the turn deadline and each waiting person's
    abandonment are pushed back by the part of the outage after their turn began, and
    to no sooner than the serving time owed after it (timing.extended, after_outage),
    so that no one loses time they could not have played in. The people waiting hear
    the new deadline."""
    room, round_ = table.room, table.round
    if round_ is None or room.status != RoomStatus.PLAYING or table.outages_until is None:
        return
    since = round_.outages_until or round_.started_at
    if since is not None and table.outages_until <= since:
        return
    outages = heartbeat.outages_since(since) if since is not None else []
    round_.outages_until = table.outages_until
    fields = ["outages_until"]
    people = [s for s in table.seats if s.turn_since is not None]
    # After the outage, at least this much serving time before the clock runs out.
    minimum = timing.after_outage(timing.clock_length(table))
    if outages and people and round_.deadline_at is not None:
        began = max(s.turn_since for s in people if s.turn_since is not None)
        deadline = timing.extended(round_.deadline_at, began, outages, minimum)
        if deadline != round_.deadline_at:
            round_.deadline_at = deadline
            fields.append("deadline_at")
    for seat in people:
        at = timing.abandon_at(table, seat)
        if outages and at is not None and seat.turn_since is not None:
            credit = timing.extended(at, seat.turn_since, outages, minimum) - at
            if credit > timedelta(0):
                seat.idle_seconds -= credit.total_seconds()
                table.mark(seat, ["idle_seconds"])
    table.mark(round_, fields)
    if "deadline_at" in fields:
        table.touch()
        # Their turn's clock moved: the people it waits for hear its new deadline
        # (`your_turn` on ws/me/, as when it began), once the change commits.
        table.turns.begun.update(s.index for s in people if s.index in timing.waiting(table) and timing.is_person(s))


def outage_credit_everywhere(*, started: datetime, ended: datetime) -> int:
    """Give an outage back now to every table in play it overlapped, each under its own
    lock, so that their players see the new deadlines at once rather than at the old
    ones (the tables' next change or due time would give it all the same). Returns how
    many tables were given it."""
    given = 0
    for code in selectors.rooms_owed_an_outage(started=started, ended=ended):
        try:
            with changing(code):
                given += 1
        except ServiceError as err:
            if err.code != "not_found":  # the room is gone since the list was read
                raise
    return given


def _to_act(table: Table, status: str, round_: Round | None, state: dict[str, Any] | None) -> list[int]:
    if status != RoomStatus.PLAYING or round_ is None or state is None:
        return []
    if table.round is not None and round_ is table.round and state is table.round.state:
        return table.to_act  # the same state: asked of the engine once
    return table.rules.to_act(state)


def _tell(table: Table) -> None:
    """Each person whose turn began in this block, and still waits, hears it with the
    turn's deadline; each person of a match that ended, that it did."""
    room = table.room
    deadline = table.round.deadline_at if table.round is not None else None
    for seat in table.seats:
        if seat.index in table.turns.begun and seat.turn_since is not None and seat.user_id is not None:
            live.your_turn_after_commit(seat.user_id, room, deadline)
    table.turns.begun.clear()
    if table.turns.status_read == RoomStatus.PLAYING and room.status != RoomStatus.PLAYING:
        table.turns.status_read = room.status
        for seat in table.seats:
            if seat.user_id is not None:
                live.match_over_after_commit(seat.user_id, room.code)
