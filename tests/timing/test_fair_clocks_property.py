"""Fair clocks, as a property: over random sequences of people's moves, computer players'
moves, timeouts, reclaimed seats and outages of the server, in every game, no turn runs
out before its own `turn_seconds` (or the pause its `between_rounds_seconds`) plus the
outages within it, and no one is abandoned or replaced before their own waiting time
reaches `abandon_seconds`.

The clock is moved by the test (time_machine), never read from the machine: the same
sequence gives the same result however fast the machine runs. The test keeps its own
account of each seat's turns, from what it sees (who is to act after each step, who
acted, the outages it made), not from the server's bookkeeping; and after every step it
checks that the table's time is kept (`assert_time_kept`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from games import rules, store, timing
from games.models import Action, Event, Room, RoomStatus, Round, Seat
from games.services import due, lobby, play, reclaim
from tests.game_params import registered_games, short_match
from uptime import heartbeat
from uptime.models import Heartbeat

pytestmark = pytest.mark.django_db

TURN, ABANDON, PAUSE = 10, 25, 6
# Clocks are compared to the microsecond; the database keeps microseconds.
EXACT = timedelta(microseconds=1)
# Every registered game, on the options of its short match (tests/game_params.py).
GAMES = {game.key: short_match(game) for game in registered_games()}


def assert_time_kept(code: str) -> None:
    """The table's time invariant: every person the game waits for has a turn start, no
    one else has; a hand in play with someone to act has its due time, the soonest of
    its deadline, its computer players' time and its people's abandonment; nothing is
    due in a hand no one is to act in."""
    table = store.table(code)
    assert table is not None
    waiting = set(timing.waiting(table))
    for seat in table.seats:
        person_waits = seat.index in waiting and timing.is_person(seat)
        assert (seat.turn_since is not None) == person_waits, (seat.index, seat.turn_since, waiting)
    round_ = table.round
    if round_ is None:
        return
    people = [s for s in table.seats if s.index in waiting and timing.is_person(s)]
    bots = [s for s in table.seats if s.index in waiting and not timing.is_person(s)]
    assert (round_.deadline_at is not None) == bool(people)
    assert (round_.bots_due_at is not None) == bool(bots)
    times = [t for t in (round_.deadline_at, round_.bots_due_at) if t is not None]
    times += [t for s in people if (t := timing.abandon_at(table, s)) is not None]
    assert round_.due_at == min(times, default=None)
    # No older hand keeps a due time the sweeper would find.
    assert not Round.objects.filter(room=table.room, due_at__isnull=False).exclude(pk=round_.pk).exists()


@dataclass
class Turn:
    start: datetime
    paused: bool


@dataclass
class Ledger:
    """The test's own account of the turns, from what it sees."""

    turns: dict[int, Turn] = field(default_factory=dict)
    idle: dict[int, timedelta] = field(default_factory=dict)
    outages: list[tuple[datetime, datetime]] = field(default_factory=list)
    timeouts: int = 0
    abandonments: int = 0

    def lost(self, start: datetime, end: datetime) -> timedelta:
        """The part of the outages within [start, end]."""
        return sum(
            (min(b, end) - max(a, start) for a, b in self.outages if a < end and b > start),
            timedelta(0),
        )

    def own_wait(self, seat: int, now: datetime) -> timedelta:
        turn = self.turns.get(seat)
        current = timedelta(0)
        if turn is not None and not turn.paused:
            current = now - turn.start - self.lost(turn.start, now)
        return self.idle.get(seat, timedelta(0)) + current


@dataclass(frozen=True)
class Seen:
    """What the test sees of a table: who is to act (people and computer players), in
    which hand and phase, whether it is the pause, the room's status, and how far its
    action and event logs go."""

    waits: frozenset[int]
    hand: tuple[int, str]
    paused: bool
    status: str
    last_action: int
    last_event: int


def seen(code: str) -> Seen:
    table = store.table(code)
    assert table is not None
    round_ = table.round
    last_action = Action.objects.filter(round__room=table.room).order_by("-pk").values_list("pk", flat=True).first()
    return Seen(
        frozenset(timing.waiting(table)),
        (round_.number, round_.state.get("phase", "")) if round_ else (0, ""),
        timing.in_pause(table),
        table.room.status,
        last_action or 0,
        table.room.event_seq,
    )


