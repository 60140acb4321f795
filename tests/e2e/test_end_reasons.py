"""Why a table ended, in the reader's language (#45): the server keeps the cause as a
code (the view's `status_cause`, the ending event's `cause`) beside its own English
words, and the page says it in the page's language: a Spanish player reads a
moderator's closing in Spanish (the moderator's own words as written), a Hindi player
reads in Hindi that they did not play in time, on the banner, the announcer and the log."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone
from playwright.sync_api import expect

from games import selectors
from games.services import due, table_moderation

from .conftest import PASSWORD, new_match, orm, table, token_of
from .test_languages import said


def sign_up_in(page: Any, language: str, username: str) -> None:
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.get_by_role("tab", name=said(language, "Sign up")).click()
    page.get_by_label(said(language, "Username")).fill(username)
    page.get_by_label(said(language, "Password")).fill(PASSWORD)
    page.get_by_role("button", name=said(language, "Sign up")).last.click()
    page.get_by_role("button", name=said(language, "Create the room")).wait_for()


def test_each_reader_is_told_why_the_table_ended_in_their_language(open_page: Any, live_url: str) -> None:
    # A moderator closes a Spanish player's table.
    sofia = open_page(locale="es-MX")
    sign_up_in(sofia, "es", "sofia")
    code = new_match(live_url, token_of(sofia), "hearts", {}, bots=3)
    sofia.goto(f"/join/{code}")
    expect(table(sofia)).to_have_attribute("data-status", "playing")
    orm(lambda: table_moderation.room_close(code=code, reason="nombre ofensivo"))
    sofia.reload()
    expect(table(sofia)).to_have_attribute("data-status", "closed")
    closing = said("es", "Closed by a moderator: %(reason)s") % {"reason": "nombre ofensivo"}
    banner = sofia.locator(".banner.match-ended")
    expect(banner).to_contain_text(said("es", "Room closed."))
    expect(banner.locator(".status-reason")).to_have_text(closing)
    expect(sofia.locator(".log li").first).to_have_text(closing)

    # A Hindi player's own idleness ends theirs.
    asha = open_page(locale="hi-IN")
    sign_up_in(asha, "hi", "asha")
    options = {"turn_seconds": 30, "abandon_seconds": 60}
    code = new_match(live_url, token_of(asha), "kali_tidi", options, bots=3)

    def run_out() -> None:
        # An hour on, whatever is due is done: the computer players' bids, then her time.
        for _ in range(20):
            if selectors.table_of(code=code).room.status == "abandoned":
                return
            due.due_actions_apply(code=code, now=timezone.now() + timedelta(hours=1))
        raise AssertionError("the match was not abandoned")

    orm(run_out)
    asha.goto(f"/join/{code}")
    expect(table(asha)).to_have_attribute("data-status", "abandoned")
    ended = said("hi", "You did not play in time; the match was abandoned.")
    expect(asha.locator(".banner.match-ended .status-reason")).to_have_text(ended)
    expect(asha.locator("#turn-announcer")).to_have_text(ended)
    expect(asha.locator(".log li").first).to_have_text(ended)
    # The API's own words stay the server's English, beside the code each client words.
    view = orm(lambda: selectors.view_by_code(code=code, user=None))
    assert view["status_cause"] == {"code": "idle", "seat": 0, "words": None}
    assert view["status_reason"].endswith("did not play in time; the match was abandoned.")
