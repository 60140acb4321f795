"""Deadlines, automatic actions, abandonment and the pause between hands, with the
clock injected into the services."""

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from core.errors import ServiceError
from games import rules, selectors
from games.models import Action, Event, Room, Round
from games.rules import templates
from games.services import clock, due, play

pytestmark = pytest.mark.django_db


def current(room: Room):
    room.refresh_from_db()
    return selectors.table_of(code=room.code).round


def submit(room, user, action):
    room.refresh_from_db()
    return play.action_submit(code=room.code, user=user, version=room.version, action=action)


def first_legal(room, user):
    view = selectors.view_by_code(code=room.code, user=user)
    template = view["you"]["legal_actions"][0]
    return templates.concrete(template, rules.get(view["game"]).action_fields[template["type"]])


def test_deadline_is_in_the_view_and_follows_turn_seconds(table):
    room, users = table(turn_seconds=90)
    round_ = current(room)
    assert round_.deadline_at is not None
    assert timedelta(seconds=89) < round_.deadline_at - round_.started_at < timedelta(seconds=91)
    view = selectors.view_by_code(code=room.code, user=users[0])
    assert view["deadline"] == round_.deadline_at.isoformat().replace("+00:00", "Z")


def test_nothing_happens_before_the_deadline_or_for_a_stale_version(table):
    room, _ = table()
    round_ = current(room)
    assert (
        due.due_actions_apply(code=room.code, version=room.version, now=round_.deadline_at - timedelta(seconds=1))
        is False
    )
    assert (
        due.due_actions_apply(code=room.code, version=room.version - 1, now=round_.deadline_at + timedelta(hours=1))
        is False
    )
    assert Action.objects.filter(round=round_).count() == 0


def test_pass_timeout_acts_for_every_player_who_has_not_passed(table):
    room, users = table()
    submit(room, users[0], first_legal(room, users[0]))
    round_ = current(room)
    deadline = round_.deadline_at
    assert due.due_actions_apply(code=room.code, version=room.version, now=deadline + timedelta(seconds=1)) is True
    actions = list(Action.objects.filter(round=round_).order_by("seq"))
    assert [(a.seat, a.automatic) for a in actions] == [(0, False), (1, True), (2, True), (3, True)]
    assert all(a.payload["type"] == "pass_cards" for a in actions)
    round_ = current(room)
    assert round_.state["phase"] == "play"
    timed_out = Event.objects.filter(room=room, data__type="timed_out").values_list("data__seat", flat=True)
    assert sorted(timed_out) == [1, 2, 3]
    # The player to lead gets a fresh turn.
    assert round_.deadline_at == deadline + timedelta(seconds=1) + timedelta(seconds=60)


def test_play_timeout_plays_a_legal_card_and_starts_the_next_clock(table):
    room, users = table(fourth_hand="hold")
    for user in users:
        submit(room, user, first_legal(room, user))
    round_ = current(room)
    leader = rules.get("hearts").to_act(round_.state)[0]
    later = round_.deadline_at + timedelta(seconds=5)
    assert due.due_actions_apply(code=room.code, version=room.version, now=later)
    round_ = current(room)
    last = Action.objects.filter(round=round_).order_by("-seq").first()
    assert (last.seat, last.automatic, last.payload) == (leader, True, {"type": "play", "card": "2C"})
    assert rules.get("hearts").to_act(round_.state) == [(leader + 1) % 4]
    assert round_.deadline_at == later + timedelta(seconds=60)


def test_idle_player_abandons_the_match(table):
    room, users = table(turn_seconds=60, abandon_seconds=150)
    round_ = current(room)
    start = room.started_at
    t = start + timedelta(seconds=61)
    assert due.due_actions_apply(code=room.code, version=room.version, now=t)  # automatic passes
    room.refresh_from_db()
    assert room.status == "playing"
    round_ = current(room)
    # Keep timing out the players to act until someone's idleness passes 150 s.
    for _ in range(10):
        t = max(t, round_.due_at)
        due.due_actions_apply(code=room.code, version=room.version, now=t)
        room.refresh_from_db()
        if room.status != "playing":
            break
        round_ = current(room)
    assert room.status == "abandoned"
    idle = next(
        s for s in room.seats.all() if s.index == Event.objects.get(room=room, data__type="abandoned").data["seat"]
    )
    assert room.status_reason.startswith(f"{idle.user.shown_name} did not play in time")
    assert t >= start + timedelta(seconds=150)
    assert Event.objects.filter(room=room, data__type="abandoned").exists()
    view = selectors.view_by_code(code=room.code, user=users[1])
    assert view["status"] == "abandoned" and view["to_act"] == [] and view["you"]["legal_actions"] == []
    with pytest.raises(ServiceError) as err:
        play.action_submit(code=room.code, user=users[0], version=room.version, action={"type": "next_round"})
    assert err.value.code == "room_closed"
    # Nothing more is due in an abandoned room.
    assert selectors.rooms_overdue(now=t + timedelta(days=1)) == []


