"""The page in its person's language (#45): a browser set to Hindi gets the page in
Hindi and an account that speaks it; the account's language, changed in Settings,
follows the person to another device whatever that browser's own."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.e2e.conftest import PASSWORD

# The account bar's link to the settings, in each language (locale/*/djangojs.po).
SETTINGS = {"en": "Settings", "es": "Ajustes", "hi": "सेटिंग्स", "gu": "સેટિંગ્સ"}


def account_bar(page: Any) -> Any:
    return page.locator("nav#account")


def test_a_hindi_browser_plays_in_hindi_and_the_account_s_choice_follows_the_person(open_page: Any) -> None:
    hindi = open_page(locale="hi-IN")
    hindi.goto("/")
    expect(hindi.locator("html")).to_have_attribute("lang", "hi")
    hindi.get_by_role("tab", name="Sign up").click()
    hindi.get_by_label("Username").fill("asha")
    hindi.get_by_label("Password").fill(PASSWORD)
    hindi.get_by_role("button", name="Sign up").last.click()
    expect(account_bar(hindi).get_by_role("link", name=SETTINGS["hi"])).to_be_visible()

    # Settings: the language, named in itself.
    account_bar(hindi).get_by_role("link", name=SETTINGS["hi"]).click()
    choice = hindi.get_by_label("भाषा", exact=True)
    expect(choice).to_have_value("hi")
    choice.select_option("es")
    expect(account_bar(hindi).get_by_role("link", name=SETTINGS["es"])).to_be_visible()
    expect(hindi.locator("html")).to_have_attribute("lang", "es")
    expect(hindi.get_by_role("heading", name="Ajustes", level=1)).to_be_visible()
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
