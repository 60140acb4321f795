"""Room names follow the rules of display names (one validator, api.serializers.
refuse_unreadable): no bidirectional control (`bidi_control`) and no character shown as
nothing (`invisible_character`), refused before the room exists, so none reaches the
public room list; where a joiner or a selector does show (emoji, Persian), it is taken,
for both."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts import usernames
from games.models import Room

from .helpers import errors

pytestmark = pytest.mark.django_db
FIXTURE_EXAMPLES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

BIDI = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f"]
BIDI += ["\u061c"]
# Default-ignorable code points (beside the bidirectional ones), each shown as nothing.
INVISIBLE = [
    "\u00ad", "\u034f", "\u115f", "\u1160", "\u17b4", "\u17b5", "\u180b", "\u180e", "\u200b", "\u200c",
    "\u200d", "\u2060", "\u2061", "\u2062", "\u2063", "\u2064", "\u206a", "\u206f", "\u3164", "\ufe00",
    "\ufe0f", "\ufeff", "\uffa0", "\ufff0", "\U0001bca0", "\U0001d173", "\U000e0001", "\U000e0041",
    "\U000e0100",
]  # fmt: skip
CODE_OF = {**dict.fromkeys(BIDI, "bidi_control"), **dict.fromkeys(INVISIBLE, "invisible_character")}
SHOWN = [
    "Alice",
    "Dîner du jeudi",
    "\U0001f469\u200d\U0001f4bb coders",  # woman technologist: an emoji's joiner
    "\u2764\ufe0f hearts",  # a red heart, as an emoji
    "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f night",  # Scotland's flag
    "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",  # Persian: a non-joiner between letters
    "\u05e9\u05dc\u05d5\u05dd",  # Hebrew letters: right to left, no control
]
# Visible text around the character: letters of any script, digits, spaces.
VISIBLE = st.text(
    st.characters(categories=("Lu", "Ll", "Lo", "Nd", "Zs"), exclude_characters="\u3164\u115f\u1160\uffa0"),
    max_size=12,
)


def make_room(client: Any, name: str) -> Any:
    return client.post("/api/v1/rooms/", {"game": "hearts", "options": {}, "name": name}, format="json")


@pytest.fixture
def host(api_client: Any, make_user: Any) -> Any:
    return api_client(make_user())


@pytest.fixture
def guests(api_client: Any) -> Any:
    return api_client()


@FIXTURE_EXAMPLES
@given(before=VISIBLE, char=st.sampled_from(BIDI + INVISIBLE), after=VISIBLE)
def test_a_room_name_and_a_display_name_refuse_the_same_characters_alike(host, guests, before, char, after):
    name = f"{before}{char}{after}"[:40]
    code = CODE_OF[char]
    rooms_before = Room.objects.count()
    res = make_room(host, name)
    assert res.status_code == 400, (name, res.content)
    assert errors(res) == [(code, "name")]
    assert Room.objects.count() == rooms_before
    listed = host.get("/api/v1/rooms/").json()
    assert not any(char in room["name"] for room in listed["results"])
    # The display name's rule is the same one, with the same code.
    res = guests.post("/api/v1/auth/guest", {"display_name": name}, format="json")
    assert res.status_code == 400, (name, res.content)
    assert errors(res) == [(code, "display_name")]


@FIXTURE_EXAMPLES
@given(name=st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs")), min_size=1, max_size=40))
def test_any_name_either_rule_takes_is_listed_as_written(host, name):
    res = make_room(host, name)
    readable = not usernames.has_bidi_control(name) and not usernames.has_invisible(name)
    if not readable:
        assert res.status_code == 400 and errors(res)[0][0] in ("bidi_control", "invisible_character"), res.content
        return
    assert res.status_code == 201, (name, res.content)
    assert res.json()["name"] == name.strip()


@pytest.mark.parametrize("name", SHOWN)
def test_joiners_and_selectors_that_show_are_taken(host, guests, name):
    res = make_room(host, name)
    assert res.status_code == 201, res.content
    code = res.json()["code"]
    listed = {room["code"]: room["name"] for room in host.get("/api/v1/rooms/").json()["results"]}
    assert listed[code] == name
    res = guests.post("/api/v1/auth/guest", {"display_name": name[:40]}, format="json")
    assert res.status_code == 201, res.content


@pytest.mark.parametrize("char", INVISIBLE)
def test_every_invisible_character_is_found(char):
    assert unicodedata.category(char) in ("Cf", "Mn", "Lo", "Cn"), char
    for text in (f"ab{char}cd", char, f"{char}ab", f"ab{char}"):
        assert usernames.has_invisible(text), (char, text)


def test_a_changed_display_name_is_held_to_the_rule_too(api_client, make_user):
    res = api_client(make_user()).patch("/api/v1/me", {"display_name": "Ann\u200bie"}, format="json")
    assert res.status_code == 400 and errors(res) == [("invisible_character", "display_name")]
