"""When a reminder is due: the window a room's clock gives, and how the player's quiet
hours move it (notifications.services.reminders). Moments are written in Paris time."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from notifications.content import notice_for
from notifications.quiet import quiet_period_next
from notifications.selectors import Preferences
from notifications.services.reminders import reminder_due, reminder_window

from .test_content import NOW, turn

PARIS = ZoneInfo("Europe/Paris")
HOUR = timedelta(hours=1)
SIX_HOURS = 6 * HOUR


def paris(day: int, hour: int, minute: int = 0) -> datetime:
    # March 2026: Paris is at UTC+1 until the 29th.
    return datetime(2026, 3, day, hour, minute, tzinfo=PARIS)


def wants(quiet: tuple[time, time, str] | None) -> Preferences:
    return Preferences(push=True, email=True, email_address="", quiet=quiet)


NIGHTS = wants((time(22, 0), time(7, 0), "Europe/Paris"))


@pytest.mark.parametrize(
    ("clock", "window"),
    [
        (3599, None),
        (3600, timedelta(minutes=15)),
        (4 * 3600, HOUR),
        (8 * 3600, 2 * HOUR),
        (24 * 3600, SIX_HOURS),
        (7 * 24 * 3600, SIX_HOURS),
    ],
)
def test_a_quarter_of_the_clock_at_most_six_hours_on_clocks_of_an_hour_or_more(clock, window):
    assert reminder_window(clock) == window


def test_the_setting_caps_the_window_and_zero_turns_reminders_off(settings):
    settings.NOTIFY_REMINDER_BEFORE_SECONDS = 1800
    assert reminder_window(24 * 3600) == timedelta(minutes=30)
    assert reminder_window(3600) == timedelta(minutes=15)
    settings.NOTIFY_REMINDER_BEFORE_SECONDS = 0
    assert reminder_window(24 * 3600) is None


def test_without_quiet_hours_the_window_alone():
    due = paris(2, 4)
    assert not reminder_due(due=due, window=SIX_HOURS, preferences=wants(None), now=due - SIX_HOURS - HOUR / 60)
    assert reminder_due(due=due, window=SIX_HOURS, preferences=wants(None), now=due - SIX_HOURS)
    assert reminder_due(due=due, window=SIX_HOURS, preferences=wants(None), now=due - HOUR)


@pytest.mark.parametrize(
    "due",
    [
        paris(2, 4),  # inside the quiet hours (22:00 to 07:00)
        paris(2, 7, 30),  # right after them
        paris(2, 12, 59),  # less than the window after them: the window opens at 06:59
    ],
)
def test_a_window_opening_in_quiet_hours_moves_to_the_hour_before_them(due):
    def at(hour: int, minute: int = 0) -> bool:
        return reminder_due(due=due, window=SIX_HOURS, preferences=NIGHTS, now=paris(1, hour, minute))

    assert not at(20, 59)
    assert at(21, 0) and at(21, 59)
    # Never during them.
    assert not at(22, 0) and not at(23, 30)
    assert not reminder_due(due=due, window=SIX_HOURS, preferences=NIGHTS, now=paris(2, 6, 59))


def test_a_window_opening_when_the_quiet_hours_are_over_is_left_alone():
    due = paris(2, 13)  # the window opens at 07:00, when the quiet hours end
    for hour in (21, 22, 6):
        day = 1 if hour > 12 else 2
        assert not reminder_due(due=due, window=SIX_HOURS, preferences=NIGHTS, now=paris(day, hour, 30))
    assert reminder_due(due=due, window=SIX_HOURS, preferences=NIGHTS, now=paris(2, 7))


def test_a_window_missed_before_the_quiet_hours_goes_when_they_end_if_the_turn_still_waits():
    # Due at 10:00, window from 04:00 (inside): the hour before 22:00 passed unsent.
    assert reminder_due(due=paris(2, 10), window=SIX_HOURS, preferences=NIGHTS, now=paris(2, 7))


def test_quiet_hours_that_begin_inside_the_window_leave_it_as_it_is():
    due = paris(2, 1)  # window from 19:00, quiet hours from 22:00
    assert not reminder_due(due=due, window=SIX_HOURS, preferences=NIGHTS, now=paris(1, 18, 59))
    assert reminder_due(due=due, window=SIX_HOURS, preferences=NIGHTS, now=paris(1, 19))
    assert not reminder_due(due=due, window=SIX_HOURS, preferences=NIGHTS, now=paris(1, 22, 30))


def test_a_zone_this_machine_does_not_know_leaves_the_window_alone():
    gone = wants((time(0, 0), time(23, 59), "Nowhere/Gone"))
    due = paris(2, 4)
    assert not reminder_due(due=due, window=SIX_HOURS, preferences=gone, now=due - 7 * HOUR)
    assert reminder_due(due=due, window=SIX_HOURS, preferences=gone, now=due - SIX_HOURS)


def test_the_next_quiet_period():
    overnight = {"start": time(22, 0), "end": time(7, 0), "zone": "Europe/Paris"}
    assert quiet_period_next(**overnight, after=paris(1, 12)) == (paris(1, 22), paris(2, 7))
    # Under way past midnight, and before midnight.
    assert quiet_period_next(**overnight, after=paris(2, 3)) == (paris(1, 22), paris(2, 7))
    assert quiet_period_next(**overnight, after=paris(1, 23)) == (paris(1, 22), paris(2, 7))
    # Its end is not in it.
    assert quiet_period_next(**overnight, after=paris(2, 7)) == (paris(2, 22), paris(3, 7))
    daytime = {"start": time(13, 0), "end": time(14, 0), "zone": "Asia/Tokyo"}
    # 12:00 UTC on 1 March is 21:00 in Tokyo.
    tomorrow = (datetime(2026, 3, 2, 4, tzinfo=UTC), datetime(2026, 3, 2, 5, tzinfo=UTC))
    assert quiet_period_next(**daytime, after=NOW) == tomorrow
    assert quiet_period_next(start=time(1, 0), end=time(2, 0), zone="Nowhere/Gone", after=NOW) is None


def test_what_a_reminder_says():
    one = notice_for([turn("AAAAAA", left=2 * 3600 + 59)], NOW, reminder=True)
    assert one.payload() == {
        "title": "Time is running out",
        "body": "2 hours left to play in room AAAAAA, Hearts",
        "url": "/rooms/AAAAAA",
        "rooms": ["AAAAAA"],
        "tag": "turn-AAAAAA",
    }
    assert one.lines == [("2 hours left to play in room AAAAAA, Hearts", "/rooms/AAAAAA")]
    named = notice_for([turn("BBBBBB", name="Friday game", game="moon", left=600)], NOW, reminder=True)
    assert named.body == "10 minutes left to play in room BBBBBB, Friday game"
    # A deadline gone by the time it is sent (the server acts on it within seconds).
    late = notice_for([turn("CCCCCC", left=-1)], NOW, reminder=True)
    assert late.body == "Time is up in room CCCCCC, Hearts"

    several = notice_for([turn("AAAAAA", left=3600), turn("BBBBBB", "Evening", left=7200)], NOW, reminder=True)
    assert several.title == "Time is running out in 2 games"
    assert several.body == "Hearts, 1 hour left; Evening, 2 hours left"
    assert (several.url, several.tag) == ("/", "turns")
