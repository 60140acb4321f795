"""The games' names (games/names.py) in the person's language: the catalogue of games
(`GET games`, by Accept-Language, with its options' descriptions; keys and values as
they are), the invitation page, and a turn notice naming an unnamed room's game. Every
registered game has a translated name whose English is its engine's, and every option's
description is marked for the catalogues."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import translation

from core.times import iso
from games import names, rules
from games.services import lobby
from notifications.content import notice_for

pytestmark = pytest.mark.django_db

# What a reader of each language reads: each game's name, and one option's description.
SAID = {
    "es": {
        "hearts": "Corazones",
        "moon": "Moon (dominó)",
        "kali_tidi": "Kali Tidi (Moon del 3 de picas)",
    },
    "hi": {
        "hearts": "हार्ट्स",
        "moon": "मून (डोमिनो)",
        "kali_tidi": "काली तिड़ी (हुकुम की तिड़ी वाला मून)",
    },
    "gu": {
        "hearts": "હાર્ટ્સ",
        "moon": "મૂન (ડોમિનો)",
        "kali_tidi": "કાળી તીડી (કાળીની તીડીવાળું મૂન)",
    },
}
PAUSE = {
    "es": "Pausa tras una mano antes de que empiece la siguiente.",
    "hi": "एक दौर के बाद अगला शुरू होने से पहले का ठहराव।",
    "gu": "એક દાવ પછી બીજો શરૂ થાય તે પહેલાંનો વિરામ.",
}


def test_every_game_has_a_translated_name_whose_english_is_its_engine_s():
    for game in rules.all_games():
        assert game.key in names.NAMES, f"{game.key}: give it a name in games/names.py"
        with translation.override("en"):
            assert names.name_of(game.key) == game.name


def test_every_option_s_description_is_marked_for_the_catalogues():
    unmarked = [
        (game.key, option.name)
        for game in rules.all_games()
        for option in game.all_options.options
        if option.description not in names.OPTION_HELP
    ]
    assert unmarked == [], "mark them in games/names.py's OPTION_HELP"


def test_a_game_the_names_do_not_list_is_named_in_its_engine_s_english(monkeypatch):
    monkeypatch.delitem(names.NAMES, "moon")
    with translation.override("hi"):
        assert names.name_of("moon") == rules.get("moon").name


def test_the_catalogue_in_english_is_the_engines_own(client):
    res = client.get("/api/v1/games/")
    assert res.status_code == 200 and res["Content-Language"] == "en"
    assert res.json() == json.loads(json.dumps([game.catalogue() for game in rules.all_games()]))


def _without_descriptions(entry: dict) -> dict:
    options = {
        name: {k: v for k, v in schema.items() if k != "description"} for name, schema in entry["options"].items()
    }
    return {**{k: v for k, v in entry.items() if k != "name"}, "options": options}


@pytest.mark.parametrize("code", sorted(SAID))
def test_the_catalogue_is_in_the_request_s_language_its_keys_and_values_as_they_are(client, code):
    english = client.get("/api/v1/games/").json()
    res = client.get("/api/v1/games/", HTTP_ACCEPT_LANGUAGE=code)
    assert res.status_code == 200 and res["Content-Language"] == code
    shown = res.json()
    assert {g["key"]: g["name"] for g in shown} == SAID[code]
    # Keys, players, options' types, defaults and choices, presets: as in English.
    assert [_without_descriptions(g) for g in shown] == [_without_descriptions(g) for g in english]
    for mine, theirs in zip(shown, english, strict=True):
        for option, schema in mine["options"].items():
            assert schema["description"] != theirs["options"][option]["description"], (mine["key"], option)
    assert shown[0]["options"]["between_rounds_seconds"]["description"] == PAUSE[code]


@pytest.mark.parametrize("code", sorted(SAID))
def test_the_invitation_names_the_game_in_the_page_s_language(client, make_user, code):
    room = lobby.room_create(host=make_user("asha"), game="kali_tidi", options={})
    page = client.get(f"/join/{room.code}", HTTP_ACCEPT_LANGUAGE=code).content.decode()
    assert f'data-invite-game="{SAID[code]["kali_tidi"]}"' in page


@pytest.mark.parametrize("code", sorted(SAID))
def test_a_notice_names_an_unnamed_room_s_game_in_the_reader_s_language(code):
    now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    turn = {
        "code": "AAAAAA",
        "game": "moon",
        "name": "",
        "version": 3,
        "phase": "bid",
        "deadline": iso(now + timedelta(hours=2, minutes=30)),
        "since": iso(now),
    }
    with translation.override(code):
        notice = notice_for([turn], now)
    assert notice.body.startswith(f"{SAID[code]['moon']} — ")
