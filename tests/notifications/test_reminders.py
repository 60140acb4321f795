"""Reminders before a long turn clock runs out, end to end in one process: real matches
through the services, beat's scan and the deliveries at chosen moments (`now=`, never a
sleep), pywebpush's real requests to the push service on 127.0.0.1 and e-mail through
Django's test mailbox."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.utils.dateparse import parse_datetime

from games import selectors as game_selectors
from games.models import Room
from notifications.content import time_left
from notifications.models import TurnNotice, TurnReminder
from notifications.services import preferences, presence
from tests.game_params import game_params

from .conftest import BASE_URL, after_wait, confirm_email, start_room, subscribe, waiting_since
from .play import act_and_wait_again, act_once, state_of
from .test_turn_notices import CARD_OR_TILE, NOTICE_KEYS

pytestmark = pytest.mark.django_db

DAY = 24 * 3600
HOUR = timedelta(hours=1)
MINUTE = timedelta(minutes=1)
REMINDER = "Time is running out"
# No summer time there: a quiet period set from a moment's wall-clock time stays put.
TOKYO = ZoneInfo("Asia/Tokyo")


def day_clock(player, game: str = "hearts", **options) -> Room:
    return start_room(player, game, turn_seconds=DAY, abandon_seconds=2 * DAY, **options)


def deadline_of(player, room: Room) -> datetime:
    [turn] = [t for t in game_selectors.turns_of(user=player) if t["code"] == room.code]
    deadline = parse_datetime(turn["deadline"])
    assert deadline is not None
    return deadline


def first_notice(notify, push_service, path: str) -> None:
    """The turn's first notice, a minute into it: the reminder comes on top of it."""
    before = len(push_service.at(path))
    [delivery] = notify(after_wait())
    assert delivery.notice is not None and delivery.notice.title == "Your turn"
    assert len(push_service.at(path)) == before + 1


def tokyo_minute(moment: datetime) -> datetime:
    return moment.astimezone(TOKYO).replace(second=0, microsecond=0)


def quiet_in_tokyo(player, begins: datetime, ends: datetime) -> None:
    quiet = {"start": begins.strftime("%H:%M"), "end": ends.strftime("%H:%M"), "timezone": "Asia/Tokyo"}
    preferences.preferences_update(user=player, changes={"quiet": quiet})


def test_one_reminder_in_the_window_with_the_time_left_by_push_and_mail(push_on, push_service, make_user, notify):
    player = make_user(email="player@example.org")
    confirm_email(player)
    room = day_clock(player)
    browser = subscribe(player, push_service, "/push/remind")
    deadline = deadline_of(player, room)
    first_notice(notify, push_service, "/push/remind")
    mail.outbox.clear()

    # A one-day clock reminds 6 hours before it runs out, not before.
    assert notify(deadline - 6 * HOUR - MINUTE) == []
    now = deadline - 6 * HOUR + MINUTE
    [delivery] = notify(now)
    assert delivery.pushed == 1 and delivery.emailed_to == "player@example.org"
    message = push_service.at("/push/remind")[-1]
    payload = browser.decrypt(message)
    assert payload == {
        "title": REMINDER,
        "body": f"5 hours left to play in room {room.code}, Hearts",
        "url": f"/rooms/{room.code}",
        "rooms": [room.code],
        # The turn's tag: it replaces the first notice on the device.
        "tag": f"turn-{room.code}",
    }
    assert int(message.headers["ttl"]) == int((deadline - now).total_seconds())
    [email] = mail.outbox
    assert email.subject == REMINDER
    assert email.body.startswith(
        f"5 hours left to play in room {room.code}, Hearts\n\n{BASE_URL}/rooms/{room.code}\n\n"
    ), email.body

    # Once per turn, however many scans pass until it runs out.
    for later in (now, deadline - 3 * HOUR, deadline - MINUTE):
        assert notify(later) == []
    assert len(push_service.at("/push/remind")) == 2 and len(mail.outbox) == 1
    reminder = TurnReminder.objects.get(user=player, room=room)
    assert reminder.turn_since == waiting_since(player, room) and reminder.sent_at == now


def test_an_hour_s_clock_reminds_fifteen_minutes_before_and_names_the_room(push_on, push_service, make_user, notify):
    player = make_user()
    room = start_room(player, "moon", name="Lunch table", turn_seconds=3600)
    browser = subscribe(player, push_service, "/push/hour")
    deadline = deadline_of(player, room)
    first_notice(notify, push_service, "/push/hour")
    assert notify(deadline - 15 * MINUTE - timedelta(seconds=1)) == []
    [delivery] = notify(deadline - 14 * MINUTE)
    assert delivery.pushed == 1
    payload = browser.decrypt(push_service.at("/push/hour")[-1])
    assert payload["title"] == REMINDER
    assert payload["body"] == f"14 minutes left to play in room {room.code}, Lunch table"