def test_own_actions_keep_a_player_from_abandoning(table):
    room, users = table(turn_seconds=60, abandon_seconds=100)
    submit(room, users[1], first_legal(room, users[1]))
    seat1 = room.seats.get(index=1)
    assert seat1.last_acted_at is not None
    # Automatic actions do not refresh idleness: seats 0, 2, 3 pass automatically at +61.
    t = room.started_at + timedelta(seconds=61)
    assert due.due_actions_apply(code=room.code, version=None, now=t)
    assert room.seats.get(index=0).last_acted_at is None


def play_hand_to_round_over(room, users):
    game = rules.get("hearts")
    for _ in range(200):
        round_ = current(room)
        if round_.state["phase"] != "pass" and round_.state["phase"] != "play":
            return round_
        seat = game.to_act(round_.state)[0]
        submit(room, users[seat], game.bot_action(round_.state, seat))
    raise AssertionError("hand did not end")


def test_next_hand_starts_when_everyone_is_ready(table):
    room, users = table()
    round_ = play_hand_to_round_over(room, users)
    assert round_.state["phase"] == "round_over"
    for user in users:
        submit(room, user, {"type": "next_round"})
    assert current(room).number == 2


def test_next_hand_starts_when_the_pause_runs_out(table):
    room, users = table(between_rounds_seconds=30)
    round_ = play_hand_to_round_over(room, users)
    submit(room, users[2], {"type": "next_round"})
    round_ = current(room)
    assert round_.deadline_at is not None
    assert not due.due_actions_apply(
        code=room.code, version=room.version, now=round_.deadline_at - timedelta(seconds=1)
    )
    assert due.due_actions_apply(code=room.code, version=room.version, now=round_.deadline_at)
    new = current(room)
    assert new.number == 2
    readies = Action.objects.filter(round=round_, payload__type="next_round")
    assert sorted((a.seat, a.automatic) for a in readies) == [(0, True), (1, True), (2, False), (3, True)]


@override_settings(BOT_DELAY_SECONDS=2)
def test_bots_move_through_the_due_time_after_their_delay(table):
    room, _ = table(humans=1)
    round_ = current(room)
    # The bots have not passed yet: they move after their delay, not inside the request.
    assert sorted(rules.get("hearts").to_act(round_.state)) == [0, 1, 2, 3]
    assert round_.bots_due_at is not None and round_.due_at == round_.bots_due_at
    assert due.due_actions_apply(code=room.code, version=room.version, now=round_.bots_due_at)
    round_ = current(room)
    assert rules.get("hearts").to_act(round_.state) == [0]
    assert Action.objects.filter(round=round_, by_bot=True).count() == 3


def test_sweeper_handles_overdue_rounds_once(table):
    room, _ = table()
    round_ = current(room)
    later = round_.deadline_at + timedelta(seconds=1)
    assert selectors.rooms_overdue(now=later) == [room.code]
    assert due.overdue_sweep(now=later) == 1
    count = Action.objects.filter(round=round_).count()
    assert count == 4
    assert due.overdue_sweep(now=later) == 0
    assert Action.objects.filter(round=round_).count() == count


def test_moon_choice_timeout_lets_the_computer_choose_for_the_shooter(table):
    from tests.rules.test_hearts_options import _moon_hand

    room, _ = table(moon="shooter_choice")
    round_ = current(room)
    round_.state = _moon_hand({"moon": "shooter_choice"})
    round_.save(update_fields=["state"])
    assert rules.get("hearts").to_act(round_.state) == [0]
    assert due.due_actions_apply(code=room.code, version=None, now=round_.deadline_at + timedelta(seconds=1))
    last = Action.objects.filter(round=round_).order_by("-seq").first()
    assert (last.seat, last.automatic, last.payload["type"]) == (0, True, "moon_choice")
    assert current(room).state["phase"] == "round_over"


