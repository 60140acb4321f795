"""The server's outage is nobody's time: the heartbeat records the gaps, no clock runs out
while the API cannot serve, and the clocks of the turns an outage overlapped are given
it back. The clock is moved by the test (time_machine), never read from the machine."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection

from games import selectors, timing
from games.models import Action, Seat
from games.services import clock as clock_service
from games.services import due, play, timekeeper
from uptime import heartbeat
from uptime.models import Heartbeat, Outage

pytestmark = pytest.mark.django_db

T0 = datetime(2031, 3, 1, 9, 0, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def beating(settings):
    settings.UPTIME_HEARTBEAT_SECONDS = 2
    settings.UPTIME_OUTAGE_AFTER_SECONDS = 6


def test_extended_gives_back_the_part_of_each_outage_after_the_turn_began():
    start, until = T0, T0 + timedelta(seconds=60)
    s = timedelta(seconds=1)
    # Before the turn: nothing; across its start: the part after it; after the clock ran
    # out: nothing; within it: all of it.
    assert timing.extended(until, start, [(start - 30 * s, start - 10 * s)]) == until
    assert timing.extended(until, start, [(start - 10 * s, start + 5 * s)]) == until + 5 * s
    assert timing.extended(until, start, [(until + s, until + 9 * s)]) == until
    assert timing.extended(until, start, [(start + 20 * s, start + 32 * s)]) == until + 12 * s
    # An extension can reach into a later outage, which is then given back too.
    both = [(start + 50 * s, start + 65 * s), (until + 10 * s, until + 14 * s)]
    assert timing.extended(until, start, both) == until + 15 * s + 4 * s


def test_a_gap_in_the_heartbeat_is_one_outage():
    assert heartbeat.beat(now=T0) is None
    assert heartbeat.beat(now=T0 + timedelta(seconds=2)) is None
    assert heartbeat.beat(now=T0 + timedelta(seconds=8)) is None  # 6 s: not yet an outage
    assert heartbeat.serving(now=T0 + timedelta(seconds=14))
    assert not heartbeat.serving(now=T0 + timedelta(seconds=14, milliseconds=1))
    outage = heartbeat.beat(now=T0 + timedelta(seconds=30))
    assert outage is not None
    assert (outage.started_at, outage.ended_at) == (T0 + timedelta(seconds=8), T0 + timedelta(seconds=30))
    assert heartbeat.serving(now=T0 + timedelta(seconds=31))
    # A process whose clock reads earlier than the last beat changes nothing.
    assert heartbeat.beat(now=T0 + timedelta(seconds=29)) is None
    assert Outage.objects.count() == 1


def test_off_the_heartbeat_knows_nothing(settings):
    settings.UPTIME_HEARTBEAT_SECONDS = 0
    Heartbeat.objects.create(pk=1, beat_at=T0)
    Outage.objects.create(started_at=T0, ended_at=T0 + timedelta(minutes=5))
    assert heartbeat.serving(now=T0 + timedelta(days=1))
    assert heartbeat.outages_since(T0 - timedelta(days=1)) == []


@pytest.mark.django_db(transaction=True)
def test_processes_beating_at_once_after_a_gap_record_it_once():
    heartbeat.beat(now=T0)
    after = T0 + timedelta(seconds=40)
    results: list[object] = []
    barrier = threading.Barrier(4)

    def beat() -> None:
        try:
            barrier.wait(5)
            results.append(heartbeat.beat(now=after))
        finally:
            connection.close()

    threads = [threading.Thread(target=beat) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    assert len(results) == 4
    assert sum(r is not None for r in results) == 1
    assert Outage.objects.count() == 1


def test_no_turn_runs_out_while_the_api_is_down_and_the_outage_is_given_back(table):
    with time_machine.travel(T0, tick=False) as clock:
        heartbeat.beat(now=T0)
        room, users = table(turn_seconds=60, abandon_seconds=200)
        round_ = selectors.table_of(code=room.code).round
        assert round_.deadline_at == T0 + timedelta(seconds=60)
        # The API serves for 20 s, then nothing beats for 50 s (a release gone wrong).
        for second in range(2, 21, 2):
            heartbeat.beat(now=T0 + timedelta(seconds=second))
        down_until = T0 + timedelta(seconds=70)
        clock.move_to(T0 + timedelta(seconds=65))
        # The worker is up and the deadline has passed, but players could not move.
        assert due.due_actions_apply(code=room.code, now=T0 + timedelta(seconds=65)) is False
        assert due.overdue_sweep(now=T0 + timedelta(seconds=65)) == 0
        assert not Action.objects.filter(round=round_).exists()
        clock.move_to(down_until)
        outage = heartbeat.beat(now=down_until)
        assert outage is not None and outage.started_at == T0 + timedelta(seconds=20)
        # Back: the clock is given the 50 s, nothing runs out at the old deadline.
        assert due.due_actions_apply(code=room.code, now=down_until) is False
        round_ = selectors.table_of(code=room.code).round
        assert round_.deadline_at == T0 + timedelta(seconds=110)
        assert round_.outages_until == down_until
        view = selectors.view_by_code(code=room.code, user=users[0])
        assert view["deadline"] == "2031-03-01T09:01:50Z"
        # Nor is the outage anyone's idleness: abandonment is 50 s later too.
        assert view["abandon_deadline"] == "2031-03-01T09:04:10Z"
        # Given once: a second look changes nothing.
        room.refresh_from_db()
        version = room.version
        for second in range(72, 110, 2):
            heartbeat.beat(now=T0 + timedelta(seconds=second))
        clock.move_to(T0 + timedelta(seconds=109))
        assert due.due_actions_apply(code=room.code, now=T0 + timedelta(seconds=109)) is False
        room.refresh_from_db()
        assert room.version == version
        # At the extended deadline the turn runs out as usual.
        clock.move_to(T0 + timedelta(seconds=110))
        heartbeat.beat(now=T0 + timedelta(seconds=110))
        assert due.due_actions_apply(code=room.code, now=T0 + timedelta(seconds=110)) is True
        assert Action.objects.filter(round=round_, automatic=True).count() == 4


def test_an_outage_before_a_turn_began_gives_it_nothing(table):
    with time_machine.travel(T0, tick=False) as clock:
        heartbeat.beat(now=T0)
        outage = heartbeat.beat(now=T0 + timedelta(seconds=30))
        assert outage is not None
        clock.move_to(T0 + timedelta(seconds=31))
        room, users = table(turn_seconds=60)
        heartbeat.beat(now=T0 + timedelta(seconds=31))
        round_ = selectors.table_of(code=room.code).round
        assert round_.deadline_at == T0 + timedelta(seconds=91)
        room.refresh_from_db()
        view = selectors.view_by_code(code=room.code, user=users[0])
        action = {"type": "pass_cards", "cards": view["you"]["legal_actions"][0]["choices"][:3]}
        play.action_submit(code=room.code, user=users[0], version=room.version, action=action)
        assert selectors.table_of(code=room.code).round.deadline_at == T0 + timedelta(seconds=91)
        assert Seat.objects.get(room=room, index=1).idle_seconds == 0


def test_the_tables_in_play_are_given_an_outage_at_once(table):
    """The heartbeat that sees an outage end sends the tables their time back at once:
    their players see the new deadline without waiting for the old one."""
    with time_machine.travel(T0, tick=False) as clock:
        heartbeat.beat(now=T0)
        live, _ = table(turn_seconds=60)
        clock.move_to(T0 + timedelta(seconds=5))
        short, _ = table(turn_seconds=5)  # runs out before the outage begins
        for second in range(2, 13, 2):
            assert heartbeat.beat(now=T0 + timedelta(seconds=second)) is None
        clock.move_to(T0 + timedelta(seconds=40))
        outage = heartbeat.beat(now=T0 + timedelta(seconds=40))
        assert outage is not None
        given = timekeeper.outage_credit_everywhere(started=outage.started_at, ended=outage.ended_at)
        assert given == 1
        assert selectors.table_of(code=live.code).round.deadline_at == T0 + timedelta(seconds=60 + 28)
        assert selectors.table_of(code=short.code).round.deadline_at == T0 + timedelta(seconds=10)
        # Given once: the next change of the table gives nothing more.
        assert timekeeper.outage_credit_everywhere(started=outage.started_at, ended=outage.ended_at) == 0
        assert due.due_actions_apply(code=live.code, now=T0 + timedelta(seconds=41)) is False
        assert selectors.table_of(code=live.code).round.deadline_at == T0 + timedelta(seconds=88)


def test_a_clock_runs_out_only_once_the_api_was_seen_serving_after_it(
    table, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """A deadline that passed a second after the last beat may have passed in an outage
    that no beat has shown yet: the server waits for the next beat. If it comes, there
    was no outage and the turn runs out; if it never comes, nothing runs out."""
    with time_machine.travel(T0, tick=False) as clock:
        heartbeat.beat(now=T0)
        room, _ = table(turn_seconds=10, abandon_seconds=600)
        for second in range(2, 10, 2):
            heartbeat.beat(now=T0 + timedelta(seconds=second))
        round_ = selectors.table_of(code=room.code).round
        deadline = round_.deadline_at
        assert deadline == T0 + timedelta(seconds=10)
        clock.move_to(deadline + timedelta(milliseconds=500))
        # The last beat was at 8 s: the API is up as far as anyone knows, but it has not
        # been seen serving at 10 s. The task looks again just after the next beat.
        settings.GAME_TASKS_ENABLED = True
        queued: list[tuple[str, int, datetime]] = []
        monkeypatch.setattr(
            clock_service, "schedule", lambda code, version, eta, **_: queued.append((code, version, eta))
        )
        with django_capture_on_commit_callbacks(execute=True):
            assert due.due_actions_apply(code=room.code, now=deadline + timedelta(milliseconds=500)) is False
        assert not Action.objects.filter(round=round_).exists()
        room.refresh_from_db()
        # The next beat was due by 10 s and has not come yet: again in half the time it
        # is late by (1.25 s).
        assert queued == [(room.code, room.version, T0 + timedelta(seconds=11, milliseconds=750))]
        settings.GAME_TASKS_ENABLED = False
        heartbeat.beat(now=deadline + timedelta(seconds=1))
        clock.move_to(deadline + timedelta(seconds=1))
        assert due.due_actions_apply(code=room.code, now=deadline + timedelta(seconds=1)) is True
        assert Action.objects.filter(round=round_, automatic=True).count() == 4
