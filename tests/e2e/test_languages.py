"""The page in its person's language (#45): a browser set to Hindi gets the page in
Hindi and an account that speaks it; the account's language, changed in Settings,
follows the person to another device whatever that browser's own; the service worker
keeps the catalogue of the page's words once fetched."""

from __future__ import annotations

import time
from functools import cache
from pathlib import Path
from typing import Any

import polib
from django.conf import settings
from playwright.sync_api import expect

from tests.e2e.conftest import PASSWORD


@cache
def words(language: str) -> dict[str, str]:
    """The web client's words in `language`, as its catalogue has them."""
    path = Path(settings.LOCALE_PATHS[0]) / language / "LC_MESSAGES" / "djangojs.po"
    return {e.msgid: e.msgstr for e in polib.pofile(str(path)) if not e.msgctxt and not e.msgid_plural}


def said(language: str, english: str) -> str:
    return english if language == "en" else words(language)[english]


SETTINGS = {code: said(code, "Settings") for code in ("en", "es", "hi")}


def account_bar(page: Any) -> Any:
    return page.locator("nav#account")


def test_a_hindi_browser_plays_in_hindi_and_the_account_s_choice_follows_the_person(open_page: Any) -> None:
    hindi = open_page(locale="hi-IN")
    hindi.goto("/")
    expect(hindi.locator("html")).to_have_attribute("lang", "hi")
    # The sign-in form in Hindi.
    hindi.get_by_role("tab", name=said("hi", "Sign up")).click()
    hindi.get_by_label(said("hi", "Username")).fill("asha")
    hindi.get_by_label(said("hi", "Password")).fill(PASSWORD)
    hindi.get_by_role("button", name=said("hi", "Sign up")).last.click()
    expect(account_bar(hindi).get_by_role("link", name=SETTINGS["hi"])).to_be_visible()

    # Settings: the language, named in itself.
    account_bar(hindi).get_by_role("link", name=SETTINGS["hi"]).click()
    choice = hindi.get_by_role("combobox", name=said("hi", "Language"), exact=True)
    expect(choice).to_have_value("hi")
    choice.select_option("es")
    expect(account_bar(hindi).get_by_role("link", name=SETTINGS["es"])).to_be_visible()
    expect(hindi.locator("html")).to_have_attribute("lang", "es")
    expect(hindi.get_by_role("heading", name=SETTINGS["es"], level=1)).to_be_visible()
    hindi.reload()
    expect(account_bar(hindi).get_by_role("link", name=SETTINGS["es"])).to_be_visible()

    # Another device, set to English: once signed in, the account's Spanish.
    english = open_page(locale="en-US")
    english.goto("/")
    expect(english.locator("html")).to_have_attribute("lang", "en")
    english.get_by_role("tab", name="Log in").click()
    english.get_by_label("Username").fill("asha")
    english.get_by_label("Password").fill(PASSWORD)
    english.get_by_role("button", name="Log in", exact=True).click()
    expect(account_bar(english).get_by_role("link", name=SETTINGS["es"])).to_be_visible()
    expect(english.locator("html")).to_have_attribute("lang", "es")


# The catalogues the service worker keeps (web/worker/sw.js), by path.
KEPT_CATALOGUES = """async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) return [];
    const kept = await (await caches.open("catalogues")).keys();
    return kept.map((request) => new URL(request.url).pathname);
}"""


def test_the_worker_keeps_the_catalogue_and_answers_it_once_kept(open_page: Any) -> None:
    page = open_page(locale="hi-IN")
    page.goto("/")
    address = page.evaluate("JSON.parse(document.body.dataset.languages).hi.url")
    assert address.startswith("/i18n/hi/")
    # The first load came before the worker; the next loads pass through it, which keeps
    # the catalogue (60 s at most, by the clock: a loaded machine installs slowly).
    deadline = time.monotonic() + 60
    while address not in page.evaluate(KEPT_CATALOGUES):
        assert time.monotonic() < deadline, "the worker never kept the catalogue"
        page.reload()
        page.wait_for_timeout(300)

    heard: list[tuple[str, bool]] = []
    page.on("response", lambda r: heard.append((r.url, r.from_service_worker)) if "/i18n/" in r.url else None)
    page.reload()
    expect(page.get_by_role("tab", name=said("hi", "Sign up"))).to_be_visible()
    assert [from_worker for url, from_worker in heard if url.endswith(address)] == [True]
