"""A forgotten password under the README's own `make run` (SQLite, the filesystem
broker, mails written to var/mail/), as a newcomer lives it: an address set and
confirmed from the mailed link, then on another device "Forgot your password?", the
reset link read from var/mail/, a new password, and the old one no longer signing in."""

from __future__ import annotations

import email
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect

from .conftest import PASSWORD, MakeRun, sign_up, token_of

NEW_PASSWORD = "a-new-horse-42"


def mails_in(mail_dir: Path, to: str | None = None) -> list[str]:
    """The texts of the mails Django's file backend wrote to `mail_dir` (several a file,
    each followed by a line of dashes; bodies quoted-printable), those to `to` alone if
    given (the server is shared: other tests' mails land there too)."""
    texts = []
    for name in sorted(mail_dir.glob("*")):
        for raw in name.read_text(errors="replace").split("\n" + "-" * 79 + "\n"):
            if raw.strip():
                message = email.message_from_string(raw.lstrip())
                if to is not None and str(message["To"]).lower() != to.lower():
                    continue
                payload = message.get_payload(decode=True)
                texts.append(payload.decode() if isinstance(payload, bytes) else "")
    return texts


def mailed_link(mail_dir: Path, path: str, seen: int = 0, to: str | None = None) -> str:
    """The link to `path` in a mail the server wrote to `mail_dir` (to `to`, if given),
    waiting for the worker to send it (the request only queues it); the (seen+1)th such
    link."""
    pattern = re.compile(r"(http://127\.0\.0\.1:\d+" + re.escape(path) + r"\S+)")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = [m for text in mails_in(mail_dir, to) for m in pattern.findall(text)]
        if len(found) > seen:
            return found[seen]
        time.sleep(0.2)
    raise AssertionError(f"no mail with a {path} link in {mail_dir} within 60 s")


def test_a_newcomer_resets_a_forgotten_password_from_the_mail_in_var_mail(
    make_run_page: Callable[..., Any], make_run: MakeRun
) -> None:
    mail_dir = Path(make_run.env["VAR_DIR"]) / "mail"
    phone = make_run_page(390, 844)
    sign_up(phone, "forgetful")
    api = httpx.Client(
        base_url=f"{make_run.url}/api/v1/", headers={"Authorization": f"Token {token_of(phone)}"}, timeout=30
    )
    assert api.patch("me/notifications", json={"email_address": "forgetful@example.org"}).status_code == 200
    phone.goto(mailed_link(mail_dir, "/confirm-email#", to="forgetful@example.org"))
    deadline = time.monotonic() + 15
    while not api.get("me/notifications").json()["email_confirmed"]:
        assert time.monotonic() < deadline, "the confirmation link did not confirm the address"
        time.sleep(0.2)

    laptop = make_run_page(1280, 800)
    laptop.goto("/")
    laptop.get_by_role("tab", name="Log in").click()
    laptop.get_by_role("button", name="Forgot your password?").click()
    laptop.get_by_label("E-mail address").fill("Forgetful@example.org")
    laptop.get_by_role("button", name="E-mail me a link").click()
    expect(laptop.locator(".reset-sent")).to_be_visible()

    laptop.goto(mailed_link(mail_dir, "/reset-password#", to="forgetful@example.org"))
    laptop.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    laptop.get_by_label("New password again").fill(NEW_PASSWORD)
    laptop.get_by_role("button", name="Save my new password").click()
    expect(laptop.get_by_role("button", name="Create the room")).to_be_visible()

    # The phone was signed out; the old password no longer signs in, the new one does.
    assert api.get("me").status_code == 401
    sign_in = httpx.post(f"{make_run.url}/api/v1/auth/token", json={"username": "forgetful", "password": PASSWORD})
    assert sign_in.status_code == 401
    again = make_run_page(390, 844)
    again.goto("/")
    again.get_by_role("tab", name="Log in").click()
    again.get_by_label("Username").fill("forgetful")
    again.get_by_label("Password").fill(NEW_PASSWORD)
    again.get_by_role("button", name="Log in", exact=True).click()
    expect(again.get_by_role("button", name="Create the room")).to_be_visible()
    # A "your password was changed" notice went to the address too.
    deadline = time.monotonic() + 30
    while not any(
        "password of the account forgetful" in text and "was just changed" in text for text in mails_in(mail_dir)
    ):
        assert time.monotonic() < deadline, "no mail told the address that the password changed"
        time.sleep(0.2)
