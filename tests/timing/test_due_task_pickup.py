"""The beat pickup: rounds due beyond the task horizon (a table on a one-day clock) get
their task once their due time comes within it; each due time and version once, also
when two pickups or a pickup and a move meet."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import connection, transaction

from games import rules
from games.models import Action, Event, Room, Round
from games.services import clock, play
from games.services import due as due_

pytestmark = pytest.mark.django_db

DAY = 86400
HORIZON = timedelta(seconds=300)


@pytest.fixture
def sent(settings, monkeypatch) -> list[tuple[str, int, datetime]]:
    """What is handed to the broker, as (room code, version, ETA)."""
    settings.GAME_TASKS_ENABLED = True
    settings.GAME_TASK_HORIZON_SECONDS = int(HORIZON.total_seconds())
    queued: list[tuple[str, int, datetime]] = []
    monkeypatch.setattr(clock, "schedule", lambda code, version, eta, **_: queued.append((code, version, eta)))
    return queued


@pytest.fixture
def pickup(django_capture_on_commit_callbacks) -> Callable[[datetime], int]:
    def run(now: datetime) -> int:
        # Its tasks leave once its transactions commit: inside the test's own transaction
        # that is never, so the callbacks are run here.
        with django_capture_on_commit_callbacks(execute=True):
            return clock.due_tasks_queue(now=now)

    return run


def current(room: Room) -> Round:
    room.refresh_from_db()
    found = Round.objects.filter(room=room).order_by("-number").first()
    assert found is not None
    return found


def slow(table, seconds: int = DAY) -> tuple[Room, list[Any]]:
    return table(turn_seconds=seconds, abandon_seconds=3 * seconds)


def pass_cards(room: Room, user: Any, seat: int) -> None:
    room.refresh_from_db()
    action = rules.get("hearts").bot_action(current(room).state, seat)
    play.action_submit(code=room.code, user=user, version=room.version, action=action)


def test_a_change_queues_a_task_only_within_the_horizon_and_notes_its_due_time(
    table, sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        live, _ = table(turn_seconds=60)
        day, _ = slow(table)
    round_ = current(live)
    assert sent == [(live.code, live.version, round_.due_at)]
    assert round_.task_due_at == round_.due_at
    # One move a day: no task yet, and none noted.
    round_ = current(day)
    assert round_.due_at is not None and round_.task_due_at is None


def test_the_pickup_queues_each_round_as_its_due_time_comes_within_the_horizon_once(table, sent, pickup):
    live, _ = table(turn_seconds=60)
    day, _ = slow(table)
    hours, _ = slow(table, 2 * 3600)
    sent.clear()  # the live table's own task
    due_hours, due_day = current(hours).due_at, current(day).due_at
    assert pickup(due_hours - HORIZON - timedelta(seconds=1)) == 0
    assert pickup(due_hours - HORIZON + timedelta(seconds=1)) == 1
    assert sent == [(hours.code, hours.version, due_hours)]
    assert current(hours).task_due_at == due_hours
    assert pickup(due_hours - HORIZON + timedelta(seconds=2)) == 0
    assert pickup(due_hours) == 0
    # A round already overdue with no task queued gets one at once (its ETA has passed);
    # the live table, long overdue by now, has its task from its own change.
    assert pickup(due_day + timedelta(seconds=10)) == 1
    assert sent[1:] == [(day.code, day.version, due_day)]
    assert pickup(due_day + timedelta(days=1)) == 0
    assert live.code not in {code for code, _, _ in sent}


def test_the_pickup_works_in_batches(table, sent, pickup, monkeypatch):
    monkeypatch.setattr(clock, "PICKUP_BATCH", 2)
    rooms = [slow(table)[0] for _ in range(5)]
    latest = max(current(room).due_at for room in rooms)
    assert pickup(latest) == 5
    assert sorted(code for code, _, _ in sent) == sorted(room.code for room in rooms)
    assert pickup(latest) == 0


def test_with_tasks_off_the_pickup_queues_nothing(table, sent, pickup, settings):
    settings.GAME_TASKS_ENABLED = False
    room, _ = slow(table)
    assert pickup(current(room).due_at) == 0
    assert sent == [] and current(room).task_due_at is None


def test_a_move_after_the_pickup_leaves_its_task_stale_and_the_next_is_queued_for_its_version(
    table, sent, pickup, django_capture_on_commit_callbacks
):
    room, users = slow(table)
    due = current(room).due_at
    first = room.version
    assert pickup(due - HORIZON / 2) == 1
    # A pass keeps the phase's deadline, but moves the version on: the queued task is
    # stale now, so the round no longer counts as having one.
    with django_capture_on_commit_callbacks(execute=True):
        pass_cards(room, users[0], 0)
    round_ = current(room)
    assert (round_.due_at, round_.task_due_at, room.version) == (due, None, first + 1)
    assert pickup(due - HORIZON / 2) == 1
    assert sent == [(room.code, first, due), (room.code, first + 1, due)]
    # At the due time the stale task does nothing, the current one acts, and a
    # duplicate of it (Redis delivering it again) does nothing.
    assert due_.due_actions_apply(code=room.code, version=first, now=due) is False
    assert due_.due_actions_apply(code=room.code, version=first + 1, now=due) is True
    assert due_.due_actions_apply(code=room.code, version=first + 1, now=due + timedelta(seconds=1)) is False
    assert Action.objects.filter(round=round_, automatic=True).count() == 3
    assert Event.objects.filter(room=room, data__type="timed_out").count() == 3


def in_thread(work: Callable[[], Any]) -> threading.Thread:
    """`work` on its own database connection, as another process would do it."""

    def run() -> None:
        try:
            work()
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def wait_for_a_lock_wait() -> bool:
    """Whether some statement is queued behind a lock (within a few seconds)."""
    for _ in range(100):
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
            if cursor.fetchone()[0] > 0:
                return True
        threading.Event().wait(0.05)
    return False


@pytest.mark.django_db(transaction=True)
def test_two_pickups_at_once_claim_each_round_once_and_neither_waits(table, sent):
    rooms = [slow(table)[0] for _ in range(3)]
    until = max(current(room).due_at for room in rooms)
    holding, release, claimed = threading.Event(), threading.Event(), {}

    def first() -> None:
        with transaction.atomic():
            claimed["first"] = clock.due_tasks_claim(until=until, limit=10)[0]
            holding.set()
            release.wait(10)

    def second() -> None:
        claimed["second"] = clock.due_tasks_queue(now=until - HORIZON)

    one = in_thread(first)
    assert holding.wait(10)
    two = in_thread(second)
    two.join(10)
    # It passed over the rooms the first holds instead of queueing behind their locks.
    assert not two.is_alive() and one.is_alive()
    release.set()
    one.join(10)
    assert claimed["second"] == 0
    assert sorted(code for code, _, _ in claimed["first"]) == sorted(room.code for room in rooms)
    assert clock.due_tasks_queue(now=until - HORIZON) == 0
    assert all(current(room).task_due_at == current(room).due_at for room in rooms)


@pytest.mark.django_db(transaction=True)
def test_a_pickup_passes_over_a_room_a_move_holds_and_the_move_decides(table, sent, monkeypatch):
    room, users = slow(table)
    due, first = current(room).due_at, room.version
    holding, release = threading.Event(), threading.Event()
    real_plan = clock.write

    def plan_slowly(*args: Any, **kwargs: Any) -> None:
        holding.set()
        release.wait(10)
        real_plan(*args, **kwargs)

    monkeypatch.setattr(clock, "write", plan_slowly)
    move = in_thread(lambda: pass_cards(room, users[0], 0))
    assert holding.wait(10)
    picked: dict[str, int] = {}
    pickup = in_thread(lambda: picked.update(queued=clock.due_tasks_queue(now=due - HORIZON / 2)))
    pickup.join(10)
    assert not pickup.is_alive() and picked["queued"] == 0  # the room is locked: passed over
    release.set()
    move.join(10)
    monkeypatch.setattr(clock, "write", real_plan)
    round_ = current(room)
    assert (room.version, round_.task_due_at) == (first + 1, None)  # a day away: no task yet
    assert clock.due_tasks_queue(now=due - HORIZON / 2) == 1
    assert sent == [(room.code, first + 1, due)]


@pytest.mark.django_db(transaction=True)
def test_a_move_that_waited_for_a_pickups_lock_writes_its_own_due_time_and_task(table, sent):
    """The pickup locks the room but does not change its row: a move that waited for it
    reads the hand as it was before the pickup's claim, and must not keep that claim."""
    room, users = slow(table)
    due, first = current(room).due_at, room.version
    with transaction.atomic():
        claimed, _ = clock.due_tasks_claim(until=due, limit=10)
        move = in_thread(lambda: pass_cards(room, users[0], 0))
        assert wait_for_a_lock_wait()
    move.join(10)
    assert claimed == [(room.code, first, due)]
    round_ = current(room)
    assert (room.version, round_.due_at, round_.task_due_at) == (first + 1, due, None)
    assert clock.due_tasks_queue(now=due - HORIZON / 2) == 1
    assert sent == [(room.code, first + 1, due)]
    assert due_.due_actions_apply(code=room.code, version=first, now=due) is False
    assert due_.due_actions_apply(code=room.code, version=first + 1, now=due) is True
    assert Action.objects.filter(round=round_, automatic=True).count() == 3


def test_the_horizon_is_held_below_the_visibility_timeout_and_the_pickup_below_the_horizon():
    from django.conf import settings

    assert settings.GAME_TASK_PICKUP_SECONDS < settings.GAME_TASK_HORIZON_SECONDS
    # A horizon set past half the visibility timeout is held to it.
    env = {**os.environ, "GAME_TASK_HORIZON_SECONDS": "100000", "CELERY_VISIBILITY_TIMEOUT": "120"}
    code = (
        "import django; django.setup(); from django.conf import settings as s;"
        "print(s.GAME_TASK_HORIZON_SECONDS, s.GAME_TASK_PICKUP_SECONDS)"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["60", "12.0"]
