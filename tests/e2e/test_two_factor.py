"""Two-step sign-in in the browser, at a phone's size and on a desktop: turned on from the
settings page (the authenticator app's key read from the page, its codes computed here
as an app would), the recovery codes shown once; the log-in form then asks for a code,
and takes a recovery code once; new recovery codes replace the old; turned off with the
password. A guest is told to keep the account first."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
import pyotp
from playwright.sync_api import expect

from .account_pages import SIZES, field_error, fits, guest_in, settings
from .conftest import PASSWORD, sign_up, token_of

APP_CODE = "Code from your authenticator app"


def sign_in(live_url: str, username: str, code: str | None = None) -> httpx.Response:
    body = {"username": username, "password": PASSWORD}
    if code is not None:
        body["code"] = code
    return httpx.post(f"{live_url}/api/v1/auth/token", json=body)


def factors(live_url: str, token: str) -> dict[str, Any]:
    res = httpx.get(f"{live_url}/api/v1/me/factors", headers={"Authorization": f"Token {token}"})
    assert res.status_code == 200, res.text
    return res.json()


def error_code(res: httpx.Response) -> str:
    return res.json()["errors"][0]["code"]


def wrong_code(totp: pyotp.TOTP) -> str:
    """Six digits that are the app's code of no step the server accepts now."""
    now = time.time()
    taken = {totp.at(now + drift) for drift in (-60, -30, 0, 30, 60)}
    return next(code for code in (f"{n:06d}" for n in range(123456, 1_000_000, 111)) if code not in taken)


def next_step() -> None:
    """Wait for the app's next 30-second step: the server takes a step's code only once."""
    step = int(time.time()) // 30
    while int(time.time()) // 30 == step:
        time.sleep(0.2)


def log_out(page: Any) -> None:
    page.get_by_role("navigation", name="Account").get_by_role("button", name="Log out").click()
    page.get_by_role("tab", name="Log in").click()


def log_in(page: Any, username: str) -> None:
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in", exact=True).click()


