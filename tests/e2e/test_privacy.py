"""Privacy in the browser, at a phone's size and on a desktop: asking for a copy of one's
data (mailed as a link to the confirmed address, at most so often), and closing the
account behind a step that says what it does, then restoring it by logging in."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from playwright.sync_api import expect

from .account_pages import (
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
from .conftest import PASSWORD, sign_up, token_of


def ask_for_export(page: Any) -> Any:
    """Click the export's button; the API's answer to it."""
    with page.expect_response(lambda r: r.url.endswith("/api/v1/me/export")) as answer:
        page.locator("section.data-export").get_by_role("button", name="E-mail me a link to my data").click()
    return answer.value


def detail(response: Any) -> str:
    body = response.json()
    return body["detail"] if "detail" in body else " ".join(e["detail"] for e in body["errors"])


def code(response: Any) -> str:
    return response.json()["errors"][0]["code"]


@SIZES
def test_the_data_is_asked_for_once_an_address_is_confirmed_and_not_again_so_soon(
    open_page: Callable[..., Any], live_url: str, shots: Any, size: dict[str, int]
) -> None:
    page = open_page(**size)
    name = f"ex{size['width']}"
    sign_up(page, name)
    settings(page)
    privacy = page.locator("section.privacy")
    expect(privacy.get_by_role("heading", name="Privacy", level=2)).to_be_visible()
    # Last on the page.
    assert page.locator(".settings > *").last.get_attribute("class") == "settings-group privacy"
    box = privacy.locator("section.data-export")
    expect(box.get_by_role("heading", name="Download your data", level=3)).to_be_visible()
    # Located by class: an empty line is not shown, so not in the accessibility tree.
    status, alert = box.locator(".export-status"), box.locator("#export-error")
    expect(status).to_have_attribute("role", "status")
    expect(alert).to_have_attribute("role", "alert")

    # No confirmed address to mail the link to: the server says what to do.
    answer = ask_for_export(page)
    assert (answer.status, code(answer)) == (409, "no_confirmed_address")
    expect(alert).to_have_text(detail(answer))
    expect(alert).to_be_focused()
    expect(status).to_have_text("")
    shots(page, "no-address")
    fits(page, size)

    # Confirmed: the archive is on its way.
    confirmed_address(name, f"{name}@example.org")
    answer = ask_for_export(page)
    assert answer.status == 202
    expect(status).to_have_text(detail(answer))
    expect(status).to_be_focused()
    expect(alert).to_have_text("")
    shots(page, "asked")

    # Once more at once: too soon.
    answer = ask_for_export(page)
    assert (answer.status, code(answer)) == (429, "export_requested_recently")
    expect(alert).to_have_text(detail(answer))
    expect(alert).to_be_focused()
    expect(status).to_have_text("")
    shots(page, "too-soon")
    fits(page, size)


@SIZES
def test_the_account_closes_after_its_password_and_logging_in_restores_it(
    open_page: Callable[..., Any], live_url: str, shots: Any, size: dict[str, int]
) -> None:
    page = open_page(**size)
    name = f"cl{size['width']}"
    sign_up(page, name)
    own = token_of(page)
    elsewhere = sign_in_token(live_url, name)
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.url.endswith("/me/close") else None)
    settings(page)
    box = page.locator("section.close-account")
    expect(box.get_by_role("heading", name="Close your account", level=3)).to_be_visible()
    opener = box.get_by_role("button", name="Close my account…")
    expect(opener).to_have_attribute("aria-expanded", "false")
    expect(box.get_by_label("Your password")).to_have_count(0)
    expect(box.get_by_role("button", name="Close my account", exact=True)).to_have_count(0)

    # The first button only says what closing does, and asks for the password.
    opener.click()
    expect(box.get_by_role("heading", name="Before you close it", level=4)).to_be_focused()
    step = box.locator(".close-consequences")
    expect(step).to_contain_text("computer players")
    expect(step).to_contain_text("closed account N")
    expect(step).to_contain_text("After 7 days your personal data is erased")
    expect(step).to_contain_text("Logging in with your password within those 7 days restores your account.")
    confirm = box.get_by_role("button", name="Close my account", exact=True)
    expect(confirm).to_have_class("danger")
    expect(box.get_by_label("Your password")).to_be_visible()
    shots(page, "asked-to-confirm")
    fits(page, size)
    # Cancel folds it away, back to the first button.
    box.get_by_role("button", name="Cancel").click()
    expect(box.get_by_label("Your password")).to_have_count(0)
    expect(opener).to_be_focused()
    expect(opener).to_have_attribute("aria-expanded", "false")
    opener.click()
    assert sent == []

    # A wrong password: said under the field, and the account stays open.
    box.get_by_label("Your password").fill("not-the-password-1")
    confirm.click()
    expect(field_error(page, "Your password")).not_to_have_text("")
    expect(box.get_by_label("Your password")).to_have_attribute("aria-invalid", "true")
    expect(box.get_by_label("Your password")).to_be_focused()
    shots(page, "wrong-password")
    assert me(live_url, own).status_code == 200
    assert len(sent) == 1

    # The right one: closed, signed out here and everywhere, and told until when to come back.
    box.get_by_label("Your password").fill(PASSWORD)
    with page.expect_response(lambda r: r.url.endswith("/api/v1/me/close")) as answer:
        confirm.click()
    assert answer.value.status == 200
    until = answer.value.json()["restorable_until"]
    heading = page.get_by_role("heading", name="Your account is closed", level=1)
    expect(heading).to_be_focused()
    expect(page).to_have_title("Account closed · Trick-taking tables")
    date = page.locator(".closed-account time")
    expect(date).to_have_attribute("datetime", until)
    shown = page.evaluate(
        "iso => new Date(iso).toLocaleString(undefined, { dateStyle: 'long', timeStyle: 'short' })", until
    )
    expect(page.locator(".closed-account .restore")).to_have_text(
        f"Changed your mind? Log in with your password before {shown} and your account is restored as it was. "
        "After that, your personal data is erased for good."
    )
    left = datetime.fromisoformat(until) - datetime.now(UTC)
    assert timedelta(days=6, hours=23) < left <= timedelta(days=7)
    expect(page.get_by_role("navigation", name="Account").locator(".who")).to_have_count(0)
    assert token_of(page) is None
    assert me(live_url, own).status_code == 401
    assert me(live_url, elsewhere).status_code == 401
    shots(page, "closed")
    fits(page, size)

    # Logging in with the password, from that page, opens it again.
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("heading", name="Settings", level=1)).to_be_visible()
    expect(page.get_by_role("navigation", name="Account").locator(".who")).to_have_text(name)
    again = token_of(page)
    assert again and again != own
    assert me(live_url, again).status_code == 200
    assert me(live_url, own).status_code == 401
    assert api_sign_in(live_url, name).status_code == 200
    shots(page, "restored")


@SIZES
def test_a_guest_closes_the_account_without_a_password(
    open_page: Callable[..., Any], live_url: str, shots: Any, size: dict[str, int]
) -> None:
    page, guest_token = guest_in(open_page, live_url, size)
    box = page.locator("section.close-account")
    box.get_by_role("button", name="Close my account…").click()
    expect(box.get_by_role("heading", name="Before you close it", level=4)).to_be_focused()
    expect(box.locator(".close-consequences")).to_contain_text("it cannot be restored: closing it is final")
    expect(box.get_by_label("Your password")).to_have_count(0)
    expect(box.get_by_role("textbox")).to_have_count(0)
    shots(page, "guest-asked")
    fits(page, size)

    with page.expect_request(lambda r: r.url.endswith("/api/v1/me/close")) as request:
        box.get_by_role("button", name="Close my account", exact=True).click()
    assert request.value.post_data_json == {"password": ""}
    expect(page.get_by_role("heading", name="Your account is closed", level=1)).to_be_focused()
    expect(page.locator(".closed-account .restore")).to_contain_text("A guest account cannot be restored.")
    expect(page.locator(".closed-account time")).to_have_count(1)
    assert token_of(page) is None
    assert me(live_url, guest_token).status_code == 401
    shots(page, "guest-closed")
    fits(page, size)
