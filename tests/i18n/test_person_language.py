"""A person's language (accounts/languages.py): the server's languages (`GET
languages`), the account's own (`me.language`, in its export), a new account's from
what its sign-up asked in, and which language a page and an API answer are in."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.utils import timezone
from rest_framework.test import APIClient

from privacy.archive import archive_of
from tests.api.helpers import error_code

pytestmark = pytest.mark.django_db


def test_the_languages_are_listed_with_their_own_names_english_first(client):
    res = client.get("/api/v1/languages")
    assert res.status_code == 200
    assert res.json() == [
        {"code": "en", "name": "English", "bidi": False},
        {"code": "es", "name": "Español", "bidi": False},
        {"code": "hi", "name": "हिन्दी", "bidi": False},
        {"code": "gu", "name": "ગુજરાતી", "bidi": False},
    ]


@pytest.mark.parametrize("code", [code for code, _ in settings.LANGUAGES])
def test_the_account_s_language_is_chosen_and_exported(api_client, make_user, code):
    user = make_user()
    client = api_client(user)
    res = client.patch("/api/v1/me", {"language": code}, format="json")
    assert res.status_code == 200, res.content
    assert res.json()["language"] == code
    user.refresh_from_db()
    assert user.language == code
    assert archive_of(user=user, now=timezone.now())["account"]["settings"]["language"] == code


@pytest.mark.parametrize("bad", ["fr", "HI", "hi-IN", "", None, 1, ["hi"], "en "])
def test_a_language_the_server_does_not_speak_changes_nothing(api_client, make_user, bad):
    user = make_user()
    res = api_client(user).patch("/api/v1/me", {"language": bad, "trick_pause_ms": 0}, format="json")
    assert res.status_code == 400
    assert error_code(res) in ("invalid_choice", "null")
    user.refresh_from_db()
    assert (user.language, user.trick_pause_ms) == ("en", 1200)


def _sign_up(client: APIClient, name: str, **body: object) -> dict:
    body = {"username": name, "password": "a-long-pass-phrase", **body}
    res = client.post("/api/v1/auth/register", body, format="json")
    assert res.status_code == 201, res.content
    return res.json()["user"]


def test_a_new_account_starts_in_the_language_its_sign_up_asked_in():
    client = APIClient()
    # The browser's first choice the server speaks, by weight: Hindi before Spanish.
    client.credentials(HTTP_ACCEPT_LANGUAGE="fr-FR, hi-IN;q=0.9, es;q=0.8")
    assert _sign_up(client, "asha")["language"] == "hi"
    client.credentials(HTTP_ACCEPT_LANGUAGE="fr, de")
    assert _sign_up(client, "bruno")["language"] == "en"
    client.credentials(HTTP_ACCEPT_LANGUAGE="hi")
    assert _sign_up(client, "chandra", language="gu")["language"] == "gu"
    client.credentials(HTTP_ACCEPT_LANGUAGE="es-MX")
    res = client.post("/api/v1/auth/guest", {"display_name": "Dolores"}, format="json")
    assert res.status_code == 201 and res.json()["user"]["language"] == "es"


def _html_lang(res) -> str:
    found = re.search(rb'<html lang="([^"]+)" dir="(ltr|rtl)">', res.content)
    assert found, res.content[:200]
    return found.group(1).decode()


def test_a_page_is_in_the_signed_in_person_s_language_else_the_browser_s(client, make_user):
    assert _html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="gu, en;q=0.5")) == "gu"
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="es")
    assert _html_lang(page) == "es" and "Mesas de bazas" in page.content.decode()
    assert page["Content-Language"] == "es" and "Accept-Language" in page["Vary"]
    # The page's own choice (its cookie) before the browser's.
    client.cookies["django_language"] = "hi"
    assert _html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="es")) == "hi"
    # A person signed in with a session: their account's, before both.
    user = make_user()
    user.language = "gu"
    user.save(update_fields=["language"])
    client.force_login(user)
    assert _html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="es")) == "gu"


def test_the_api_answers_in_the_language_each_request_asks_in(client, make_user):
    user = make_user()
    user.language = "gu"
    user.save(update_fields=["language"])
    client.force_login(user)
    # The account's language is not the API's: a request says its own.
    res = client.get("/api/v1/languages", HTTP_ACCEPT_LANGUAGE="es")
    assert res["Content-Language"] == "es"
    assert client.get("/api/v1/languages")["Content-Language"] == "en"