@SIZES
def test_two_step_sign_in_is_turned_on_asked_at_log_in_and_turned_off(
    open_page: Callable[..., Any], live_url: str, shots: Any, size: dict[str, int]
) -> None:
    page = open_page(**size, permissions=["clipboard-read", "clipboard-write"])
    name = f"tf{size['width']}"
    sign_up(page, name)
    settings(page)
    panel = page.locator("section.two-factor")
    expect(page.locator("section.security").get_by_role("heading", name="Two-step sign-in", level=3)).to_be_visible()
    expect(panel).to_contain_text("Off.")

    # The password first: a wrong one is said under it.
    panel.get_by_role("button", name="Turn on").click()
    expect(panel.get_by_label("Your password")).to_be_focused()
    panel.get_by_label("Your password").fill("not-the-password-1")
    panel.get_by_role("button", name="Continue").click()
    expect(field_error(page, "Your password")).not_to_have_text("")
    expect(panel.get_by_label("Your password")).to_have_attribute("aria-invalid", "true")
    expect(panel.get_by_label("Your password")).to_be_focused()
    shots(page, "wrong-password")
    panel.get_by_label("Your password").fill(PASSWORD)
    panel.get_by_role("button", name="Continue").click()

    # The app's key: as a QR code, a link for an app on this device, and typed.
    expect(panel.get_by_role("heading", name="Add this site to your authenticator app")).to_be_focused()
    qr = panel.get_by_role("img", name="QR code that adds this site to an authenticator app")
    expect(qr).to_be_visible()
    assert (qr.get_attribute("src") or "").startswith("data:image/svg+xml")
    link = panel.get_by_role("link", name="Open it in the authenticator app")
    assert (link.get_attribute("href") or "").startswith("otpauth://totp/")
    secret = (panel.locator(".totp-secret").text_content() or "").replace(" ", "")
    totp = pyotp.TOTP(secret)
    assert secret and secret in (link.get_attribute("href") or "")
    code = panel.get_by_label("Code from the app")
    expect(code).to_have_attribute("autocomplete", "one-time-code")
    expect(code).to_have_attribute("inputmode", "numeric")
    shots(page, "set-up")
    fits(page, size)
    # Not on until a code of the app proves it has the key.
    assert factors(live_url, token_of(page))["totp"] is False

    code.fill(wrong_code(totp))
    panel.get_by_role("button", name="Confirm and turn on").click()
    expect(field_error(page, "Code from the app")).not_to_have_text("")
    expect(code).to_have_attribute("aria-invalid", "true")
    expect(code).to_be_focused()
    code.fill(totp.now())
    panel.get_by_role("button", name="Confirm and turn on").click()

    # The recovery codes, once, and copied as they are shown.
    expect(panel.get_by_role("heading", name="Your recovery codes")).to_be_focused()
    expect(panel).to_contain_text("Keep them somewhere safe")
    shown = panel.get_by_role("list", name="Recovery codes").get_by_role("listitem")
    expect(shown).to_have_count(10)
    codes = [text.strip() for text in shown.all_text_contents()]
    assert all(len(one) == 9 and one[4] == "-" for one in codes), codes
    panel.get_by_role("button", name="Copy").click()
    expect(panel.locator(".copied-codes")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == "\n".join(codes)
    shots(page, "recovery-codes")
    fits(page, size)
    panel.get_by_role("button", name="Done").click()
    expect(panel).to_contain_text("On.")
    expect(panel).to_contain_text("10 recovery codes left.")
    expect(panel.get_by_role("heading", name="Two-step sign-in")).to_be_focused()
    shots(page, "on")
    assert factors(live_url, token_of(page)) == {"totp": True, "passkeys": 0, "recovery_codes_left": 10}
    assert error_code(sign_in(live_url, name)) == "second_factor_required"

    # Logging in now asks for the code, keeping what was typed.
    log_out(page)
    log_in(page, name)
    asked = page.get_by_label(APP_CODE)
    expect(asked).to_be_focused()
    expect(asked).to_have_attribute("autocomplete", "one-time-code")
    expect(asked).to_have_attribute("inputmode", "numeric")
    expect(page.locator(".second-factor")).to_contain_text("recovery codes works too")
    expect(page.get_by_label("Username")).to_have_value(name)
    expect(page.get_by_label("Password")).to_have_value(PASSWORD)
    assert token_of(page) is None
    shots(page, "code-asked")
    fits(page, size)

    # A wrong code is said under the field.
    asked.fill(wrong_code(totp))
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(field_error(page, APP_CODE)).not_to_have_text("")
    expect(asked).to_have_attribute("aria-invalid", "true")
    expect(asked).to_be_focused()
    assert token_of(page) is None
    shots(page, "wrong-code")

    # The app's next code (the one that turned it on is spent) logs in.
    next_step()
    asked.fill(totp.now())
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("navigation", name="Account").get_by_role("button", name="Log out")).to_be_visible()
    assert token_of(page)

    # A recovery code logs in, once.
    log_out(page)
    log_in(page, name)
    page.get_by_role("button", name="Use a recovery code").click()
    recovery = page.get_by_label("Recovery code", exact=True)
    expect(recovery).to_be_focused()
    expect(recovery).to_have_attribute("inputmode", "text")
    recovery.fill(codes[0])
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("navigation", name="Account").get_by_role("button", name="Log out")).to_be_visible()
    assert error_code(sign_in(live_url, name, codes[0])) == "wrong_second_factor"
    assert sign_in(live_url, name, codes[1]).status_code == 200

    # New recovery codes: the old ones stop working.
    settings(page)
    expect(panel).to_contain_text("8 recovery codes left.")
    panel.get_by_role("button", name="New recovery codes").click()
    panel.get_by_label("Your password").fill(PASSWORD)
    panel.get_by_role("button", name="Make new codes").click()
    expect(panel.get_by_role("heading", name="Your recovery codes")).to_be_focused()
    expect(shown).to_have_count(10)
    fresh = [text.strip() for text in shown.all_text_contents()]
    assert not set(fresh) & set(codes)
    panel.get_by_role("button", name="Done").click()
    expect(panel).to_contain_text("10 recovery codes left.")
    assert error_code(sign_in(live_url, name, codes[2])) == "wrong_second_factor"
    assert sign_in(live_url, name, fresh[0]).status_code == 200

    # Turned off with the password: a wrong one changes nothing.
    panel.get_by_role("button", name="Turn off").click()
    panel.get_by_label("Your password").fill("not-the-password-1")
    panel.get_by_role("button", name="Turn off two-step sign-in").click()
    expect(field_error(page, "Your password")).not_to_have_text("")
    assert factors(live_url, token_of(page))["totp"] is True
    panel.get_by_label("Your password").fill(PASSWORD)
    panel.get_by_role("button", name="Turn off two-step sign-in").click()
    expect(panel.get_by_role("status").first).to_have_text("Turned off: your recovery codes no longer work either.")
    expect(panel).to_contain_text("Off.")
    expect(panel.get_by_role("button", name="Turn on")).to_be_visible()
    shots(page, "turned-off")
    fits(page, size)
    assert factors(live_url, token_of(page)) == {"totp": False, "passkeys": 0, "recovery_codes_left": 0}
    assert sign_in(live_url, name).status_code == 200


@SIZES
def test_a_guest_is_told_to_keep_the_account_first(
    open_page: Callable[..., Any], live_url: str, shots: Any, size: dict[str, int]
) -> None:
    page, _ = guest_in(open_page, live_url, size)
    panel = page.locator("section.two-factor")
    expect(panel).to_contain_text("keep your account first")
    expect(panel.get_by_role("button")).to_have_count(0)
    shots(page, "guest")
    fits(page, size)

    # Kept, the account has a password: the panel offers the second step at once.
    box = page.locator("section.password")
    box.get_by_label("Username").fill(f"gk{size['width']}")
    box.get_by_label("Password").fill("another-long-secret-7")
    box.get_by_role("button", name="Keep my account").click()
    expect(panel.get_by_role("button", name="Turn on")).to_be_visible()
    shots(page, "kept")
