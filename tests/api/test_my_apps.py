"""A person registers apps of their own (`me/apps/made`): public PKCE clients whose
redirect URIs follow RFC 8252 and whose scopes bound what the authorize step grants."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import timezone, translation
from django.utils.translation import gettext

from tests.oauth import allow, authorize_query, code_from, pkce_pair, signed_in, token_form

pytestmark = pytest.mark.django_db

URL = "/api/v1/me/apps/made"
NATIVE = "com.example.app:/oauth/callback"


def register(client: Any, headers: dict[str, str] | None = None, **fields: Any) -> Any:
    body = {"name": "Pocket Hearts", "redirect_uris": [NATIVE], "scopes": ["read", "play"], **fields}
    return client.post(URL, body, format="json", headers=headers)


def error_of(answer: Any) -> tuple[str, str | None]:
    first = answer.json()["errors"][0]
    return first["code"], first.get("attr")


def app_of(answer: Any) -> Any:
    from oauth2_provider.models import get_application_model

    return get_application_model().objects.get(pk=answer.json()["id"])


def test_a_person_registers_a_public_pkce_app(make_user, api_client):
    owner = api_client(make_user("maker"))
    answer = register(owner, redirect_uris=[NATIVE, "http://127.0.0.1/cb", "https://hearts.example/cb"])
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert answer["Location"].endswith(f"{URL}/{body['id']}")
    assert body["name"] == "Pocket Hearts" and body["scopes"] == ["read", "play"]
    assert body["redirect_uris"] == [NATIVE, "http://127.0.0.1/cb", "https://hearts.example/cb"]
    assert "client_secret" not in body
    app = app_of(answer)
    assert (app.client_type, app.authorization_grant_type, app.skip_authorization) == (
        "public",
        "authorization-code",
        False,
    )
    assert app.client_id == body["client_id"] and app.client_secret == ""
    assert owner.get(URL).json() == [body]
    assert owner.get(f"{URL}/{body['id']}").json() == body


@pytest.mark.parametrize(
    "uri",
    [
        "http://hearts.example/cb",  # plain http off the loopback
        "http://localhost:8765/cb",  # a name, not a loopback literal (RFC 8252 §8.3)
        "myapp:/cb",  # a private-use scheme not in reverse-domain form
        "https://hearts.example/cb#top",  # a fragment
        "javascript:alert(1)",
        "com.example.app:",  # no path
    ],
)
def test_a_redirect_uri_rfc_8252_does_not_allow_is_refused(make_user, api_client, settings, uri):
    settings.OAUTH2_PROVIDER = {**settings.OAUTH2_PROVIDER, "ALLOWED_REDIRECT_URI_SCHEMES": ["https"]}
    answer = register(api_client(make_user()), redirect_uris=["https://hearts.example/ok", uri])
    assert answer.status_code == 400, answer.content
    assert error_of(answer) == ("invalid_redirect_uri", "redirect_uris")
    # The refusal names the URI refused, in the project's words, never the toolkit's.
    detail = answer.json()["errors"][0]["detail"]
    assert detail.startswith(f"{uri}: ") and "validation error" not in detail.lower()


def test_a_redirect_uri_refusal_is_said_in_the_request_s_language(make_user, api_client, settings):
    settings.OAUTH2_PROVIDER = {**settings.OAUTH2_PROVIDER, "ALLOWED_REDIRECT_URI_SCHEMES": ["https"]}
    client = api_client(make_user())
    bad = ["http://hearts.example/cb", "https://hearts.example/cb#top"]
    english = register(client, redirect_uris=bad).json()["errors"]
    hindi = register(client, {"Accept-Language": "hi"}, redirect_uris=bad).json()["errors"]
    # One error per URI refused, each with the same code and field in either language.
    assert (
        [(e["code"], e["attr"]) for e in hindi]
        == [(e["code"], e["attr"]) for e in english]
        == [("invalid_redirect_uri", "redirect_uris")] * 2
    )
    with translation.override("hi"):
        said = [
            gettext(
                "%(uri)s: an app may be sent to https, to a private-use scheme in reverse-domain form "
                "(com.example.app:/callback), or to http on 127.0.0.1 or [::1] only."
            )
            % {"uri": bad[0]},
            gettext("%(uri)s: a redirect URI may not have a fragment (#…).") % {"uri": bad[1]},
        ]
    assert [e["detail"] for e in hindi] == said
    assert [e["detail"] for e in english] != said


def test_scopes_must_be_known_and_some(make_user, api_client):
    client = api_client(make_user())
    assert error_of(register(client, scopes=["read", "admin"]))[0] == "invalid"
    assert register(client, scopes=[]).status_code == 400


def test_the_authorize_step_refuses_scopes_beyond_the_apps(make_user, api_client):
    maker = api_client(make_user())
    app = app_of(register(maker, scopes=["read"], redirect_uris=["https://hearts.example/cb"]))
    _, challenge = pkce_pair()
    browser = signed_in(make_user())
    beyond = browser.get("/oauth/authorize/", authorize_query(app, challenge, "read play"))
    assert beyond.status_code == 302 and "error=invalid_scope" in beyond["Location"], beyond
    assert beyond["Location"].startswith("https://hearts.example/cb?") and "code=" not in beyond["Location"]
    within = browser.get("/oauth/authorize/", authorize_query(app, challenge, "read"))
    assert within.status_code == 200
    # No scope named: the app gets what it may have, never more.
    query = {k: v for k, v in authorize_query(app, challenge, "").items() if k != "scope"}
    assert browser.get("/oauth/authorize/", query).context["scopes"] == ["read"]
    # A native app is refused too; the toolkit answers its request's errors on the page.
    native = app_of(register(maker, scopes=["read"]))
    refused = browser.get("/oauth/authorize/", authorize_query(native, challenge, "read play"))
    assert refused.status_code == 400 and not refused.has_header("Location")


def test_the_authorize_page_says_who_made_the_app_and_where_it_answers(make_user, api_client):
    from tests.oauth import make_app

    app = app_of(register(api_client(make_user("maker"))))
    _, challenge = pkce_pair()
    browser = signed_in(make_user())
    page = browser.get("/oauth/authorize/", authorize_query(app, challenge, "read")).content.decode()
    assert "Made by maker" in page and "the app com.example.app on this device" in page
    operators = make_app()
    page = browser.get("/oauth/authorize/", authorize_query(operators, challenge, "read")).content.decode()
    assert "Registered by the operator" in page and "a program on this device (127.0.0.1)" in page


def test_a_native_apps_code_comes_back_to_its_scheme_and_trades(make_user, api_client, settings):
    settings.OAUTH2_PROVIDER = {**settings.OAUTH2_PROVIDER, "ALLOWED_REDIRECT_URI_SCHEMES": ["https"]}
    app = app_of(register(api_client(make_user())))
    verifier, challenge = pkce_pair()
    answer = allow(signed_in(make_user()), app, challenge, "read play")
    assert answer.status_code == 302 and answer["Location"].startswith(NATIVE + "?"), answer
    token = Client().post("/oauth/token/", token_form(app, code_from(answer["Location"]), verifier))
    assert token.status_code == 200 and token.json()["scope"] == "read play"


def test_a_loopback_redirect_takes_any_port(make_user, api_client, settings):
    settings.OAUTH2_PROVIDER = {**settings.OAUTH2_PROVIDER, "ALLOWED_REDIRECT_URI_SCHEMES": ["https"]}
    app = app_of(register(api_client(make_user()), redirect_uris=["http://127.0.0.1/cb", "http://[::1]/cb"]))
    verifier, challenge = pkce_pair()
    browser = signed_in(make_user())
    for uri in ("http://127.0.0.1:49152/cb", "http://[::1]:8080/cb"):
        form = {**authorize_query(app, challenge, "read"), "redirect_uri": uri, "allow": "Authorize"}
        answer = browser.post("/oauth/authorize/", form)
        assert answer.status_code == 302 and answer["Location"].startswith(uri + "?"), answer
    trade = {**token_form(app, code_from(answer["Location"]), verifier), "redirect_uri": "http://[::1]:8080/cb"}
    assert Client().post("/oauth/token/", trade).status_code == 200
    # The path still matches exactly, and no other host takes the loopback's freedom.
    for uri in ("http://127.0.0.1:49152/other", "http://localhost:49152/cb"):
        wrong = browser.get("/oauth/authorize/", {**authorize_query(app, challenge, "read"), "redirect_uri": uri})
        assert wrong.status_code == 400


def test_the_admin_takes_a_native_apps_redirects(make_user, settings):
    from oauth2_provider.models import get_application_model

    settings.OAUTH2_PROVIDER = {**settings.OAUTH2_PROVIDER, "ALLOWED_REDIRECT_URI_SCHEMES": ["https"]}
    app = get_application_model()(
        name="Desk",
        client_type="public",
        authorization_grant_type="authorization-code",
        redirect_uris=f"{NATIVE} http://127.0.0.1:8765/cb https://desk.example/cb",
    )
    app.full_clean()  # what the admin's form runs
    app.redirect_uris = "http://desk.example/cb"
    with pytest.raises(Exception, match="invalid_scheme"):
        app.full_clean()


def test_a_person_has_at_most_so_many_apps(make_user, api_client, settings):
    settings.OAUTH_APPS_PER_PERSON = 2
    settings.OAUTH_APP_REGISTRATION_RATE = "100/min"
    client = api_client(make_user())
    assert [register(client).status_code for _ in range(2)] == [201, 201]
    third = register(client)
    assert third.status_code == 400 and error_of(third) == ("too_many_apps", None)
    assert register(api_client(make_user())).status_code == 201  # a cap per person


def test_registering_is_throttled(make_user, api_client, settings):
    from django.core.cache import cache

    cache.clear()
    settings.OAUTH_APP_REGISTRATION_RATE = "2/hour"
    client = api_client(make_user())
    answers = [register(client, name=f"App {n}").status_code for n in range(3)]
    assert answers == [201, 201, 429]
    assert client.get(URL).status_code == 200  # reading is not counted
    cache.clear()


def test_a_guest_cannot_register(make_user, api_client):
    guest = make_user("guest-abc123", is_guest=True)
    answer = register(api_client(guest))
    assert answer.status_code == 403 and error_of(answer) == ("guest_cannot_register_apps", None)


def test_a_banned_person_cannot_register(make_user, api_client):
    user = make_user()
    client = api_client(user)
    user.is_active, user.banned_at, user.ban_reason = False, timezone.now(), "cheating"
    user.save()
    assert register(client).status_code == 401
    from oauth2_provider.models import get_application_model

    assert not get_application_model().objects.filter(user=user).exists()


def test_only_the_maker_sees_changes_and_deletes_an_app(make_user, api_client, settings):
    settings.OAUTH2_PROVIDER = {**settings.OAUTH2_PROVIDER, "ALLOWED_REDIRECT_URI_SCHEMES": ["https"]}
    owner = api_client(make_user())
    app_id = register(owner).json()["id"]
    stranger = api_client(make_user())
    assert stranger.get(URL).json() == []
    assert stranger.get(f"{URL}/{app_id}").status_code == 404
    assert stranger.patch(f"{URL}/{app_id}", {"name": "Mine now"}, format="json").status_code == 404
    assert stranger.delete(f"{URL}/{app_id}").status_code == 404
    changed = owner.patch(f"{URL}/{app_id}", {"name": "Hearts Pro"}, format="json")
    assert changed.status_code == 200 and changed.json()["name"] == "Hearts Pro"
    refused = owner.patch(f"{URL}/{app_id}", {"redirect_uris": ["http://evil.example/"]}, format="json")
    assert error_of(refused) == ("invalid_redirect_uri", "redirect_uris")
    assert owner.delete(f"{URL}/{app_id}").status_code == 204
    assert owner.get(URL).json() == []


def test_an_apps_token_cannot_manage_apps(make_user, api_client):
    user = make_user()
    app = app_of(register(api_client(user)))
    verifier, challenge = pkce_pair()
    answer = allow(signed_in(user), app, challenge, "read play")
    token = Client().post("/oauth/token/", token_form(app, code_from(answer["Location"]), verifier)).json()
    client = api_client()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token['access_token']}")
    assert client.get(URL).status_code == 403
    assert register(client).status_code == 403


def test_narrowing_scopes_ends_the_tokens_beyond_them(make_user, api_client):
    user = make_user()
    owner = api_client(user)
    app = app_of(register(owner))
    verifier, challenge = pkce_pair()
    answer = allow(signed_in(make_user()), app, challenge, "read play")
    token = Client().post("/oauth/token/", token_form(app, code_from(answer["Location"]), verifier)).json()
    client = api_client()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token['access_token']}")
    assert client.get("/api/v1/me").status_code == 200
    assert owner.patch(f"{URL}/{app.pk}", {"scopes": ["read"]}, format="json").json()["scopes"] == ["read"]
    assert client.get("/api/v1/me").status_code == 401
    form = {"grant_type": "refresh_token", "refresh_token": token["refresh_token"], "client_id": app.client_id}
    assert Client().post("/oauth/token/", form).status_code == 400


def test_deleting_an_app_ends_its_tokens(make_user, api_client):
    user = make_user()
    owner = api_client(user)
    app = app_of(register(owner))
    verifier, challenge = pkce_pair()
    answer = allow(signed_in(make_user()), app, challenge, "read")
    token = Client().post("/oauth/token/", token_form(app, code_from(answer["Location"]), verifier)).json()
    assert owner.delete(f"{URL}/{app.pk}").status_code == 204
    client = api_client()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token['access_token']}")
    assert client.get("/api/v1/me").status_code == 401
