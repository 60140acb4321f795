"""What the account pages' browser tests share: the two sizes, signing in over the API,
the settings page, and the checks every page passes (nothing sticks out, axe)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from .axe import violations
from .conftest import PASSWORD, orm

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
SIZES = pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "desktop"])

FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
NEW_PASSWORD = "another-long-secret-7"


def api_sign_in(live_url: str, username: str, password: str = PASSWORD, user_agent: str = FIREFOX) -> httpx.Response:
    return httpx.post(
        f"{live_url}/api/v1/auth/token",
        json={"username": username, "password": password},
        headers={"User-Agent": user_agent},
    )


def sign_in_token(live_url: str, username: str, user_agent: str = FIREFOX) -> str:
    res = api_sign_in(live_url, username, user_agent=user_agent)
    assert res.status_code == 200, res.text
    return res.json()["token"]


def me(live_url: str, token: str) -> httpx.Response:
    return httpx.get(f"{live_url}/api/v1/me", headers={"Authorization": f"Token {token}"})


def fits(page: Any, size: dict[str, int]) -> None:
    """Nothing sticks out sideways, and axe finds nothing serious."""
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    found = violations(page)
    assert not found, found


def settings(page: Any) -> None:
    page.goto("/notifications")
    page.locator(".settings").wait_for()


def field_error(page: Any, label: str) -> Any:
    """The error line of the field labelled `label`: in the field, tied to its input."""
    return page.locator(".field", has=page.get_by_label(label, exact=True)).locator(".field-error")


def confirmed_address(username: str, address: str) -> None:
    """`address` confirmed as the account's own, as its mailed link would (test_notifications)."""
    from accounts.models import User
    from notifications.models import NotificationSettings

    def work() -> None:
        user = User.objects.get(username=username)
        NotificationSettings.objects.update_or_create(
            user=user, defaults={"email_address": address, "email_confirmed_address": address}
        )

    orm(work)


def guest_in(open_page: Callable[..., Any], live_url: str, size: dict[str, int], name: str = "Gus") -> tuple[Any, str]:
    """A guest named `name` signed in on a page of its own at `size`, on the settings
    page; the page and the guest's token."""
    res = httpx.post(f"{live_url}/api/v1/auth/guest", json={"display_name": name})
    assert res.status_code == 201, res.text
    token = res.json()["token"]
    page = open_page(**size)
    page.goto("/")
    page.evaluate("token => localStorage.setItem('tt.token', token)", token)
    settings(page)
    return page, token
