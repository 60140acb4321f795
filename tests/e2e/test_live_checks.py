"""The page does not trust its socket alone: a notice that never comes, or a socket that
stays open but silent, costs at most the quiet check's interval, never a frozen table."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.elsewhere import add_bot_elsewhere
from tests.servers import database_url

from .conftest import create_room, sign_up

CHECK_MS = 1000  # the page's quiet check, shortened for the test (10 s by default)


def computers(page: Any) -> Any:
    return page.locator(".lobby-seat .badge", has_text="computer")


def test_a_change_nobody_announced_reaches_the_page_through_its_quiet_check(open_page):
    page = open_page()
    page.add_init_script(f"window.ttLiveCheckMs = {CHECK_MS}")
    sign_up(page, "quiet")
    code = create_room(page, "hearts")
    expect(page.locator("[data-live]").first).to_have_text("live")
    add_bot_elsewhere(database_url(), code, "quiet")
    # Only the check's ping can tell: the process that made the change announced nothing.
    expect(computers(page)).to_have_count(1, timeout=3 * CHECK_MS + 2000)
    expect(page.locator("[data-live]").first).to_have_text("live")


def test_a_socket_that_stops_answering_is_dropped_for_polling(open_page):
    page = open_page()
    page.add_init_script(f"window.ttLiveCheckMs = {CHECK_MS}")
    silenced = {"on": False}

    def relay(ws: Any) -> None:
        # Between the page and the server: once silenced, nothing from the server gets
        # through, and the socket stays open — like a connection that died without a close.
        server = ws.connect_to_server()
        ws.on_message(server.send)
        server.on_message(lambda message: None if silenced["on"] else ws.send(message))

    page.route_web_socket("**/ws/rooms/**", relay)
    sign_up(page, "silent")
    code = create_room(page, "hearts")
    expect(page.locator("[data-live]").first).to_have_text("live")
    silenced["on"] = True
    # No answer to the check: the page stops trusting the socket and polls, trying a new
    # socket now and then (which the relay silences too): either is said while it polls.
    # On a busy machine the check's timer fires late, so the wait allows more than it.
    status = page.locator("[data-live]").first
    expect(status).not_to_have_text("live", timeout=4 * CHECK_MS + 6000)
    expect(status).to_have_text(re.compile(r"^(reconnecting \(polling\)|connecting…)$"))
    # What matters: a change still reaches the page, by polling.
    add_bot_elsewhere(database_url(), code, "silent")
    expect(computers(page)).to_have_count(1, timeout=15_000)
