"""The due-time loop: what the server does when a hand's time comes — computer players
on a delay, the automatic action of a player whose turn ran out, the abandonment (or
hand-over) of a player idle past `abandon_seconds` — and the sweeper that catches what
a lost task left overdue."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.utils import timezone

from uptime import heartbeat

from .. import selectors, timing
from ..errors import ServiceError
from ..models import EndCause, Room, RoomStatus
from ..signals import player_abandoned, seat_handed_over
from ..store import Table
from . import clock, ending, handover, moves, timekeeper

logger = logging.getLogger(__name__)

# A clock held for the next beat is looked at again this long after that beat is due.
LOOK_AGAIN_MARGIN = timedelta(milliseconds=100)


def look_again_after(held_since: datetime, now: datetime) -> timedelta:
    """How long a clock held for a beat (the last at `held_since`) waits to look again:
    just after the next beat is due (a process that has served beats an eighth of an
    interval after its last, uptime.heartbeat.Pulse); once that is past, half the time
    the beat is late, so that held clocks do not crowd their worker while the beats are
    slow; at most an interval."""
    beat = timedelta(seconds=heartbeat.interval())
    expected = held_since + timedelta(seconds=heartbeat.fresh_interval()) + LOOK_AGAIN_MARGIN
    after = expected - now if expected > now else (now - held_since) / 2
    return min(max(after, LOOK_AGAIN_MARGIN), beat)


def due_actions_apply(
    *, code: str, version: int | None = None, now: datetime | None = None, served_after: datetime | None = None
) -> bool:
    """Do whatever is overdue at a table: computer players' moves, timed-out players'
    automatic actions, or abandonment. Returns whether anything was applied.

    Harmless when repeated, late or raced: it locks the room, and does nothing when the
    room moved past `version` (a newer task is scheduled; None: act on whatever is due,
    as the sweeper does) or nothing is due yet. A person's clock runs out only once the
    API has been seen serving after it ran out (uptime.heartbeat; timing.due_now): while
    the API is down nothing runs out (the sweeper comes back once it serves, and the
    outage is then given back to the clocks); just after a deadline, before the next
    beat, the task looks again just after the next beat is due (`look_again_after`),
    saying which beat it waits for (`served_after`: it looks again without the room's
    lock until a beat that late has come).
    """
    # A task for a version the room has moved past (its player moved in time: most
    # deadlines' tasks) is done with one read, without the room's lock: versions only
    # grow, so it can only be stale.
    if version is not None and not Room.objects.filter(code=code, version=version).exists():
        return False
    # The heartbeat read once, before the lock: a beat that comes while the task waits
    # for it only makes the task look again a moment later.
    served = heartbeat.last_beat()
    moment = now or timezone.now()
    if not heartbeat.serving(now=moment, last=served):
        return False
    if served_after is not None and served is not None and served < served_after:
        # Still no beat past the clock it waits for: again later, without the lock.
        if version is not None and clock.tasks_enabled():
            eta = moment + look_again_after(served, moment)
            clock.schedule(code, version, eta, queue=clock.clock_queue(), served_after=served_after)
        return False
    try:
        with timekeeper.changing(code, now=now) as table:
            # The clock read once the room is locked (unless a test set it): a task that
            # waited for the lock must not start the next turn before its own action.
            acted, held_since = _act_when_due(table, version=version, now=table.now, served=served)
            if held_since is not None:
                # Again just after the next beat is due, waiting for one past the clock
                # that ran out (the round's due time, passed).
                after = look_again_after(held_since, table.now)
                due = table.round.due_at if table.round is not None else None
                clock.look_again(table, after=after, served_after=due)
            return acted
    except ServiceError as err:
        if err.code == "not_found":  # the room is gone: a task outlived it
            return False
        raise


def _act_when_due(
    table: Table, *, version: int | None, now: datetime, served: datetime | None
) -> tuple[bool, datetime | None]:
    """The body of `due_actions_apply`: whether it acted, and, when a person's clock ran
    out with no beat of the API since (`served`: the last beat), that beat. Expects the
    room lock held; after
    each step the time is kept in memory with the same clock, so the loop sees the next
    deadlines."""
    room = table.room
    if room.status != RoomStatus.PLAYING or table.round is None:
        return False, None
    if version is not None and version != room.version:
        return False, None
    acted = False
    for _ in range(moves.MAX_BOT_STEPS):
        round_ = table.round
        due = timing.due_now(table, now=now, served=served)
        if due.abandoned is not None:
            acted = True
            if table.room.options.get("on_abandon") != "bot":
                _abandon(table, due.abandoned)
                break
            _idle_to_bot(table, due.abandoned)
            if table.room.status != RoomStatus.PLAYING:
                break
        elif due.bots:
            seat = due.bots[0]
            moves.step(table, seat, table.rules.bot_action(round_.state, seat), user=None, by_bot=True)
        elif due.timed_out:
            seat = due.timed_out[0]
            if not timing.in_pause(table):
                # The pause between hands running out is no one's fault: the next hand
                # is simply dealt.
                table.log({"type": "timed_out", "seat": seat}, round_.number)
            action = table.rules.timeout_action(round_.state, seat)
            moves.step(table, seat, action, user=None, automatic=True)
        else:
            break
        acted = True
        timekeeper.keep(table, now=now, final=False)
    if served is None or table.room.status != RoomStatus.PLAYING or table.round is None:
        return acted, None
    unheld = timing.due_now(table, now=now)
    return acted, served if unheld.abandoned is not None or unheld.timed_out else None


def _idle_to_bot(table: Table, index: int) -> None:
    """A computer player takes the seat of a player idle past `abandon_seconds` and
    keeps it for them (`on_abandon: bot`); the match is abandoned once no person is
    left playing. Expects the room lock held."""
    seat = table.seat_at(index)
    assert seat is not None and seat.user is not None
    name = seat.user.shown_name
    reason = f"{name} did not play in time; a computer player plays on until they come back."
    event = {"type": "seat_to_bot", "seat": index, "name": name, "idle": True, "reason": reason}
    handover.seat_to_bot(table, seat, event, keep_owner=True)
    seat_handed_over.send(sender=Room, room=table.room, seat=index, user=seat.user, kind="to_bot")
    player_abandoned.send(sender=Room, room=table.room, user=seat.user)
    handover.end_if_everyone_away(table, index)


def _abandon(table: Table, seat: int) -> None:
    """The match ends, abandoned because of the idleness of `seat`'s player (the view
    then tells that player "you", games.selectors.status_reason_for)."""
    # People read the reason on the table: the player's name, not a seat index.
    idler = table.seat_at(seat)
    person = idler.user if idler is not None else None
    who = person.shown_name if person is not None else f"The player in seat {seat + 1}"
    ending.room_end(
        table, RoomStatus.ABANDONED, EndCause.IDLE, seat=seat, name=who, logged={"seat": seat, "idle": True}
    )
    if idler is not None and idler.user is not None and not idler.is_bot:
        player_abandoned.send(sender=Room, room=table.room, user=idler.user)


def overdue_sweep(*, now: datetime | None = None) -> int:
    """Act at every overdue table, each in its own transaction. Safe to run twice at once.

    A table that fails is logged and left for the next sweep: it must not hold up the
    tables due after it.
    """
    moment = now or timezone.now()
    if not heartbeat.serving(now=moment):
        return 0
    handled = 0
    for code in selectors.rooms_overdue(now=moment):
        try:
            # Each table by the clock as its lock is taken: a sweep of many tables takes
            # a while, and a table must not be acted on by the time the sweep began.
            handled += due_actions_apply(code=code, now=now)
        except Exception:
            logger.exception("the sweeper could not act in room %s", code)
    return handled
