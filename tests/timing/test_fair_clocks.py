"""Fair clocks, case by case: a turn is a turn (the same seat's next one included), idle
time is the player's own, the pause is no one's, and every service that changes a room
leaves its time kept. The clock is moved by the test (time_machine)."""

from __future__ import annotations

import ast
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import time_machine
from django.db import connection
from django.utils import timezone

from games import rules, selectors, store
from games.models import Action, Event, Room, RoomStatus, Round, Seat
from games.services import due, lobby, moves, play, reclaim, seeds, table_moderation

from .test_fair_clocks_property import assert_time_kept
from .test_other_games import started as start

pytestmark = pytest.mark.django_db

T0 = datetime(2032, 6, 1, 18, 0, 0, tzinfo=UTC)
SERVICES = Path(__file__).resolve().parents[2] / "games" / "services"


def hand(room: Room) -> Round:
    round_ = Round.objects.filter(room=room).order_by("-number").first()
    assert round_ is not None
    return round_


def test_the_trick_winner_who_played_its_last_card_gets_a_whole_turn_to_lead(make_user):
    """Every player lets their time run out; the server plays for them. Whenever the
    seat that played a trick's last card won it, it leads in a turn of its own: a whole
    `turn_seconds` from then, and its `your_turn` list says so."""
    with time_machine.travel(T0, tick=False) as clock:
        room, users = start(make_user, "hearts", 4, 4, turn_seconds=30, abandon_seconds=3600)
        engine = rules.get("hearts")
        leads_again = 0
        # Some hands have no such trick (about one in forty): up to four hands are played.
        for _ in range(400):
            round_ = hand(room)
            if round_.number > 4 or leads_again >= 2:
                break
            now = round_.deadline_at
            clock.move_to(now)
            acted_before = Action.objects.filter(round=round_).count()
            assert due.due_actions_apply(code=room.code, now=now)
            round_ = hand(room)
            to_act = engine.to_act(round_.state) if round_.state.get("phase") == "play" else []
            last = Action.objects.filter(round=round_).order_by("-seq").first()
            if (
                last is not None
                and to_act == [last.seat]
                and Action.objects.filter(round=round_).count() > acted_before
            ):
                leads_again += 1
                assert round_.deadline_at == now + timedelta(seconds=30)
                assert Seat.objects.get(room=room, index=last.seat).turn_since == now
                user = users[last.seat]
                [turn] = selectors.turns_of(user=user)
                assert turn["deadline"] == round_.deadline_at.isoformat().replace("+00:00", "Z")
            assert_time_kept(room.code)
        assert leads_again >= 1


def test_only_the_players_own_waiting_counts_towards_abandonment(make_user):
    """Moon, 8 s turns, 24 s of idleness. Seat 0 always plays within a second; the other
    two let their turns run out. Seat 0 is never the culprit, however long the others
    take; the match is abandoned by the first seat whose own turns in a row add up to
    24 s, at the third of them, never earlier."""
    with time_machine.travel(T0, tick=False) as clock:
        room, users = start(make_user, "moon", 3, 3, players=3, turn_seconds=8, abandon_seconds=24)
        engine = rules.get("moon")
        now = T0
        timeouts_in_a_row = {1: 0, 2: 0}
        for _ in range(200):
            room.refresh_from_db()
            if room.status != RoomStatus.PLAYING:
                break
            round_ = hand(room)
            to_act = engine.to_act(round_.state)
            if 0 in to_act and round_.state.get("phase") != "round_over":
                now += timedelta(milliseconds=700)
                clock.move_to(now)
                view = selectors.view_by_code(code=room.code, user=users[0])
                # The view says when seat 0 would be abandoned: a whole 24 s from its turn.
                turn_since = Seat.objects.get(room=room, index=0).turn_since
                assert view["abandon_deadline"] == (turn_since + timedelta(seconds=24)).isoformat().replace(
                    "+00:00", "Z"
                )
                action = engine.bot_action(round_.state, 0)
                play.action_submit(code=room.code, user=users[0], version=room.version, action=action)
                continue
            now = max(now, round_.due_at)
            clock.move_to(now)
            before = {a.pk for a in Action.objects.filter(round__room=room)}
            due.due_actions_apply(code=room.code, now=now)
            for action in Action.objects.filter(round__room=room).exclude(pk__in=before).order_by("pk"):
                if action.automatic and action.seat in timeouts_in_a_row:
                    timeouts_in_a_row[action.seat] += 1
            assert_time_kept(room.code)
        room.refresh_from_db()
        assert room.status == RoomStatus.ABANDONED
        abandoned = Event.objects.get(room=room, data__type="abandoned").data["seat"]
        assert abandoned != 0
        # Two turns in a row ran out (16 s); the third reached 24 s at its own deadline.
        assert timeouts_in_a_row[abandoned] >= 2
        # The reason speaks to its reader.
        culprit = selectors.view_by_code(code=room.code, user=users[abandoned])
        assert culprit["status_reason"] == "You did not play in time; the match was abandoned."
        other = selectors.view_by_code(code=room.code, user=users[0])
        name = users[abandoned].shown_name
        assert other["status_reason"] == f"{name} did not play in time; the match was abandoned."


