"""An app acts for a person without their password, in headless Chromium against daphne:
the app (a small web server on another port, and Python for its back end) sends the
person to the authorize page with a PKCE challenge; they sign in on the site, read the
app's name and what it asks for in plain words, and allow it; the app's callback gets
the code, trades it with the verifier for a token, and plays a move with `play`; the
person then takes the app's access back on their settings page.

And the settings page's personal tokens: made with a name and scopes, the secret shown
once, working over the API, then revoked."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qs, urlparse

import httpx
import pytest
from playwright.sync_api import expect

from tests.api.helpers import concrete
from tests.oauth import app_listener, authorize_url, make_app, pkce_pair, token_form

from .conftest import PASSWORD, orm, sign_up, token_of


@pytest.fixture
def app_site() -> Iterator[str]:
    """The app's own site, on a port of its own: its redirect URI answers a page."""
    with app_listener("Score Keeper") as (port, _):
        yield f"http://127.0.0.1:{port}"


def started_room(live_url: str, token: str) -> str:
    """A Hearts room of the person's with three computer players, under way."""
    with httpx.Client(base_url=f"{live_url}/api/v1/", headers={"Authorization": f"Token {token}"}) as client:
        code = client.post("rooms/", json={"game": "hearts"}).json()["code"]
        for _ in range(3):
            assert client.post(f"rooms/{code}/bots", json={}).status_code == 201
        assert client.post(f"rooms/{code}/start").status_code == 200
    return code


def test_an_app_signs_in_with_pkce_and_plays_a_move(open_page, live_url, app_site, shots):
    page = open_page()
    sign_up(page, "carol")
    code = started_room(live_url, token_of(page))
    page.context.clear_cookies()  # the web client's token is its own; the site's session starts empty
    app = orm(lambda: make_app("Score Keeper", redirect_uri=f"{app_site}/callback"))
    verifier, challenge = pkce_pair()

    page.goto(authorize_url(app, challenge, "read play"))
    page.get_by_role("heading", name="Sign in").wait_for()
    shots(page, "sign-in")
    page.get_by_label("Username").fill("carol")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Allow Score Keeper to act for you?")
    scopes = page.locator("ul.scopes li")
    expect(scopes).to_have_count(2)
    expect(scopes.nth(0)).to_have_text("See rooms, game states, events and your profile")
    expect(scopes.nth(1)).to_contain_text("Play for you: make moves")
    shots(page, "authorize")
    page.get_by_role("button", name="Allow").click()

    page.get_by_role("heading", name="You can close this tab").wait_for()
    query = parse_qs(urlparse(page.url).query)
    assert page.url.startswith(f"{app_site}/callback?") and query["state"] == ["st4te"]

    # The app's back end: the code and the verifier for a token, then a move.
    with httpx.Client(base_url=live_url) as client:
        answer = client.post("/oauth/token/", data=token_form(app, query["code"][0], verifier))
        assert answer.status_code == 200, answer.text
        token = answer.json()
        assert set(token["scope"].split()) == {"read", "play"}
        headers = {"Authorization": f"Bearer {token['access_token']}"}
        view = client.get(f"/api/v1/rooms/{code}/state", headers=headers).json()
        assert view["you"]["seat"] == 0
        move = {"version": view["version"], "action": concrete(view["you"]["legal_actions"][0])}
        played = client.post(f"/api/v1/rooms/{code}/actions", json=move, headers=headers)
        assert played.status_code == 200, played.text
        assert played.json()["version"] > view["version"]

    # The person sees the app on their settings page and takes its access back.
    page.goto("/notifications")
    apps = page.locator("section.apps")
    expect(apps.locator(".allowed-app")).to_contain_text("Score Keeper")
    expect(apps.locator(".allowed-app")).to_contain_text("read, play")
    apps.get_by_role("button", name="Take back Score Keeper's access").click()
    expect(apps.locator(".app-list")).to_contain_text("No app acts for you.")
    assert httpx.get(f"{live_url}/api/v1/me", headers=headers).status_code == 401


def test_personal_tokens_are_made_and_revoked_on_the_settings_page(open_page, live_url, shots):
    page = open_page()
    sign_up(page, "dave")
    page.goto("/notifications")
    section = page.locator("section.tokens")
    expect(section.locator(".token-list")).to_contain_text("You have no personal tokens.")
    section.get_by_label("Name").fill("my scoreboard")
    section.get_by_label("play").check()
    section.get_by_role("button", name="Make a token").click()
    secret_box = section.locator(".token-value")
    secret_box.wait_for()
    secret = secret_box.input_value()
    assert secret.startswith("pat_")
    expect(section.locator(".token")).to_have_count(1)
    expect(section.locator(".token")).to_contain_text("my scoreboard")
    expect(section.locator(".token")).to_contain_text("read, play")
    shots(page, "token-made")

    me = httpx.get(f"{live_url}/api/v1/me", headers={"Authorization": f"Bearer {secret}"})
    assert me.status_code == 200 and me.json()["username"] == "dave"

    page.reload()
    expect(page.locator("section.tokens .token")).to_have_count(1)
    assert secret not in page.content()  # shown once, never again
    page.get_by_role("button", name="Revoke my scoreboard").click()
    expect(page.locator("section.tokens .token-list")).to_contain_text("You have no personal tokens.")
    assert httpx.get(f"{live_url}/api/v1/me", headers={"Authorization": f"Bearer {secret}"}).status_code == 401
