"""What notices say, from the turns `games.selectors.turns_of` lists."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from core.times import iso
from notifications.content import ROOMS_MAX, notice_for, time_left
from notifications.mail import text_of
from notifications.quiet import is_quiet

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def turn(code: str, name: str = "", game: str = "hearts", left: float | None = 600) -> dict:
    deadline = iso(NOW + timedelta(seconds=left)) if left is not None else None
    return {
        "code": code,
        "game": game,
        "name": name,
        "version": 3,
        "phase": "play",
        "deadline": deadline,
        "since": iso(NOW),
    }


def test_time_left_in_words():
    assert time_left(None, NOW) == ""
    assert time_left(NOW - timedelta(seconds=1), NOW) == "time is up"
    assert time_left(NOW, NOW) == "time is up"
    assert time_left(NOW + timedelta(seconds=59), NOW) == "under a minute left"
    assert time_left(NOW + timedelta(seconds=61), NOW) == "1 minute left"
    assert time_left(NOW + timedelta(minutes=150), NOW) == "2 hours left"
    assert time_left(NOW + timedelta(days=6, hours=23), NOW) == "6 days left"


def test_one_room_without_a_clock_is_its_name_alone():
    notice = notice_for([turn("AAAAAA", game="kali_tidi", left=None)], NOW)
    assert notice.payload() == {
        "title": "Your turn",
        "body": "Kali Tidi (Moon 3 of Spades)",
        "url": "/rooms/AAAAAA",
        "rooms": ["AAAAAA"],
        "tag": "turn-AAAAAA",
    }
    assert notice.deadline is None


def test_a_digest_names_three_rooms_and_counts_the_rest():
    turns = [turn(f"R{n:05d}", name=f"Room {n}", left=60 * (n + 2)) for n in range(ROOMS_MAX + 5)]
    notice = notice_for(turns, NOW)
    assert notice.title == f"{ROOMS_MAX + 5} games wait for you"
    assert notice.body == (
        f"Room 0, 2 minutes left; Room 1, 3 minutes left; Room 2, 4 minutes left; and {ROOMS_MAX + 2} more"
    )
    assert notice.rooms == [t["code"] for t in turns[:ROOMS_MAX]]
    assert (notice.url, notice.tag) == ("/", "turns")
    assert notice.deadline == NOW + timedelta(minutes=2)
    # A push message holds about 4 KB, encryption included.
    long_names = [turn(f"R{n:05d}", name="\U0001f0a1" * 80) for n in range(ROOMS_MAX + 5)]
    assert len(str(notice_for(long_names, NOW).payload()).encode()) < 3000


def test_the_mail_of_a_digest_links_every_room_it_lists(settings):
    settings.PUBLIC_BASE_URL = "https://games.example.org"
    text = text_of(notice_for([turn("AAAAAA", "First"), turn("BBBBBB", left=None)], NOW))
    assert text.startswith("2 games wait for you:\n\n- First — 10 minutes left: https://games.example.org/rooms/AAAAAA")
    assert "- Hearts: https://games.example.org/rooms/BBBBBB" in text
    settings.PUBLIC_BASE_URL = ""
    # Without a public address no link can be right: none is written.
    assert "http" not in text_of(notice_for([turn("AAAAAA", "First")], NOW))


def test_quiet_periods_within_a_day_and_across_midnight():
    paris = "Europe/Paris"
    # 12:00 UTC on 1 March is 13:00 in Paris.
    assert is_quiet(start=time(13, 0), end=time(14, 0), zone=paris, now=NOW)
    assert not is_quiet(start=time(13, 1), end=time(14, 0), zone=paris, now=NOW)
    assert not is_quiet(start=time(12, 0), end=time(13, 0), zone=paris, now=NOW)
    assert is_quiet(start=time(22, 0), end=time(13, 30), zone=paris, now=NOW)
    assert not is_quiet(start=time(22, 0), end=time(7, 0), zone=paris, now=NOW)
    # 21:00 in Tokyo.
    assert is_quiet(start=time(21, 0), end=time(7, 0), zone="Asia/Tokyo", now=NOW)
    assert not is_quiet(start=time(21, 1), end=time(7, 0), zone="Asia/Tokyo", now=NOW)
    # A zone this machine does not know (any more) silences nobody.
    assert not is_quiet(start=time(0, 0), end=time(23, 59), zone="Nowhere/Gone", now=NOW)