def test_acting_once_starts_the_count_again(make_user):
    """Two turns run out (20 s of 25); one move of the player's own; their next turns
    count from nothing."""
    with time_machine.travel(T0, tick=False) as clock:
        room, users = start(make_user, "moon", 1, 3, players=3, turn_seconds=10, abandon_seconds=25)
        engine = rules.get("moon")
        seat = Seat.objects.get(room=room, user=users[0])
        now = T0
        for _ in range(400):
            room.refresh_from_db()
            round_ = hand(room)
            if room.status != RoomStatus.PLAYING or seat.index in engine.to_act(round_.state):
                seat.refresh_from_db()
                if seat.idle_seconds >= 20 or room.status != RoomStatus.PLAYING:
                    break
            now = max(now, round_.due_at)
            clock.move_to(now)
            due.due_actions_apply(code=room.code, now=now)
        seat.refresh_from_db()
        assert room.status == RoomStatus.PLAYING
        assert seat.idle_seconds == 20.0
        view = selectors.view_by_code(code=room.code, user=users[0])
        assert view["abandon_deadline"] == (seat.turn_since + timedelta(seconds=5)).isoformat().replace("+00:00", "Z")
        round_ = hand(room)
        play.action_submit(
            code=room.code, user=users[0], version=room.version, action=engine.bot_action(round_.state, seat.index)
        )
        seat.refresh_from_db()
        assert seat.idle_seconds == 0


def test_the_pause_between_hands_is_no_ones_time(make_user):
    """A hand ends; nobody presses "Next hand": the pause runs out, the next hand is
    dealt, nobody is said to have run out of time, and nobody's idleness grew."""
    with time_machine.travel(T0, tick=False) as clock:
        room, users = start(make_user, "hearts", 2, 4, turn_seconds=5, abandon_seconds=3600, between_rounds_seconds=7)
        engine = rules.get("hearts")
        now = T0
        for _ in range(200):
            round_ = hand(room)
            if round_.state.get("phase") == "round_over":
                break
            # The people play at once, the computer players when due.
            to_act = engine.to_act(round_.state)
            person = next((u for u in users if Seat.objects.get(room=room, user=u).index in to_act), None)
            room.refresh_from_db()
            if person is not None:
                index = Seat.objects.get(room=room, user=person).index
                action = engine.bot_action(round_.state, index)
                play.action_submit(code=room.code, user=person, version=room.version, action=action)
            else:
                now = max(now, round_.due_at)
                clock.move_to(now)
                due.due_actions_apply(code=room.code, now=now)
        round_ = hand(room)
        assert round_.state["phase"] == "round_over"
        idle = {s.index: s.idle_seconds for s in Seat.objects.filter(room=room)}
        timed_out = Event.objects.filter(room=room, data__type="timed_out").count()
        assert round_.deadline_at == now + timedelta(seconds=7) or round_.deadline_at > now
        assert selectors.view_by_code(code=room.code, user=users[0])["abandon_deadline"] is None
        now = round_.deadline_at
        clock.move_to(now)
        assert due.due_actions_apply(code=room.code, now=now)
        assert hand(room).number == round_.number + 1
        assert Event.objects.filter(room=room, data__type="timed_out").count() == timed_out
        assert {s.index: s.idle_seconds for s in Seat.objects.filter(room=room)} == idle
        assert_time_kept(room.code)


