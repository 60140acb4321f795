"""A turn notice in its reader's language (#45): its title, its time left and the mail's
words, whole, in each shipped language; no English unit of time left in them (Django's
own catalogues have none in Hindi or Gujarati)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import translation

from core.times import iso
from notifications.content import notice_for, time_left
from notifications.mail import text_of

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

# What a reader of each language reads: the notice of a room called "Shanivar" whose turn
# has 2 h 30 min left; then 50 hours, and 200 seconds.
SAID = {
    "es": ("Tu turno", "Shanivar — quedan 2 horas", "quedan 2 días", "quedan 3 minutos"),
    "hi": ("आपकी बारी", "Shanivar — 2 घंटे बाकी", "2 दिन बाकी", "3 मिनट बाकी"),
    "gu": ("તમારો વારો", "Shanivar — 2 કલાક બાકી", "2 દિવસ બાકી", "3 મિનિટ બાકી"),
}


def turn(left: float) -> dict:
    return {
        "code": "AAAAAA",
        "game": "kali_tidi",
        "name": "Shanivar",
        "version": 3,
        "phase": "bid",
        "deadline": iso(NOW + timedelta(seconds=left)),
        "since": iso(NOW),
    }


@pytest.mark.parametrize("code", sorted(SAID))
def test_a_turn_notice_and_its_mail_are_in_the_reader_s_language(code, settings):
    settings.PUBLIC_BASE_URL = "https://games.example.org"
    title, body, day, minutes = SAID[code]
    with translation.override(code):
        notice = notice_for([turn(2.5 * 3600)], NOW)
        assert (notice.title, notice.body) == (title, body)
        assert time_left(NOW + timedelta(hours=50), NOW) == day
        assert time_left(NOW + timedelta(seconds=200), NOW) == minutes
        text = text_of(notice)
    assert text.startswith(f"{body}\n\nhttps://games.example.org/rooms/AAAAAA\n\n")
    for english in ("hour", "minute", "day", "left", "You receive"):
        assert english not in text, (code, english, text)
