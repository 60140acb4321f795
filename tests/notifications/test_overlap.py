"""Scans and deliveries that overlap, each on its own connection to PostgreSQL, as two
beat runs or two workers would: nothing is sent twice."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

import pytest
from django.db import connection, transaction

from games.models import Room
from notifications import selectors
from notifications.models import TurnNotice, TurnReminder
from notifications.services import claims, reminders, turns

from .conftest import after_wait, start_room, subscribe
from .test_reminders import DAY, HOUR, REMINDER, deadline_of

pytestmark = pytest.mark.django_db(transaction=True)


def in_thread(work: Callable[[], Any]) -> Callable[[], Any]:
    def run() -> Any:
        try:
            return work()
        finally:
            connection.close()

    return run


def scans_and_deliveries_at_once(players: list[Any], now: datetime, claim: Any) -> list[int]:
    """Two scans that each deliver what they claimed, and a worker delivering to every
    player (a task that came back), all at once; what each pushed."""
    start = threading.Barrier(4)

    def scan_and_deliver() -> int:
        start.wait(10)
        sent = 0
        for user_id in claim(now=now):
            sent += turns.turn_notice_delivered(user_id=user_id, now=now).pushed
        return sent

    def deliver_everyone() -> int:
        start.wait(10)
        return sum(turns.turn_notice_delivered(user_id=p.pk, now=now).pushed for p in players)

    with ThreadPoolExecutor(4) as pool:
        runs = [pool.submit(in_thread(work)) for work in (scan_and_deliver, scan_and_deliver, deliver_everyone)]
        start.wait(10)
        return [run.result(30) for run in runs]


def test_a_scan_waits_for_the_claims_of_one_under_way_and_claims_nothing_twice(push_on, push_service, make_user):
    players = [make_user() for _ in range(3)]
    for player in players:
        start_room(player)
        subscribe(player, push_service, f"/push/{player.pk}")
    now = after_wait()
    claimed = threading.Event()
    release = threading.Event()

    def first() -> list[int]:
        # A scan that has claimed and not yet committed.
        with transaction.atomic():
            seats = selectors.seats_waiting(waited_before=now, present_after=now, after=None, limit=claims.BATCH)
            mine = claims.claim(TurnNotice, seats, now)
            claimed.set()
            assert release.wait(10)
        return sorted({user_id for user_id, _ in mine})

    with ThreadPoolExecutor(2) as pool:
        a = pool.submit(in_thread(first))
        assert claimed.wait(10)
        b = pool.submit(in_thread(lambda: turns.waiting_turns_claim(now=now)))
        # The second scan read the same seats and now waits on the first one's rows.
        assert not b.done() and not _finishes(b, 0.5)
        release.set()
        assert a.result(10) == sorted(p.pk for p in players)
        assert b.result(10) == []
    assert TurnNotice.objects.count() == 3

    deliveries = [turns.turn_notice_delivered(user_id=p.pk, now=now) for p in players]
    assert [d.pushed for d in deliveries] == [1, 1, 1]
    assert turns.waiting_turns_claim(now=now) == []
    assert all(len(push_service.at(f"/push/{p.pk}")) == 1 for p in players)


def _finishes(future: Any, seconds: float) -> bool:
    try:
        future.result(seconds)
    except TimeoutError:
        return False
    return True


def test_scans_and_deliveries_at_once_send_each_notice_once(push_on, push_service, make_user):
    players = [make_user() for _ in range(6)]
    rooms, browsers = {}, {}
    for player in players:
        rooms[player.pk] = sorted([start_room(player).code, start_room(player).code])
        browsers[player.pk] = subscribe(player, push_service, f"/push/{player.pk}")
    now = after_wait()
    sent = scans_and_deliveries_at_once(players, now, turns.waiting_turns_claim)

    # Every player's two rooms were told once each (here in one digest: a scan claims
    # both in one statement).
    assert sum(sent) == len(push_service.received)
    for player in players:
        messages = push_service.at(f"/push/{player.pk}")
        told = sorted(code for m in messages for code in browsers[player.pk].decrypt(m)["rooms"])
        assert told == rooms[player.pk]
    assert TurnNotice.objects.count() == 12
    assert not TurnNotice.objects.filter(sent_at__isnull=True).exists()
    # Told is told: another scan finds nothing.
    assert turns.waiting_turns_claim(now=now) == []


def test_a_delivery_waits_for_the_claims_another_one_is_taking_and_sends_none_of_them(push_on, push_service, make_user):
    player = make_user()
    start_room(player)
    subscribe(player, push_service, "/push/taking")
    now = after_wait()
    assert turns.waiting_turns_claim(now=now) == [player.pk]
    taken = threading.Event()
    release = threading.Event()

    def first() -> dict:
        # A delivery that took the claims and has not committed yet.
        with transaction.atomic():
            mine = claims.take(TurnNotice, player.pk, now)
            taken.set()
            assert release.wait(10)
        return mine

    with ThreadPoolExecutor(2) as pool:
        a = pool.submit(in_thread(first))
        assert taken.wait(10)
        b = pool.submit(in_thread(lambda: turns.turn_notice_delivered(user_id=player.pk, now=now)))
        assert not _finishes(b, 0.5)
        release.set()
        assert len(a.result(10)) == 1
        # Once the first one committed, the claim reads as sent: the second sends nothing.
        assert b.result(10).notice is None
    assert push_service.received == []


def test_a_delivery_waits_for_a_scan_that_only_looked_at_its_claims(push_on, push_service, make_user):
    """A scan's upsert that finds a claim already at its wait changes nothing, but holds
    the row until that scan commits: the delivery waits for it rather than pass the claim
    by (then nobody would send it)."""
    player = make_user()
    start_room(player)
    subscribe(player, push_service, "/push/looked")
    now = after_wait()
    seats = selectors.seats_waiting(waited_before=now, present_after=now, after=None, limit=claims.BATCH)
    assert turns.waiting_turns_claim(now=now) == [player.pk]
    looked = threading.Event()
    release = threading.Event()

    def second_scan() -> list:
        with transaction.atomic():
            claimed = claims.claim(TurnNotice, seats, now)
            looked.set()
            assert release.wait(10)
        return claimed

    with ThreadPoolExecutor(2) as pool:
        scan = pool.submit(in_thread(second_scan))
        assert looked.wait(10)
        delivery = pool.submit(in_thread(lambda: turns.turn_notice_delivered(user_id=player.pk, now=now)))
        assert not _finishes(delivery, 0.5)
        release.set()
        assert scan.result(10) == []
        assert delivery.result(10).pushed == 1
    assert len(push_service.at("/push/looked")) == 1


def _told_of_the_turn(players: list[Any]) -> datetime:
    """Each player's first notice sent; the moment an hour before the soonest deadline."""
    now = after_wait()
    for user_id in turns.notices_claim(now=now):
        assert turns.turn_notice_delivered(user_id=user_id, now=now).pushed >= 1
    return min(deadline_of(p, room) for p in players for room in _rooms_of(p)) - HOUR


