"""The web client's catalogues (web/catalogues.py): the shell names each language's
address, which serves that language's words with their plural rule, kept for a year
while its version stands."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db


def _languages(client) -> dict:
    page = client.get("/").content.decode()
    found = re.search(r'data-languages="([^"]*)"', page)
    assert found
    return json.loads(html.unescape(found.group(1)))


def test_the_shell_names_every_language_and_its_catalogue(client):
    languages = _languages(client)
    assert list(languages) == [code for code, _ in settings.LANGUAGES]
    for code, language in languages.items():
        assert language["name"] == dict(settings.LANGUAGES)[code] and language["bidi"] is False
        res = client.get(language["url"])
        assert res.status_code == 200 and res["Content-Type"].startswith("application/json")
        assert res["Cache-Control"] == "public, max-age=31536000, immutable"
        catalogue = res.json()
        assert set(catalogue) >= {"catalog", "plural"}
    words = {code: client.get(language["url"]).json()["catalog"] for code, language in languages.items()}
    assert (words["es"]["Settings"], words["hi"]["Settings"], words["gu"]["Settings"]) == ("Ajustes", "सेटिंग्स", "સેટિંગ્સ")
    assert "Settings" not in words["en"]  # English is the strings' own


def test_an_old_version_gets_today_s_words_asked_again_and_no_other_language_is_served(client):
    url = _languages(client)["hi"]["url"]
    old = re.sub(r"/[0-9a-f]{12}\.json$", "/000000000000.json", url)
    assert old != url
    res = client.get(old)
    assert res.status_code == 200 and res["Cache-Control"] == "no-cache"
    assert res.json()["catalog"]["Settings"] == "सेटिंग्स"
    for unknown in ("fr", "xx", "HI", "..", "hi-IN"):
        assert client.get(url.replace("/hi/", f"/{unknown}/")).status_code == 404
