"""An outage as players saw it: it ends when the API has answered again (a request served
to completion), not when a process came up; and after it every turn it overlapped has at
least UPTIME_MIN_SERVING_AFTER_OUTAGE_SECONDS of serving time (or its whole clock, when
shorter) from that first answer, which its players are shown and told. The clock is moved
by the test, never read from the machine."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.core.signals import request_finished

from games import selectors, timing
from games.models import Action, Seat
from games.services import due, timekeeper
from uptime import heartbeat
from uptime.models import Heartbeat, Outage

pytestmark = pytest.mark.django_db

T0 = datetime(2031, 3, 1, 9, 0, 0, tzinfo=UTC)
S = timedelta(seconds=1)


@pytest.fixture(autouse=True)
def beating(settings):
    settings.UPTIME_HEARTBEAT_SECONDS = 2
    settings.UPTIME_OUTAGE_AFTER_SECONDS = 6
    settings.UPTIME_MIN_SERVING_AFTER_OUTAGE_SECONDS = 15


def beat_at() -> datetime:
    return Heartbeat.objects.get(pk=1).beat_at


# -- when an outage ends -------------------------------------------------------------------


def test_a_process_says_nothing_until_it_served_an_answer_and_the_outage_ends_with_that_answer():
    heartbeat.beat(now=T0)  # the last beat before every process was killed
    pulse = heartbeat.Pulse()
    # The restarted process is up 25 s later, a queue of requests waiting: it does not
    # beat, however long it waits, until it has served one of them.
    for second in (25, 27, 29, 31):
        pulse.step(now=T0 + second * S)
    assert beat_at() == T0 and not Outage.objects.exists()
    # The first answer is served at 31.5 s; the beat that follows is stamped with it.
    pulse.served(T0 + 31.5 * S)
    pulse.step(now=T0 + 31.6 * S)
    [outage] = Outage.objects.all()
    assert (outage.started_at, outage.ended_at) == (T0, T0 + 31.5 * S)
    assert beat_at() == T0 + 31.5 * S


def test_after_the_first_answer_a_process_beats_every_eighth_of_an_interval_served_or_not():
    """So that a clock that runs out is soon seen served past, at a quiet server too."""
    heartbeat.beat(now=T0)
    pulse = heartbeat.Pulse()
    pulse.served(T0 + 0.1 * S)
    assert pulse.step(now=T0 + 0.1 * S) == 0.25  # the first beat; an eighth of an interval to the next look
    assert beat_at() == T0 + 0.1 * S
    # Too soon: nothing written, the rest of the eighth to wait.
    assert pulse.step(now=T0 + 0.2 * S) == pytest.approx(0.15)
    assert beat_at() == T0 + 0.1 * S
    # Nothing served since: it beats all the same, an eighth after the last.
    assert pulse.step(now=T0 + 0.35 * S) == 0.25
    assert beat_at() == T0 + 0.35 * S
    # Answers served change nothing of the pace.
    pulse.served(T0 + 0.4 * S)
    assert pulse.step(now=T0 + 0.45 * S) == pytest.approx(0.15)
    assert beat_at() == T0 + 0.35 * S
    pulse.step(now=T0 + 0.6 * S)
    assert beat_at() == T0 + 0.6 * S
    assert not Outage.objects.exists()


def test_a_beat_of_another_process_meanwhile_means_there_was_no_outage():
    heartbeat.beat(now=T0)
    pulse = heartbeat.Pulse()
    heartbeat.beat(now=T0 + 5 * S)  # the other web process served on
    pulse.served(T0 + 9 * S)
    pulse.step(now=T0 + 9 * S)
    assert not Outage.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_process_nobody_asks_asks_itself_through_its_own_socket(live_server):
    """With no request coming for a beat (no player), the process asks its own API;
    served like any request, that answer starts its beats."""
    pulse = heartbeat.Pulse(probe=f"{live_server.url}/api/v1/games/")

    def served(**kwargs: Any) -> None:
        pulse.served()

    request_finished.connect(served, dispatch_uid="test-pulse-served")
    try:
        pulse.step(now=T0)  # its first look: nobody has had a beat to ask yet
        assert not pulse.wake.wait(0.5) and pulse.first_served is None
        pulse.step(now=T0 + 2 * S)
        assert pulse.wake.wait(20), "the process's own request was not served"
        assert pulse.first_served is not None
        pulse.step()
        assert beat_at() == pulse.first_served
    finally:
        request_finished.disconnect(dispatch_uid="test-pulse-served")


# -- the serving time owed after an outage ----------------------------------------------


def test_extended_owes_the_minimum_from_the_outage_end_or_the_whole_clock():
    start = T0
    # 60 s turn, 55 s gone when the API went down for 45 s: 5 s left, 15 owed.
    assert timing.extended(start + 60 * S, start, [(start + 55 * S, start + 100 * S)], 15 * S) == start + 115 * S
    # 40 s left: more than owed, the clock as it was.
    assert timing.extended(start + 60 * S, start, [(start + 20 * S, start + 70 * S)], 15 * S) == start + 110 * S
    # Begun inside the outage: the whole clock after it.
    assert timing.extended(start + 60 * S, start, [(start - 5 * S, start + 10 * S)], 15 * S) == start + 70 * S
    # Ran out before the outage began: nothing owed.
    assert timing.extended(start + 60 * S, start, [(start + 61 * S, start + 90 * S)], 15 * S) == start + 60 * S
    assert timing.after_outage(6 * S) == 6 * S
    assert timing.after_outage(60 * S) == 15 * S


def test_a_turn_the_outage_left_short_is_owed_the_minimum_and_its_player_sees_and_hears_it(
    table, monkeypatch, django_capture_on_commit_callbacks
):
    told: list[tuple[int, str, datetime | None]] = []
    monkeypatch.setattr(
        timekeeper.live,
        "your_turn_after_commit",
        lambda user_id, room, deadline: told.append((user_id, room.code, deadline)),
    )
    with time_machine.travel(T0, tick=False) as clock:
        heartbeat.beat(now=T0)
        room, users = table(turn_seconds=60, abandon_seconds=200)
        for second in range(2, 55, 2):
            heartbeat.beat(now=T0 + second * S)
        # Down from 54 s; the first answer after it served at 100 s.
        clock.move_to(T0 + 100 * S)
        pulse = heartbeat.Pulse()
        pulse.served(T0 + 100 * S)
        told.clear()
        with django_capture_on_commit_callbacks(execute=True):
            pulse.step(now=T0 + 100 * S)
            [outage] = Outage.objects.all()
            assert timekeeper.outage_credit_everywhere(started=outage.started_at, ended=outage.ended_at) == 1
        # 6 s were left at 54 s: 15 s are owed after the first answer.
        round_ = selectors.table_of(code=room.code).round
        assert round_.deadline_at == T0 + 115 * S
        view = selectors.view_by_code(code=room.code, user=users[0])
        assert view["deadline"] == "2031-03-01T09:01:55Z"
        # Each person waited for hears the new deadline on ws/me/.
        assert sorted(told) == sorted((u.pk, room.code, T0 + 115 * S) for u in users)
        assert [t["deadline"] for t in selectors.turns_of(user=users[1])] == ["2031-03-01T09:01:55Z"]
        # Nor is the time owed their idleness: abandonment moves as far at least.
        assert view["abandon_deadline"] >= "2031-03-01T09:01:55Z"
        # Nothing runs out inside the 15 s, however the beats come; then it does.
        for second in (102, 108, 114):
            heartbeat.beat(now=T0 + second * S)
            clock.move_to(T0 + second * S)
            assert due.due_actions_apply(code=room.code, now=T0 + second * S) is False
        clock.move_to(T0 + 115.5 * S)
        heartbeat.beat(now=T0 + 115.5 * S)
        assert due.due_actions_apply(code=room.code, now=T0 + 115.5 * S) is True
        assert Action.objects.filter(round=round_, automatic=True).count() == 4


def test_a_short_clock_is_owed_its_whole_length_after_the_first_answer(table):
    with time_machine.travel(T0, tick=False) as clock:
        heartbeat.beat(now=T0)
        room, _ = table(turn_seconds=6, abandon_seconds=30)
        heartbeat.beat(now=T0 + 2 * S)
        clock.move_to(T0 + 40 * S)
        heartbeat.beat(now=T0 + 40 * S)  # the first answer served, 38 s later
        assert due.due_actions_apply(code=room.code, now=T0 + 40 * S) is False
        round_ = selectors.table_of(code=room.code).round
        assert round_.deadline_at == T0 + 46 * S
        # The abandonment (30 s of waiting, 2 s of it before the outage) is not sooner.
        seat = Seat.objects.get(room=room, index=0)
        assert timing.abandon_at(selectors.table_of(code=room.code), seat) >= T0 + 46 * S


# -- the clocks' own queue -----------------------------------------------------------------


def test_a_persons_clock_goes_to_the_clock_queue_and_computer_players_moves_to_the_default(
    table, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """A deadline must wait behind no computer player's move: its task goes to the
    queue the clock workers alone take (GAME_CLOCK_QUEUE)."""
    from games.services import clock as clock_service

    settings.GAME_TASKS_ENABLED = True
    settings.BOT_DELAY_SECONDS = 1.0
    settings.GAME_CLOCK_QUEUE = "clock"
    sent: list[tuple[str, str | None]] = []

    def schedule(code: str, version: int, eta: datetime, *, queue: str | None = None) -> None:
        sent.append((code, queue))

    monkeypatch.setattr(clock_service, "schedule", schedule)
    with django_capture_on_commit_callbacks(execute=True):
        people, _ = table(humans=4, turn_seconds=60)  # the pass: four people's clock
    assert sent == [(people.code, "clock")]
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        bots, _ = table(humans=1, turn_seconds=60)  # three computer players pass in 1 s
    assert sent == [(bots.code, None)]
    settings.GAME_CLOCK_QUEUE = ""
    assert clock_service.clock_queue() is None


def test_only_the_apis_answers_count():
    """A load balancer's /healthz is answered before the application, by a process that
    may not answer a player yet: only the API's answers end an outage."""
    assert heartbeat.counts("/api/v1/rooms/ABC123/state")
    assert not heartbeat.counts("/healthz")
    assert not heartbeat.counts("/readyz")
    assert not heartbeat.counts("/static/web/app.js")