def _rooms_of(player: Any) -> list[Room]:
    return list(Room.objects.filter(seats__user=player))


def test_two_reminder_scans_at_once_claim_one_reminder(push_on, push_service, make_user):
    player = make_user()
    start_room(player, turn_seconds=DAY, abandon_seconds=2 * DAY)
    browser = subscribe(player, push_service, "/push/reminded")
    now = _told_of_the_turn([player])
    claimed = threading.Event()
    release = threading.Event()

    def first() -> list[int]:
        # A scan that has claimed the reminder and not yet committed.
        with transaction.atomic():
            mine = reminders.reminders_claim(now=now)
            claimed.set()
            assert release.wait(10)
        return mine

    with ThreadPoolExecutor(2) as pool:
        a = pool.submit(in_thread(first))
        assert claimed.wait(10)
        b = pool.submit(in_thread(lambda: turns.notices_claim(now=now)))
        # The second scan found the same turn due and waits on the first one's row.
        assert not _finishes(b, 0.5)
        release.set()
        assert a.result(10) == [player.pk]
        assert b.result(10) == []

    assert turns.turn_notice_delivered(user_id=player.pk, now=now).pushed == 1
    assert turns.notices_claim(now=now) == []
    assert turns.turn_notice_delivered(user_id=player.pk, now=now).notice is None
    titles = [browser.decrypt(m)["title"] for m in push_service.at("/push/reminded")]
    assert titles == ["Your turn", REMINDER]


def test_scans_and_deliveries_at_once_send_each_reminder_once(push_on, push_service, make_user):
    players = [make_user() for _ in range(6)]
    rooms, browsers = {}, {}
    for player in players:
        made = [start_room(player, turn_seconds=DAY, abandon_seconds=2 * DAY) for _ in range(2)]
        rooms[player.pk] = sorted(room.code for room in made)
        browsers[player.pk] = subscribe(player, push_service, f"/push/{player.pk}")
    now = _told_of_the_turn(players)
    told = len(push_service.received)
    sent = scans_and_deliveries_at_once(players, now, turns.notices_claim)

    assert sum(sent) == len(push_service.received) - told
    for player in players:
        payloads = [browsers[player.pk].decrypt(m) for m in push_service.at(f"/push/{player.pk}")]
        reminded = sorted(code for p in payloads if p["title"].startswith(REMINDER) for code in p["rooms"])
        assert reminded == rooms[player.pk]
    assert TurnReminder.objects.count() == 12
    assert not TurnReminder.objects.filter(sent_at__isnull=True).exists()
    assert turns.notices_claim(now=now) == []