def web_serves(until: datetime) -> None:
    """The processes serving the API beat, every interval, up to `until`."""
    last = Heartbeat.objects.values_list("beat_at", flat=True).first()
    step = timedelta(seconds=heartbeat.interval())
    moment = until if last is None else last + step
    while moment < until:
        assert heartbeat.beat(now=moment) is None
        moment += step
    assert heartbeat.beat(now=until) is None


def after_step(code: str, ledger: Ledger, now: datetime, before: Seen) -> None:
    """Check what the step did against the ledger, then bring the ledger up to date."""
    room = Room.objects.get(code=code)
    actions = list(Action.objects.filter(round__room=room, pk__gt=before.last_action).order_by("pk"))
    events = [e.data for e in Event.objects.filter(room=room, seq__gt=before.last_event).order_by("seq")]
    for action in actions:
        if action.automatic and action.seat in ledger.turns:
            # A turn the server ended: only once its own clock ran out.
            turn = ledger.turns[action.seat]
            clock = timedelta(seconds=PAUSE if turn.paused else TURN)
            assert now - turn.start - ledger.lost(turn.start, now) >= clock - EXACT, (action.seat, turn, now)
            ledger.timeouts += 1
    for logged in events:
        if logged["type"] in ("abandoned", "seat_to_bot") and logged.get("idle"):
            seat = logged["seat"]
            assert ledger.own_wait(seat, now) >= timedelta(seconds=ABANDON) - EXACT, (seat, ledger, now)
            ledger.abandonments += 1
    # Bring the ledger up to date: who acted themselves, whose turn ended, whose began.
    after = seen(code)
    waits = after.waits
    seats = {s.index: s for s in Seat.objects.filter(room=room)}
    acted = {a.seat: a.user_id is not None for a in actions}
    for action in actions:
        if action.user_id is not None:
            ledger.idle[action.seat] = timedelta(0)
    for logged in events:
        if logged["type"] == "seat_reclaimed":
            ledger.idle[logged["seat"]] = timedelta(0)
    moved_on = after.hand != before.hand
    for index in list(ledger.turns):
        turn = ledger.turns[index]
        ended = index not in waits or index in acted or moved_on or not timing.is_person(seats[index])
        if ended:
            if not acted.get(index) and not turn.paused:
                lost = ledger.lost(turn.start, now)
                ledger.idle[index] = ledger.idle.get(index, timedelta(0)) + (now - turn.start - lost)
            del ledger.turns[index]
    if after.status == RoomStatus.PLAYING:
        for index in waits:
            if index not in ledger.turns and timing.is_person(seats[index]):
                ledger.turns[index] = Turn(now, after.paused)


def started_room(make_user, game: str, people: int, on_abandon: str) -> tuple[Room, list[Any]]:
    options = {
        **GAMES[game],
        "turn_seconds": TURN,
        "abandon_seconds": ABANDON,
        "between_rounds_seconds": PAUSE,
        "on_abandon": on_abandon,
    }
    users = [make_user() for _ in range(people)]
    room = lobby.room_create(host=users[0], game=game, options=options)
    seats = rules.get(game).seat_count(room.options)
    for user in users[1:seats]:
        lobby.room_join(code=room.code, user=user)
    for _ in range(seats - min(people, seats)):
        lobby.room_add_bot(code=room.code, user=users[0])
    lobby.room_start(code=room.code, user=users[0])
    room.refresh_from_db()
    return room, users[:seats]


def steps_of(kinds: list[str]) -> st.SearchStrategy[list[tuple[str, int, int]]]:
    step = st.tuples(
        st.sampled_from(kinds),
        st.integers(min_value=0, max_value=12_000),  # milliseconds
        st.integers(min_value=0, max_value=3),
    )
    return st.lists(step, min_size=10, max_size=60)