def test_every_service_that_changes_a_room_keeps_its_time(make_user, moderators_group):
    """Lobby moves, the start, moves, timeouts, a hand-over, a reclaim, a seed, forced
    plays asked for and the close: after each, the time invariant holds."""
    with time_machine.travel(T0, tick=False) as clock:
        users = [make_user() for _ in range(3)]
        options = {"turn_seconds": 20, "abandon_seconds": 40, "on_abandon": "bot"}
        room = lobby.room_create(host=users[0], game="hearts", options=options)
        code = room.code
        steps = [
            lambda: lobby.room_join(code=code, user=users[1]),
            lambda: lobby.room_join(code=code, user=users[2]),
            lambda: lobby.room_leave(code=code, user=users[2]),
            lambda: lobby.room_join(code=code, user=users[2]),
            lambda: lobby.room_add_bot(code=code, user=users[0]),
            lambda: seeds.client_seed_set(code=code, user=users[1], client_seed="mine"),
            lambda: lobby.room_start(code=code, user=users[0]),
        ]
        for step in steps:
            step()
            assert_time_kept(code)
        room.refresh_from_db()
        view = selectors.view_by_code(code=code, user=users[0])
        cards = view["you"]["legal_actions"][0]["choices"][:3]
        play.action_submit(
            code=code, user=users[0], version=room.version, action={"type": "pass_cards", "cards": cards}
        )
        assert_time_kept(code)
        # Time runs out for the others: the server passes for them; the play begins.
        now = hand(room).deadline_at
        clock.move_to(now)
        assert due.due_actions_apply(code=code, now=now)
        assert_time_kept(code)
        # Seat 1 sleeps past 40 s of its own: a computer player takes it, then it comes back.
        for _ in range(20):
            if Seat.objects.get(room=room, index=1).is_bot:
                break
            now = max(now, hand(room).due_at)
            clock.move_to(now)
            due.due_actions_apply(code=code, now=now)
            assert_time_kept(code)
        assert Seat.objects.get(room=room, index=1).is_bot
        reclaim.seat_reclaim(code=code, user=users[1])
        assert_time_kept(code)
        users[2].auto_play_forced = True
        users[2].save(update_fields=["auto_play_forced"])
        play.forced_plays_make(user=users[2])
        assert_time_kept(code)
        table_moderation.seat_give_to_bot(code=code, index=2, reason="a test")
        assert_time_kept(code)
        table_moderation.room_close(code=code, reason="a test")
        assert_time_kept(code)
        assert not Seat.objects.filter(room=room, turn_since__isnull=False).exists()
        assert hand(room).due_at is None


def test_no_service_locks_a_room_but_through_the_timekeeper():
    """One place keeps time: a service that locked a room itself could leave its clock
    unplanned or its turns unmarked."""
    offenders = []
    for path in SERVICES.glob("*.py"):
        if path.name == "timekeeper.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr == "locked":
                offenders.append(f"{path.name}:{node.lineno}")
            if (
                isinstance(node, ast.Attribute)
                and node.attr in {"plan", "write"}
                and ast.unparse(node.value)
                in {
                    "clock",
                    "timing",
                }
            ):
                offenders.append(f"{path.name}:{node.lineno} {ast.unparse(node)}")
    assert offenders == []


@pytest.mark.django_db(transaction=True)
def test_a_task_that_waited_for_the_lock_starts_the_next_turn_after_its_own_action(make_user):
    """The server's action is taken once the room's lock is held, and the next turn
    starts then: not when the task began waiting, which would shorten that turn by the
    wait (seen as timeouts 0.35 s early under load)."""
    room, _ = start(make_user, "moon", 3, 3, players=3, turn_seconds=30, abandon_seconds=600)
    past = timezone.now() - timedelta(seconds=1)
    Round.objects.filter(room=room).update(deadline_at=past, due_at=past)
    holding, release = threading.Event(), threading.Event()
    released: list[datetime] = []

    def hold() -> None:
        try:
            with store.locked(room.code):
                holding.set()
                release.wait(10)
                released.append(timezone.now())
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    assert holding.wait(10)
    threading.Timer(0.5, release.set).start()
    assert due.due_actions_apply(code=room.code) is True  # waits for the lock
    holder.join(10)
    round_ = hand(room)
    [action] = Action.objects.filter(round=round_, automatic=True)
    assert action.created_at >= released[0]
    assert round_.deadline_at - timedelta(seconds=30) >= released[0]


def test_a_turn_begins_when_the_change_that_begins_it_ends(make_user, monkeypatch):
    """However long a change takes under its lock (a loop of the server's actions on a
    loaded machine), the turns it begins start as it ends: its processing is no one's
    waiting. And a move's answer shows the very deadline that is kept."""
    with time_machine.travel(T0, tick=False) as clock:
        room, users = start(make_user, "moon", 3, 3, players=3, turn_seconds=30, abandon_seconds=600)
        engine = rules.get("moon")
        applying = moves.step

        def slowly(*args, **kwargs):
            applying(*args, **kwargs)
            clock.shift(timedelta(seconds=3))  # each action takes 3 s to process

        monkeypatch.setattr(moves, "step", slowly)
        clock.move_to(T0 + timedelta(seconds=30))
        assert due.due_actions_apply(code=room.code) is True  # the clock as its lock is taken
        round_ = hand(room)
        [waiting] = engine.to_act(round_.state)
        assert Seat.objects.get(room=room, index=waiting).turn_since == T0 + timedelta(seconds=33)
        assert round_.deadline_at == T0 + timedelta(seconds=63)
        monkeypatch.setattr(moves, "step", applying)
        # A person's move: the answer's deadline is the one stored and told.
        clock.shift(timedelta(seconds=1))
        room.refresh_from_db()
        user = next(u for u in users if Seat.objects.get(room=room, user=u).index == waiting)
        action = engine.bot_action(round_.state, waiting)
        answer = play.action_submit(code=room.code, user=user, version=room.version, action=action).view
        assert answer["deadline"] == selectors.view_by_code(code=room.code, user=user)["deadline"]
        assert answer["deadline"] == "2032-06-01T18:01:04Z"  # 34 s in, and a whole 30 s turn