@pytest.mark.parametrize("turn_seconds", [600, 1800, 3599])
def test_no_reminder_on_a_clock_under_an_hour(push_on, push_service, make_user, notify, turn_seconds):
    player = make_user()
    room = start_room(player, turn_seconds=turn_seconds)
    subscribe(player, push_service, "/push/short")
    deadline = deadline_of(player, room)
    for now in (deadline - timedelta(seconds=turn_seconds / 8), deadline - timedelta(seconds=1)):
        notify(now)
    # The first notice alone.
    assert len(push_service.at("/push/short")) == 1
    assert not TurnReminder.objects.exists()


def test_reminders_switched_off_by_the_setting(push_on, push_service, make_user, notify, settings):
    settings.NOTIFY_REMINDER_BEFORE_SECONDS = 0
    player = make_user()
    room = day_clock(player)
    subscribe(player, push_service, "/push/off")
    first_notice(notify, push_service, "/push/off")
    assert notify(deadline_of(player, room) - HOUR) == []
    assert not TurnReminder.objects.exists()


def test_a_shorter_setting_shortens_the_window(push_on, push_service, make_user, notify, settings):
    settings.NOTIFY_REMINDER_BEFORE_SECONDS = 3600
    player = make_user()
    room = day_clock(player)
    subscribe(player, push_service, "/push/setting")
    deadline = deadline_of(player, room)
    first_notice(notify, push_service, "/push/setting")
    assert notify(deadline - HOUR - MINUTE) == []
    assert len(notify(deadline - HOUR + MINUTE)) == 1


def test_a_new_turn_gets_its_own_reminder(push_on, push_service, make_user, notify):
    player = make_user()
    room = day_clock(player)
    browser = subscribe(player, push_service, "/push/again")
    first_notice(notify, push_service, "/push/again")
    assert len(notify(deadline_of(player, room) - HOUR)) == 1

    act_and_wait_again(player, room)
    first_notice(notify, push_service, "/push/again")
    deadline = deadline_of(player, room)
    assert notify(deadline - 7 * HOUR) == []
    [delivery] = notify(deadline - 2 * HOUR)
    assert delivery.notice is not None and delivery.notice.title == REMINDER
    assert notify(deadline - HOUR) == []
    titles = [browser.decrypt(m)["title"] for m in push_service.at("/push/again")]
    assert titles == ["Your turn", REMINDER, "Your turn", REMINDER]


def test_nothing_while_the_player_is_at_the_screen(push_on, push_service, make_user, notify):
    player = make_user()
    room = day_clock(player)
    subscribe(player, push_service, "/push/present")
    first_notice(notify, push_service, "/push/present")
    now = deadline_of(player, room) - 2 * HOUR
    presence.presence_mark(user_id=player.pk, channel_name="specific.r!1", now=now - timedelta(seconds=5))
    assert notify(now) == []
    # Nothing claimed: the reminder goes once the player is away, if the turn still waits.
    assert not TurnReminder.objects.exists()
    presence.presence_end(channel_name="specific.r!1")
    assert len(notify(now + timedelta(seconds=30))) == 1
    assert len(push_service.at("/push/present")) == 2


def test_a_first_notice_and_a_reminder_due_at_once_go_as_one_notice(push_on, push_service, make_user, notify):
    """A player at the screen until the window opened hears of the turn once when they
    leave, with the time left; the reminder is not sent again after it."""
    player = make_user()
    room = day_clock(player)
    browser = subscribe(player, push_service, "/push/both")
    deadline = deadline_of(player, room)
    presence.presence_mark(user_id=player.pk, channel_name="specific.r!2", now=after_wait())
    assert notify(after_wait()) == []
    presence.presence_end(channel_name="specific.r!2")

    [delivery] = notify(deadline - 2 * HOUR)
    assert delivery.pushed == 1
    [message] = push_service.at("/push/both")
    assert browser.decrypt(message)["title"] == "Your turn"
    assert browser.decrypt(message)["body"] == "Hearts — 2 hours left"
    assert notify(deadline - HOUR) == []
    assert TurnNotice.objects.filter(user=player).count() == TurnReminder.objects.filter(user=player).count() == 1


def test_the_pause_between_hands_is_not_reminded_of(push_on, push_service, make_user, notify):
    player = make_user()
    room = day_clock(player, "moon", between_rounds_seconds=DAY)
    subscribe(player, push_service, "/push/pause")
    for _ in range(40):
        if state_of(room)["phase"] == "round_over":
            break
        act_once(player, room)
    assert state_of(room)["phase"] == "round_over"
    # The game waits for the player's next_round, for a day.
    deadline = deadline_of(player, room)
    notify(after_wait())
    assert notify(deadline - HOUR) == []
    assert not TurnReminder.objects.exists()


