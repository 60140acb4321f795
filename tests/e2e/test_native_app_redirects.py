"""Native apps without an operator, in headless Chromium against a daphne of its own with
DEBUG off and redirects to https only (as in production): RFC 8252's redirects still work.

- A phone app's private-use scheme (`com.example.app:/oauth/callback`): Chromium cannot
  open the scheme, so the authorize answer's redirect is read from the response; the
  code is traded for tokens.
- A person registers an app from Settings (*Apps you made*) with a loopback redirect; the
  app listens on a port the system gave it, which the registration never named, receives
  the code there, trades it and plays a move with the token.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qs, urlencode, urlparse

import httpx
import pytest
from playwright.sync_api import expect

from tests.api.helpers import concrete
from tests.oauth import app_listener, authorize_query, pkce_pair, token_form
from tests.servers import daphne_argv, database_url, free_port, server_env, serving

from .conftest import ARTIFACTS, PASSWORD, sign_up, token_of
from .test_third_party_app import started_room

NATIVE = "com.example.app:/oauth/callback"


@pytest.fixture(scope="module")
def production_url(django_db_setup: Any, django_db_blocker: Any) -> Iterator[str]:
    """A daphne as production runs it, for redirects: DEBUG off, no extra schemes."""
    port = free_port()
    with django_db_blocker.unblock():
        env = server_env(database_url(), DEBUG="0", OAUTH_REDIRECT_SCHEMES="https")
    env["PUBLIC_BASE_URL"] = f"http://127.0.0.1:{port}"
    argv = daphne_argv(port)
    log_path = ARTIFACTS / f"server-native-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    with serving("daphne", argv, port=port, env=env, log_path=log_path) as url:
        yield url


@pytest.fixture
def loopback_listener() -> Iterator[tuple[int, list[str]]]:
    """A listener on a free port, as a desktop app opens one for the answer."""
    with app_listener("Pocket Hearts") as listening:
        yield listening


def sign_in_and_allow(page: Any, base: str, query: dict[str, str], username: str) -> None:
    """The person signs in on the site's page and reads who made the app."""
    page.goto(f"{base}/oauth/authorize/?{urlencode(query)}")
    page.get_by_role("heading", name="Sign in").wait_for()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Allow Pocket Hearts to act for you?")


def test_a_private_use_scheme_gets_the_code(open_page, production_url, shots):
    page = open_page(base_url=production_url)
    sign_up(page, "erin")
    with httpx.Client(base_url=production_url, headers={"Authorization": f"Token {token_of(page)}"}) as api:
        made = api.post(
            "/api/v1/me/apps/made", json={"name": "Pocket Hearts", "redirect_uris": [NATIVE], "scopes": ["read"]}
        )
        assert made.status_code == 201, made.text
        # Plain http to another host stays refused with DEBUG off.
        refused = api.post(
            "/api/v1/me/apps/made",
            json={"name": "Web", "redirect_uris": ["http://hearts.example/cb"], "scopes": ["read"]},
        )
        assert refused.status_code == 400 and refused.json()["errors"][0]["code"] == "invalid_redirect_uri"
    app = SimpleNamespace(client_id=made.json()["client_id"], redirect_uris=NATIVE)
    verifier, challenge = pkce_pair()
    page.context.clear_cookies()

    sign_in_and_allow(page, production_url, authorize_query(app, challenge, "read"), "erin")
    expect(page.locator(".made-by")).to_have_text("Made by erin")
    expect(page.locator(".redirect-target")).to_have_text("the app com.example.app on this device")
    shots(page, "authorize-native")
    with page.expect_response(lambda r: "/oauth/authorize/" in r.url and r.request.method == "POST") as answer:
        page.get_by_role("button", name="Allow").click()
    location = answer.value.headers["location"]
    assert location.startswith(NATIVE + "?"), location
    query = parse_qs(urlparse(location).query)
    assert query["state"] == ["st4te"]

    trade = httpx.post(f"{production_url}/oauth/token/", data=token_form(app, query["code"][0], verifier))
    assert trade.status_code == 200, trade.text
    me = httpx.get(f"{production_url}/api/v1/me", headers={"Authorization": f"Bearer {trade.json()['access_token']}"})
    assert me.status_code == 200 and me.json()["username"] == "erin"


def test_an_app_registered_in_settings_plays_through_a_loopback_redirect(
    open_page, production_url, loopback_listener, shots
):
    port, received = loopback_listener
    page = open_page(base_url=production_url)
    sign_up(page, "frank")
    code = started_room(production_url, token_of(page))

    page.goto("/notifications")
    section = page.locator("section.made-apps")
    expect(section.locator(".made-app-list")).to_contain_text("You have registered no apps.")
    section.get_by_label("Name people will see").fill("Pocket Hearts")
    section.get_by_label("Redirect URIs, one a line").fill("http://127.0.0.1/callback")
    section.get_by_label("play").check()
    section.get_by_role("button", name="Register the app").click()
    expect(section.locator(".made-app")).to_have_count(1)
    expect(section.locator(".made-app")).to_contain_text("read, play")
    shots(page, "app-registered")
    client_id = section.locator(".made-app-client-id").inner_text()

    # The app asks with the port the system gave it; the registration named none.
    redirect = f"http://127.0.0.1:{port}/callback"
    app = SimpleNamespace(client_id=client_id, redirect_uris=redirect)
    verifier, challenge = pkce_pair()
    page.context.clear_cookies()
    sign_in_and_allow(page, production_url, authorize_query(app, challenge, "read play"), "frank")
    expect(page.locator(".made-by")).to_have_text("Made by frank")
    expect(page.locator(".redirect-target")).to_have_text("a program on this device (127.0.0.1)")
    page.get_by_role("button", name="Allow").click()
    page.get_by_role("heading", name="You can close this tab").wait_for()
    [path] = [got for got in received if got.startswith("/callback")]  # not the browser's /favicon.ico
    query = parse_qs(urlparse(path).query)
    assert urlparse(path).path == "/callback" and query["state"] == ["st4te"]

    with httpx.Client(base_url=production_url) as client:
        answer = client.post("/oauth/token/", data=token_form(app, query["code"][0], verifier))
        assert answer.status_code == 200, answer.text
        headers = {"Authorization": f"Bearer {answer.json()['access_token']}"}
        view = client.get(f"/api/v1/rooms/{code}/state", headers=headers).json()
        move = {"version": view["version"], "action": concrete(view["you"]["legal_actions"][0])}
        played = client.post(f"/api/v1/rooms/{code}/actions", json=move, headers=headers)
        assert played.status_code == 200, played.text
        assert played.json()["version"] > view["version"]
