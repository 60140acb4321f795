"""The web app manifest in each language (web/manifest.py): its name, short name and
description in that language, at an address of the language's own, which each page of
that language links; the app is one app in every language (the same `id`)."""

from __future__ import annotations

import html
import json
import re

import pytest

from web import manifest

pytestmark = pytest.mark.django_db

# What a reader of each language reads: the name, the short name (under the icon) and
# the description.
SAID = {
    "en": (
        "Trick-taking tables",
        "Trick tables",
        "Hearts, Moon and Kali Tidi at your own tables, live or one move a day.",
    ),
    "es": ("Mesas de bazas", "Bazas", "Corazones, Moon y Kali Tidi en tus propias mesas, en vivo o una jugada al día."),
    "hi": (
        "ट्रिक वाले खेलों की मेज़ें",
        "हाथ टेबल",
        "हार्ट्स, मून और काली तिड़ी अपनी ही मेज़ों पर, लाइव या दिन में एक चाल।",
    ),
    "gu": (
        "હાથ જીતવાની રમતોનાં ટેબલ",
        "હાથ ટેબલ",
        "હાર્ટ્સ, મૂન અને કાળી તીડી તમારાં પોતાનાં ટેબલ પર, લાઇવ અથવા દિવસમાં એક ચાલ.",
    ),
}
WORDS = ("name", "short_name", "description", "lang")


def _manifest(client, path: str, **headers: str) -> dict:
    res = client.get(path, **headers)
    assert res.status_code == 200, path
    assert res["Content-Type"] == "application/manifest+json"
    assert "public" in res["Cache-Control"] and "max-age" in res["Cache-Control"]
    return json.loads(res.content)


@pytest.mark.parametrize("code", sorted(SAID))
def test_each_language_has_its_manifest_whatever_the_request_asks(client, code):
    other = "hi" if code != "hi" else "es"
    data = _manifest(client, f"/manifest/{code}.webmanifest", HTTP_ACCEPT_LANGUAGE=other)
    assert (data["name"], data["short_name"], data["description"]) == SAID[code]
    assert (data["lang"], data["dir"]) == (code, "ltr")
    assert 0 < len(data["short_name"]) <= 12  # what a home screen shows under the icon
    # One app in every language: only its words differ.
    english = _manifest(client, "/manifest/en.webmanifest")
    assert {k: v for k, v in data.items() if k not in WORDS} == {k: v for k, v in english.items() if k not in WORDS}
    assert data["id"] == "/"


def test_a_language_written_right_to_left_gets_its_direction():
    assert manifest.manifest("ar")["dir"] == "rtl"
    assert manifest.manifest("hi")["dir"] == "ltr"


@pytest.mark.parametrize("code", ["fr", "HI", "hi-in", "xx"])
def test_a_language_the_server_does_not_speak_has_no_manifest(client, code):
    assert client.get(f"/manifest/{code}.webmanifest").status_code == 404


def test_the_address_of_before_answers_in_the_request_s_language(client):
    data = _manifest(client, "/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="es-MX, es;q=0.9")
    assert (data["lang"], data["name"]) == ("es", SAID["es"][0])
    assert _manifest(client, "/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="fr")["lang"] == "en"


def _linked(html: str) -> str:
    found = re.search(r'<link rel="manifest" href="([^"]+)">', html)
    assert found, html[:500]
    return found[1]


@pytest.mark.parametrize("path", ["/", "/fair-deals", "/offline"])
def test_a_page_links_the_manifest_of_its_own_language(client, make_user, path):
    assert _linked(client.get(path).content.decode()) == "/manifest/en.webmanifest"
    assert _linked(client.get(path, HTTP_ACCEPT_LANGUAGE="gu").content.decode()) == "/manifest/gu.webmanifest"
    # Signed in, the page is in the account's language, and so is its manifest: a browser
    # asks for a manifest without the page's cookies, so its address says the language.
    client.force_login(make_user(language="hi"))
    assert _linked(client.get(path, HTTP_ACCEPT_LANGUAGE="gu").content.decode()) == "/manifest/hi.webmanifest"


def test_the_shell_names_each_language_s_manifest_for_the_page_to_link_when_it_switches(client):
    # web/static/web/language.js links the manifest of the language the page switches to.
    found = re.search(r'data-languages="([^"]*)"', client.get("/").content.decode())
    assert found
    languages = json.loads(html.unescape(found[1]))
    for code, language in languages.items():
        assert language["manifest"] == f"/manifest/{code}.webmanifest"
        assert _manifest(client, language["manifest"])["lang"] == code