def test_a_window_opening_in_quiet_hours_is_reminded_of_in_the_hour_before_them(
    push_on, push_service, make_user, notify
):
    """Quiet hours that begin 8 hours and end 2 hours before the deadline: the reminder,
    due 6 hours before, would fall inside them; it goes in the hour before they begin,
    and nothing is sent during them or after."""
    player = make_user()
    room = day_clock(player)
    browser = subscribe(player, push_service, "/push/night")
    deadline = deadline_of(player, room)
    first_notice(notify, push_service, "/push/night")
    begins, ends = tokyo_minute(deadline - 8 * HOUR), tokyo_minute(deadline - 2 * HOUR)
    quiet_in_tokyo(player, begins, ends)

    assert notify(begins - HOUR - MINUTE) == []
    now = begins - 59 * MINUTE
    [delivery] = notify(now)
    assert delivery.pushed == 1
    payload = browser.decrypt(push_service.at("/push/night")[-1])
    assert payload["title"] == REMINDER
    assert payload["body"] == f"{time_left(deadline, now)} to play in room {room.code}, Hearts"
    assert payload["body"].startswith("8 hours left")

    for later in (begins, deadline - 6 * HOUR + MINUTE, ends - MINUTE, ends, ends + HOUR):
        assert notify(later) == []
    assert len(push_service.at("/push/night")) == 2


@pytest.mark.parametrize(("after_deadline", "reminded"), [(-2 * HOUR, True), (HOUR, False)])
def test_a_reminder_missed_before_the_quiet_hours_waits_for_their_end(
    push_on, push_service, make_user, notify, after_deadline, reminded
):
    """The player was at the screen in the hour before their quiet hours: nothing during
    them; after them, the reminder if the turn still waits (quiet hours ending 2 hours
    before the deadline), none if it ran out meanwhile (ending an hour after it)."""
    player = make_user()
    room = day_clock(player)
    subscribe(player, push_service, "/push/missed")
    deadline = deadline_of(player, room)
    first_notice(notify, push_service, "/push/missed")
    begins, ends = tokyo_minute(deadline - 8 * HOUR), tokyo_minute(deadline + after_deadline)
    quiet_in_tokyo(player, begins, ends)

    at_screen = begins - 30 * MINUTE
    presence.presence_mark(user_id=player.pk, channel_name="specific.r!3", now=at_screen - timedelta(seconds=5))
    assert notify(at_screen) == []
    for quiet in (begins, deadline - 6 * HOUR + MINUTE, ends - MINUTE):
        assert notify(quiet) == []
    deliveries = notify(ends)
    assert len(deliveries) == int(reminded)
    assert len(push_service.at("/push/missed")) == 1 + int(reminded)
    if reminded:
        [delivery] = deliveries
        assert delivery.notice is not None and delivery.notice.body.startswith("2 hours left to play")


def test_quiet_hours_inside_the_window_leave_it_as_it_is(push_on, push_service, make_user, notify):
    """The window opens before the quiet hours begin: the reminder goes when it opens."""
    player = make_user()
    room = day_clock(player)
    subscribe(player, push_service, "/push/evening")
    deadline = deadline_of(player, room)
    first_notice(notify, push_service, "/push/evening")
    quiet_in_tokyo(player, tokyo_minute(deadline - 3 * HOUR), tokyo_minute(deadline + 5 * HOUR))
    assert notify(deadline - 7 * HOUR) == []
    assert len(notify(deadline - 6 * HOUR + MINUTE)) == 1


@pytest.mark.parametrize("game", game_params())
def test_no_reminder_holds_a_card_or_a_tile(push_on, push_service, make_user, notify, game):
    """Real hands, two rooms: at each of the player's turns a first notice and a reminder
    (a digest when both rooms wait), by push and by mail; they say where and how much
    time is left, and nothing of any hand."""
    player = make_user(email="player@example.org")
    confirm_email(player)
    room = day_clock(player, game, name="Table one")
    second = day_clock(player, game)
    browser = subscribe(player, push_service, "/push/cards")
    reminders = 0
    for _ in range(6):
        notify(after_wait())
        [delivery] = notify(deadline_of(player, room) - HOUR)
        assert delivery.notice is not None and delivery.notice.title.startswith(REMINDER)
        reminders += 1
        act_and_wait_again(player, room)
        act_once(player, second)
    messages = push_service.at("/push/cards")
    assert len(messages) == len(mail.outbox) >= 2 * reminders
    seen = [browser.decrypt(m) for m in messages]
    assert sum(p["title"].startswith(REMINDER) for p in seen) == reminders
    for payload, email in zip(seen, mail.outbox, strict=True):
        assert set(payload) == NOTICE_KEYS
        assert payload["title"] == email.subject
        texts = [payload["title"], payload["body"], payload["url"], payload["tag"], *payload["rooms"]]
        texts += [email.subject, email.body]
        for text in texts:
            assert not CARD_OR_TILE.search(text), text
        assert set(payload["rooms"]) <= {room.code, second.code}
        if payload["title"].startswith(REMINDER):
            assert "left" in payload["body"] and "left" in email.body