def test_timing_options_are_validated_and_in_the_catalogue(api_client, make_user):
    catalogue = {g["key"]: g for g in api_client().get("/api/v1/games/").json()}
    turn = catalogue["hearts"]["options"]["turn_seconds"]
    assert (turn["default"], turn["minimum"], turn["maximum"]) == (60, 5, 7 * 24 * 3600)
    assert catalogue["hearts"]["options"]["between_rounds_seconds"]["default"] == 20
    client = api_client(make_user())
    for options, attr in (
        ({"turn_seconds": 4}, "turn_seconds"),
        ({"abandon_seconds": 8 * 24 * 3600}, "abandon_seconds"),
        ({"turn_seconds": 600, "abandon_seconds": 300}, "abandon_seconds"),
    ):
        res = client.post("/api/v1/rooms/", {"game": "hearts", "options": options}, format="json")
        assert res.status_code == 400 and res.json()["errors"][0]["attr"] == attr
    res = client.post(
        "/api/v1/rooms/",
        {"game": "hearts", "options": {"turn_seconds": 86400, "abandon_seconds": 604800}},
        format="json",
    )
    assert res.status_code == 201 and res.json()["options"]["turn_seconds"] == 86400


@override_settings(GAME_TASKS_ENABLED=True)
def test_tasks_are_scheduled_only_for_due_times_the_broker_can_hold(
    table, monkeypatch, django_capture_on_commit_callbacks
):
    scheduled = []
    monkeypatch.setattr(clock, "schedule", lambda *args, **_: scheduled.append(args))
    with django_capture_on_commit_callbacks(execute=True):
        live, _ = table()
    assert [version for _, version, _ in scheduled] == [live.version]
    scheduled.clear()
    # One move a day: a task would wait past the broker's visibility timeout and be
    # handed out again and again; beat's pickup queues it once it comes within the
    # horizon (test_due_task_pickup.py), and the sweeper takes the round when it is due.
    with django_capture_on_commit_callbacks(execute=True):
        slow, _ = table(turn_seconds=86400, abandon_seconds=3 * 86400)
    assert scheduled == []
    round_ = current(slow)
    assert slow.code not in selectors.rooms_overdue(now=round_.deadline_at - timedelta(seconds=1))
    assert slow.code in selectors.rooms_overdue(now=round_.deadline_at)
    due.overdue_sweep(now=round_.deadline_at)
    assert Action.objects.filter(round=round_, automatic=True).count() == 4


def test_the_horizon_stays_below_the_visibility_timeout():
    from django.conf import settings

    from config.celery import app

    visibility = app.conf.broker_transport_options["visibility_timeout"]
    assert visibility == settings.CELERY_VISIBILITY_TIMEOUT < 3600
    assert settings.GAME_TASK_HORIZON_SECONDS < visibility


def test_a_task_delivered_again_an_hour_later_changes_nothing(table):
    # After a worker dies, Redis hands its reserved tasks out again a visibility
    # timeout later, when the sweeper has long done their work.
    room, _ = table()
    round_ = current(room)
    task = {"code": room.code, "version": room.version}
    assert due.due_actions_apply(**task, now=round_.deadline_at)
    room.refresh_from_db()
    snapshot = (room.version, Action.objects.count(), Event.objects.count(), current(room).state)
    for late in (timedelta(seconds=1), timedelta(minutes=10), timedelta(hours=1)):
        assert due.due_actions_apply(**task, now=round_.deadline_at + late) is False
    room.refresh_from_db()
    assert (room.version, Action.objects.count(), Event.objects.count(), current(room).state) == snapshot


def test_a_table_that_fails_does_not_hold_up_the_sweep(table, monkeypatch):
    first, _ = table()
    second, _ = table()
    later = current(second).deadline_at + timedelta(seconds=1)
    real = due._act_when_due

    def failing_for_the_first(table, **kwargs):
        if table.room.code == first.code:
            raise RuntimeError("a bug in one room")
        return real(table, **kwargs)

    monkeypatch.setattr(due, "_act_when_due", failing_for_the_first)
    assert due.overdue_sweep(now=later) == 1
    assert Action.objects.filter(round__room=second, automatic=True).exists()
    assert not Action.objects.filter(round__room=first, automatic=True).exists()


def test_a_task_for_a_room_that_is_gone_or_queued_by_round_does_its_work(table):
    from games import tasks

    assert due.due_actions_apply(code="ZZZZZZ", now=timezone.now()) is False
    room, _ = table()
    round_ = current(room)
    # A task queued before the rename names the round.
    assert tasks.round_due(round_.id, room.version) is False  # nothing is due yet
    assert tasks.round_due(10**9, room.version) is False  # no such round
    past = timezone.now() - timedelta(seconds=1)
    Round.objects.filter(pk=round_.id).update(deadline_at=past, due_at=past)
    assert tasks.round_due(round_.id, room.version) is True
    assert Action.objects.filter(round=round_, automatic=True).count() == 4
