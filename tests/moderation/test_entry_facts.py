"""What a moderation log entry did is kept as facts and said in the reading moderator's
language (moderation.entry_facts): each fact in each shipped language is its catalogue's
sentence with the facts filled in, never the English; an entry from before the facts
shows its English words as written."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.utils import translation

from moderation import entry_facts
from moderation.models import ModerationEntry

SHIPPED = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]

FACTS = [
    (entry_facts.until(datetime(2026, 12, 1, 9, 30, tzinfo=UTC)), "until 2026-12-01 09:30 UTC"),
    (entry_facts.room_closed("QWERTY"), "QWERTY closed (nobody else was seated)"),
    (entry_facts.seat_to_bot("QWERTY", 2), "QWERTY seat 3 given to a computer player"),
    (entry_facts.seat_freed("QWERTY", 0), "QWERTY seat 1 freed"),
    (entry_facts.seat_left_as_it_was("QWERTY", 1, "room_closed"), "QWERTY seat 2 left as it was (room_closed)"),
    (entry_facts.no_open_rooms(), "No open rooms."),
    (entry_facts.seat(3), "seat 4"),
    (entry_facts.chat_timeout("1h", "QWERTY"), "an hour in QWERTY"),
    (entry_facts.chat_timeout("24h", None), "a day everywhere"),
]


@pytest.mark.parametrize("fact,english", FACTS, ids=[f["what"] + str(i) for i, (f, _) in enumerate(FACTS)])
def test_each_fact_is_said_in_each_language(fact, english):
    with translation.override(settings.LANGUAGE_CODE):
        assert entry_facts.said(fact) == english
    for language in SHIPPED:
        with translation.override(language):
            said = entry_facts.said(fact)
        assert said != english, language
        # What the fact names stays as it is: the room's code, the seat's number, the time.
        for kept in ("QWERTY", "2026-12-01 09:30", "room_closed"):
            assert (kept in said) == (kept in english), (language, said)
        for number in ("1", "2", "3", "4"):
            assert (f" {number}" in english) <= (number in said), (language, said)


@pytest.mark.django_db
def test_an_entry_says_its_facts_and_an_older_one_its_words(make_user):
    person = make_user()
    facts = [entry_facts.until(datetime(2026, 12, 1, tzinfo=UTC)), entry_facts.seat_to_bot("QWERTY", 0)]
    entry = ModerationEntry.objects.create(kind="temp_ban", reason="spam", target_user=person, facts=facts)
    assert entry.shown_detail == "until 2026-12-01 00:00 UTC; QWERTY seat 1 given to a computer player"
    with translation.override("hi"):
        hindi = entry.shown_detail
    assert hindi.count(";") == 1 and "QWERTY" in hindi and "until" not in hindi
    older = ModerationEntry.objects.create(kind="ban", reason="spam", target_user=person, detail="No open rooms.")
    with translation.override("hi"):
        assert older.shown_detail == "No open rooms."
