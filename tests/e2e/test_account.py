"""The account in the browser, at a phone's size and on a desktop: where it is signed in
(this device and the others, each ended from the settings page, or all but this one),
its display name, its password changed, and a forgotten password reset by the mailed
link's page (`/reset-password#<token>`)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import expect

from .account_pages import (
    NEW_PASSWORD,
    PHONE,
    SIZES,
    api_sign_in,
    confirmed_address,
    field_error,
    fits,
    guest_in,
    me,
    settings,
    sign_in_token,
)
from .conftest import PASSWORD, orm, sign_up, token_of


@SIZES
def test_sign_ins_are_listed_and_ended_one_by_one_or_all_but_this_one(
    open_page: Callable[..., Any], live_url: str, shots: Any, size: dict[str, int]
) -> None:
    page = open_page(**size)
    name = f"sig{size['width']}"
    sign_up(page, name)
    own = token_of(page)
    firefox = sign_in_token(live_url, name)
    unnamed = sign_in_token(live_url, name, user_agent="")

    settings(page)
    expect(page.get_by_role("heading", name="Security", level=2)).to_be_visible()
    section = page.locator("section.sign-ins")
    expect(section.get_by_role("heading", name="Where you're signed in", level=3)).to_be_visible()
    items = section.locator(".sign-in")
    expect(items).to_have_count(3)
    # This device: how it began, no button to end it (Log out does).
    here = section.locator(".sign-in.current")
    expect(here).to_have_count(1)
    expect(here).to_contain_text("This device")
    expect(here).to_contain_text("Signed up")
    expect(here.get_by_role("button")).to_have_count(0)
    # The others: the browser the API was told of, its network, and the one that named none.
    other = items.filter(has_text="Firefox on Linux")
    expect(other).to_contain_text("Logged in with the password from 127.0.0.0/24")
    expect(other).to_contain_text("last used not yet")
    expect(items.filter(has_text="Unknown device")).to_have_count(1)
    # The apps and tokens acting for the account are in the same section.
    security = page.locator("section.security")
    expect(security.get_by_role("heading", name="Apps acting for you", level=3)).to_be_visible()
    expect(security.get_by_role("heading", name="Personal access tokens", level=3)).to_be_visible()
    shots(page, "sign-ins")
    fits(page, size)

    # Ending one: its token stops working, the others go on.
    other.get_by_role("button", name=re.compile(r"^End the sign-in on Firefox on Linux, started ")).click()
    expect(section.get_by_role("status")).to_have_text("Signed out on Firefox on Linux.")
    expect(items).to_have_count(2)
    expect(section.get_by_role("heading", name="Where you're signed in")).to_be_focused()
    assert me(live_url, firefox).status_code == 401
    assert me(live_url, unnamed).status_code == 200
    assert me(live_url, own).status_code == 200

    # Everywhere else: only this one is left, and no button to end others.
    section.get_by_role("button", name="Sign out everywhere else").click()
    expect(section.get_by_role("status")).to_have_text("Signed out on 1 other device.")
    expect(items).to_have_count(1)
    expect(items.first).to_contain_text("This device")
    expect(section.get_by_role("button", name="Sign out everywhere else")).to_be_hidden()
    assert me(live_url, unnamed).status_code == 401
    assert me(live_url, own).status_code == 200
    shots(page, "signed-out-elsewhere")

    # Logging out here ends this one too.
    page.get_by_role("navigation", name="Account").get_by_role("button", name="Log out").click()
    expect(page.get_by_role("tab", name="Log in")).to_be_visible()
    assert me(live_url, own).status_code == 401


@SIZES
def test_the_display_name_changes_then_waits_a_week(
    open_page: Callable[..., Any], live_url: str, shots: Any, size: dict[str, int]
) -> None:
    page = open_page(**size)
    name = f"dn{size['width']}"
    sign_up(page, name)
    settings(page)
    account = page.locator("section.account")
    expect(account.get_by_role("heading", name="Account", level=2)).to_be_visible()
    expect(account.locator(".current-name")).to_have_text(name)
    expect(account.get_by_label("New display name")).to_be_enabled()
    expect(account).to_contain_text("You can change it once a week.")
    # Another tab, opened before the change, for the server's refusal after it.
    later = page.context.new_page()
    later.goto("/notifications")
    later.get_by_label("New display name").wait_for()

    # Refused by the server: its words under the field.
    account.get_by_label("New display name").fill("ab\u202ecd")
    account.get_by_role("button", name="Change my name").click()
    expect(field_error(page, "New display name")).not_to_have_text("")
    expect(account.get_by_label("New display name")).to_have_attribute("aria-invalid", "true")
    expect(account.get_by_label("New display name")).to_be_focused()
    shots(page, "name-refused")

    account.get_by_label("New display name").fill("Nadia B")
    account.get_by_role("button", name="Change my name").click()
    expect(account.get_by_role("status").filter(has_text="Saved")).to_have_text(
        "Saved: other players now see you as Nadia B."
    )
    expect(account.locator(".current-name")).to_have_text("Nadia B")
    # The top bar says so at once; the next change waits, and the page says until when.
    expect(page.get_by_role("navigation", name="Account").locator(".who")).to_have_text("Nadia B")
    expect(account).to_contain_text("you can change it again from")
    expect(account.get_by_label("New display name")).to_be_disabled()
    expect(account.get_by_role("button", name="Change my name")).to_be_disabled()
    assert me(live_url, token_of(page)).json()["display_name"] == "Nadia B"
    shots(page, "name-changed")
    fits(page, size)

    # The tab that still offers the change is told by the server when it may be.
    later.get_by_label("New display name").fill("Nadia C")
    later.get_by_role("button", name="Change my name").click()
    expect(later.locator(".display-name .form-error:not(:empty)").first).to_be_visible()
    assert me(live_url, token_of(page)).json()["display_name"] == "Nadia B"
    page.reload()
    expect(page.locator("section.account .current-name")).to_have_text("Nadia B")
    expect(page.get_by_label("New display name")).to_be_disabled()


@SIZES
def test_the_password_is_changed_with_the_current_one(
    open_page: Callable[..., Any], live_url: str, shots: Any, size: dict[str, int]
) -> None:
    page = open_page(**size)
    name = f"pw{size['width']}"
    sign_up(page, name)
    own = token_of(page)
    elsewhere = sign_in_token(live_url, name)
    made = httpx.post(
        f"{live_url}/api/v1/me/tokens",
        json={"name": "my script", "scopes": ["read"]},
        headers={"Authorization": f"Token {own}"},
    )
    assert made.status_code == 201, made.text
    script = {"Authorization": f"Bearer {made.json()['token']}"}
    assert httpx.get(f"{live_url}/api/v1/me", headers=script).status_code == 200
    settings(page)
    expect(page.locator(".token-list .token")).to_have_count(1)
    password = page.locator("section.password")
    expect(password.get_by_role("heading", name="Password", level=3)).to_be_visible()
    expect(password.get_by_role("checkbox", name="Sign out my other devices")).to_be_checked()

    # A wrong current password: said under it, and nothing changes.
    password.get_by_label("Current password").fill("not-the-password-1")
    password.get_by_label("New password").fill(NEW_PASSWORD)
    password.get_by_role("button", name="Change my password").click()
    # Checking a password is slow on purpose (its hash); a loaded machine is slower still.
    expect(field_error(page, "Current password")).not_to_have_text("", timeout=30_000)
    expect(password.get_by_label("Current password")).to_have_attribute("aria-invalid", "true")
    expect(password.get_by_label("Current password")).to_be_focused()
    described = password.get_by_label("Current password").get_attribute("aria-describedby") or ""
    assert "current-password-error" in described.split()
    shots(page, "wrong-password")
    assert api_sign_in(live_url, name).status_code == 200

    # A password the server finds weak: said under the new one.
    password.get_by_label("Current password").fill(PASSWORD)
    password.get_by_label("New password").fill("password")
    password.get_by_role("button", name="Change my password").click()
    expect(field_error(page, "New password")).not_to_have_text("")
    expect(field_error(page, "Current password")).to_have_text("")
    expect(password.get_by_label("New password")).to_be_focused()

    # The right one: changed, the other devices signed out, this one kept.
    password.get_by_label("New password").fill(NEW_PASSWORD)
    password.get_by_role("button", name="Change my password").click()
    expect(password.get_by_role("status")).to_contain_text("Your password is changed.")
    expect(password.get_by_label("Current password")).to_have_value("")
    expect(page.locator(".field-error:not(:empty)")).to_have_count(0)
    # What acted for the account elsewhere is gone from the page as from the server.
    expect(page.locator("section.sign-ins .sign-in")).to_have_count(1)
    expect(page.locator(".token-list")).to_have_text("You have no personal tokens.")
    shots(page, "password-changed")
    fits(page, size)
    assert me(live_url, elsewhere).status_code == 401
    assert httpx.get(f"{live_url}/api/v1/me", headers=script).status_code == 401
    assert me(live_url, own).status_code == 200
    assert api_sign_in(live_url, name).status_code != 200
    assert api_sign_in(live_url, name, password=NEW_PASSWORD).status_code == 200


@SIZES
def test_a_guest_keeps_the_account_with_a_username_and_password(
    open_page: Callable[..., Any], live_url: str, shots: Any, size: dict[str, int]
) -> None:
    page, guest_token = guest_in(open_page, live_url, size)
    guest_id = me(live_url, guest_token).json()["id"]
    box = page.locator("section.password")
    expect(box).to_contain_text("A guest account has no password")
    expect(box.get_by_label("Current password")).to_have_count(0)
    expect(page.locator("section.account .current-name")).to_have_text("Gus")
    fits(page, size)
    name = f"gus{size['width']}"
    # A common password is refused under its field, and nothing changes.
    box.get_by_label("Username").fill(name)
    box.get_by_label("Password").fill("password1")  # among the common ones
    box.get_by_role("button", name="Keep my account").click()
    expect(field_error(page, "Password")).not_to_be_empty()
    assert me(live_url, guest_token).json()["is_guest"] is True
    box.get_by_label("Password").fill(NEW_PASSWORD)
    box.get_by_role("button", name="Keep my account").click()
    expect(page.locator(".toast")).to_contain_text(f"log in as {name}")
    shots(page, "guest-kept")
    # The same sign-in goes on, now an account's; the password signs in elsewhere.
    kept = me(live_url, guest_token).json()
    assert (kept["username"], kept["is_guest"], kept["id"]) == (name, False, guest_id)
    assert api_sign_in(live_url, name, password=NEW_PASSWORD).status_code == 200
    expect(page.locator("section.password").get_by_label("Current password")).to_be_visible()


@SIZES
def test_a_forgotten_password_asks_for_a_link_and_says_the_same_for_any_address(
    open_page: Callable[..., Any], live_url: str, shots: Any, size: dict[str, int]
) -> None:
    owner = open_page(**size)
    name = f"fp{size['width']}"
    sign_up(owner, name)
    confirmed_address(name, f"{name}@example.org")

    said = []
    for address in (f"{name}@example.org", f"nobody{size['width']}@example.org"):
        page = open_page(**size)
        page.goto("/")
        page.get_by_role("tab", name="Log in").click()
        page.get_by_role("button", name="Forgot your password?").click()
        expect(page.get_by_role("heading", name="Forgot your password?")).to_be_visible()
        expect(page.get_by_label("E-mail address")).to_be_focused()
        fits(page, size)
        page.get_by_label("E-mail address").fill(address)
        with page.expect_response(lambda r: r.url.endswith("/api/v1/auth/password-reset")) as answer:
            page.get_by_role("button", name="E-mail me a link").click()
        assert answer.value.status == 202
        status = page.locator(".reset-sent")
        expect(status).to_have_text(answer.value.json()["detail"])
        expect(status).to_have_attribute("role", "status")
        said.append(status.text_content())
        shots(page, "link-asked")
        # And back to the log-in form.
        page.get_by_role("button", name="Back to log in").click()
        expect(page.get_by_role("button", name="Log in", exact=True)).to_be_visible()
    assert said[0] and said[0] == said[1]


@SIZES
def test_the_reset_page_checks_the_two_passwords_and_says_when_its_link_does_not_work(
    open_page: Callable[..., Any], live_url: str, shots: Any, size: dict[str, int]
) -> None:
    page = open_page(**size)
    page.goto("/reset-password#1-not-a-real-token")
    expect(page.get_by_role("heading", name="Choose a new password", level=1)).to_be_visible()
    expect(page).to_have_url(re.compile(r"/reset-password$"))  # the token leaves the address bar
    expect(page).to_have_title("Choose a new password · Trick-taking tables")
    fits(page, size)

    # Two different passwords: said in the browser, nothing sent.
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "password-reset" in r.url else None)
    page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("New password again").fill(NEW_PASSWORD + "x")
    page.get_by_role("button", name="Save my new password").click()
    expect(field_error(page, "New password again")).to_have_text("The two passwords are not the same.")
    expect(page.get_by_label("New password again")).to_be_focused()
    assert asked == []

    # The same twice: the server refuses the token, and the page offers a new link.
    page.get_by_label("New password again").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Save my new password").click()
    expect(page.get_by_role("heading", name="This link does not work", level=1)).to_be_visible()
    expect(page.get_by_role("alert").filter(has_text=re.compile(r"\S"))).to_have_count(1)
    expect(page.get_by_role("heading", name="Ask for a new link")).to_be_visible()
    expect(page.get_by_role("button", name="E-mail me a link")).to_be_visible()
    shots(page, "bad-link")
    fits(page, size)
    assert auth_token(page) is None

    # A link without its token says so too.
    page.goto("/reset-password")
    expect(page.get_by_role("heading", name="This link has no reset code")).to_be_visible()
    expect(page.get_by_label("E-mail address")).to_be_visible()


def auth_token(page: Any) -> str | None:
    return page.evaluate("localStorage.getItem('tt.token')")


@SIZES
def test_a_good_reset_link_sets_the_password_signs_in_here_and_out_everywhere_else(
    open_page: Callable[..., Any], live_url: str, shots: Any, size: dict[str, int]
) -> None:
    from accounts.models import User
    from accounts.passwords import reset_token

    first = open_page(**size)
    name = f"rs{size['width']}"
    sign_up(first, name)
    before = token_of(first)
    elsewhere = sign_in_token(live_url, name)
    token = orm(lambda: reset_token(User.objects.get(username=name)))

    page = open_page(**size)
    page.goto(f"/reset-password#{token}")
    page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("New password again").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Save my new password").click()
    # Home, signed in with the new sign-in.
    expect(page.get_by_role("button", name="Create the room")).to_be_visible()
    expect(page).to_have_url(f"{live_url}/")
    expect(page.get_by_role("navigation", name="Account").locator(".who")).to_have_text(name)
    expect(page.locator(".toast")).to_contain_text("Your password is changed")
    shots(page, "reset-done")
    now = auth_token(page)
    assert now and now != before
    assert me(live_url, now).status_code == 200
    assert me(live_url, before).status_code == 401
    assert me(live_url, elsewhere).status_code == 401
    assert api_sign_in(live_url, name).status_code != 200
    assert api_sign_in(live_url, name, password=NEW_PASSWORD).status_code == 200

    # The link worked once.
    again = open_page(**size)
    again.goto(f"/reset-password#{token}")
    again.get_by_label("New password", exact=True).fill(NEW_PASSWORD + "2")
    again.get_by_label("New password again").fill(NEW_PASSWORD + "2")
    again.get_by_role("button", name="Save my new password").click()
    expect(again.get_by_role("heading", name="This link does not work")).to_be_visible()


def test_a_late_refusal_of_the_logged_out_token_leaves_the_next_log_in_alone(
    open_page: Callable[..., Any], live_url: str
) -> None:
    """The home page's two lists are asked for with the token, and answered (held here)
    only after logging out, when the server refuses that token: the first answer comes
    while the log-in form is being typed into, the second after logging in again. Neither
    is the kept token's, so neither redraws the form, ends the new sign-in or says an
    error on the page that replaced the one that asked."""
    page = open_page(**PHONE)
    held: list[Any] = []

    def hold(route: Any) -> None:
        if len(held) < 2:
            held.append(route)
        else:
            route.continue_()

    page.route(lambda url: url.endswith(("/api/v1/rooms/", "/api/v1/rooms/?mine=1")), hold)
    name = "latecomer"
    sign_up(page, name)
    old = token_of(page)
    deadline = time.monotonic() + 30
    while len(held) < 2 and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert len(held) == 2, "the home page's lists were not asked for"

    page.get_by_role("navigation", name="Account").get_by_role("button", name="Log out").click()
    page.get_by_role("tab", name="Log in").click()
    form = page.get_by_role("form", name="Log in")
    page.get_by_label("Username").fill(name)
    assert token_of(page) is None
    assert me(live_url, old).status_code == 401

    def answer_late(route: Any) -> None:
        """Let the held request through and wait until the page has read its 401."""
        with page.expect_response(lambda res: res.request == route.request) as answered:
            route.continue_()
        assert answered.value.status == 401
        answered.value.finished()
        # Whatever the page does with the answer it does within its next few frames.
        page.evaluate("() => new Promise((done) => setTimeout(done, 300))")

    page.evaluate("document.querySelector('form[aria-label=\"Log in\"]').dataset.kept = 'yes'")
    answer_late(held[0])
    expect(form).to_have_attribute("data-kept", "yes")
    expect(page.get_by_label("Username")).to_have_value(name)
    expect(page.get_by_role("tab", name="Log in")).to_have_attribute("aria-selected", "true")
    expect(page.locator(".toast")).to_have_count(0)

    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("button", name="Create the room")).to_be_visible()
    new = token_of(page)
    assert new and new != old
    answer_late(held[1])
    assert token_of(page) == new
    expect(page.get_by_role("navigation", name="Account").get_by_role("button", name="Log out")).to_be_visible()
    expect(page.get_by_role("button", name="Create the room")).to_be_visible()
    expect(page.locator(".toast")).to_have_count(0)