# Tables where people mostly play, and tables where they mostly let time run out.
STEPS = steps_of(["act", "act", "act", "wait", "wait", "outage", "reclaim"]) | steps_of(
    ["wait", "wait", "wait", "wait", "act", "outage", "reclaim"]
)


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    game=st.sampled_from(sorted(GAMES)),
    people=st.integers(min_value=1, max_value=4),
    on_abandon=st.sampled_from(["end", "bot"]),
    steps=STEPS,
)
# Everyone lets their time run out, hand after hand: among many turns, a seat that plays
# the trick's last card and wins it leads next, in a turn of its own.
@example(game="hearts", people=4, on_abandon="bot", steps=[("wait", 0, 0)] * 60)
@example(game="moon", people=3, on_abandon="end", steps=[("wait", 300, 0), ("act", 0, 0)] * 30)
def test_no_clock_runs_out_early_and_no_one_is_abandoned_for_others_time(
    make_user, settings_override, game, people, on_abandon, steps
):
    # Each example on a day of its own, as a deployment of its own: the outages of the
    # examples before are over before it begins.
    start = datetime(2030, 1, 1, 12, 0, 0, tzinfo=UTC) + timedelta(days=next(EXAMPLES))
    Heartbeat.objects.all().delete()
    with time_machine.travel(start, tick=False) as clock:
        web_serves(start)
        room, _ = started_room(make_user, game, people, on_abandon)
        code = room.code
        now = start
        ledger = Ledger()
        after_step(code, ledger, now, Seen(frozenset(), (0, ""), False, RoomStatus.LOBBY, 0, 0))
        assert_time_kept(code)
        for kind, millis, who in steps:
            room.refresh_from_db()
            if room.status != RoomStatus.PLAYING:
                break
            now += timedelta(milliseconds=millis)
            if kind == "outage":
                # The API stops serving: no clock runs out while it is down, and once it
                # serves again the outage is given back to the clocks.
                web_serves(now)
                down = now + heartbeat.outage_after() + timedelta(seconds=1, milliseconds=millis)
                clock.move_to(down - timedelta(milliseconds=500))
                before = seen(code)
                assert due.due_actions_apply(code=code, now=down - timedelta(milliseconds=500)) is False
                assert seen(code) == before
                now = down
                clock.move_to(now)
                outage = heartbeat.beat(now=now)
                assert outage is not None
                ledger.outages.append((outage.started_at, outage.ended_at))
                due.due_actions_apply(code=code, now=now)
                after_step(code, ledger, now, before)
            elif kind == "wait":
                # The clock runs to the hand's due time (or a little past), and the
                # server acts as its task would.
                round_ = Round.objects.filter(room=room).order_by("-number").first()
                if round_ is not None and round_.due_at is not None:
                    now = max(now, round_.due_at + timedelta(milliseconds=millis % 1500))
                web_serves(now)
                clock.move_to(now)
                before = seen(code)
                due.due_actions_apply(code=code, now=now)
                after_step(code, ledger, now, before)
            elif kind == "reclaim":
                web_serves(now)
                clock.move_to(now)
                before = seen(code)
                held = Seat.objects.filter(room=room, is_bot=True, user__isnull=False).first()
                if held is not None:
                    reclaim.seat_reclaim(code=code, user=held.user)
                    after_step(code, ledger, now, before)
            else:
                web_serves(now)
                clock.move_to(now)
                before = seen(code)
                people_to_act = Seat.objects.filter(room=room, is_bot=False, user__isnull=False)
                movers = [s for s in people_to_act.select_related("user") if s.index in before.waits]
                if movers:
                    seat = movers[who % len(movers)]
                    round_ = Round.objects.filter(room=room).order_by("-number").first()
                    assert round_ is not None
                    action = rules.get(game).bot_action(round_.state, seat.index)
                    play.action_submit(code=code, user=seat.user, version=room.version, action=action)
                    after_step(code, ledger, now, before)
            assert_time_kept(code)
        # What the example exercised (--hypothesis-show-statistics).
        event(f"turns run out: {'some' if ledger.timeouts else 'none'}")
        event(f"players abandoned or replaced: {'some' if ledger.abandonments else 'none'}")
        event(f"outages: {'some' if ledger.outages else 'none'}")


EXAMPLES = itertools.count()


@pytest.fixture
def settings_override(settings):
    # The heartbeat is on (outages are recorded); computer players think for a second.
    settings.UPTIME_HEARTBEAT_SECONDS = 2
    settings.UPTIME_OUTAGE_AFTER_SECONDS = 6
    settings.BOT_DELAY_SECONDS = 1.0
    settings.GAME_TASKS_ENABLED = False
    return settings