def test_a_clock_held_for_a_beat_looks_again_soon_on_the_clock_queue_and_without_the_lock_until_it_comes(
    table, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """The task that comes at a deadline finds no beat after it yet: a process serving
    answers beats an eighth of an interval after its last, so the task looks again just
    after that (not a whole interval later), on the clock workers' queue; and while that
    beat is late, again in half the time it is late by, looking only at the heartbeat."""
    from games.services import clock as clock_service

    with time_machine.travel(T0, tick=False) as clock:
        heartbeat.beat(now=T0)
        room, _ = table(turn_seconds=10, abandon_seconds=600)
        for second in (2, 4, 6, 8, 9.6):
            heartbeat.beat(now=T0 + second * S)
        clock.move_to(T0 + 10.05 * S)
        settings.GAME_TASKS_ENABLED = True
        settings.GAME_CLOCK_QUEUE = "clock"
        queued: list[tuple[int, datetime, str | None, datetime | None]] = []

        def schedule(
            code: str, version: int, eta: datetime, *, queue: str | None = None, served_after: datetime | None = None
        ) -> None:
            queued.append((version, eta, queue, served_after))

        monkeypatch.setattr(clock_service, "schedule", schedule)
        with django_capture_on_commit_callbacks(execute=True):
            assert due.due_actions_apply(code=room.code, now=T0 + 10.05 * S) is False
        room.refresh_from_db()
        # The next beat is due by 9.85 s: late by 0.2 s, so again in 0.225 s, for a beat
        # past the deadline (10 s).
        assert queued == [(room.version, T0 + 10.275 * S, "clock", T0 + 10 * S)]
        # Still none: again, without taking the room.
        clock.move_to(T0 + 10.3 * S)
        assert (
            due.due_actions_apply(code=room.code, version=room.version, now=T0 + 10.3 * S, served_after=T0 + 10 * S)
            is False
        )
        assert queued[1] == (room.version, T0 + 10.65 * S, "clock", T0 + 10 * S)
        # The beat came: the turn runs out.
        settings.GAME_TASKS_ENABLED = False
        heartbeat.beat(now=T0 + 10.4 * S)
        clock.move_to(T0 + 10.65 * S)
        assert due.due_actions_apply(code=room.code, version=room.version, now=T0 + 10.65 * S, served_after=T0 + 10 * S)
        assert Action.objects.filter(automatic=True, round__room=room).count() == 4
