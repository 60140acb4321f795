"""The README's `make run`, exactly as a newcomer starts it — SQLite, kombu's filesystem
broker, the in-memory channel layer, the default one-second computer players — and a
hand of Hearts against three computer players in the browser at a phone's size.

Computer players move in the Celery worker, a process other than the one that serves
the page's socket; each of their moves must reach the page within about a second,
without a reload and without the page falling back to polling.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect

from .conftest import (
    ARTIFACTS,
    MakeRun,
    Shots,
    add_bots,
    create_room,
    sign_up,
    table,
    token_of,
)

# What the page may take to show a change the worker committed: the socket process reads
# versions every half second; the rest is the page fetching and drawing its view.
SHOWN_WITHIN_MS = 2000


def wait_until_mine(api: httpx.Client, code: str, me: int) -> dict[str, Any]:
    """Poll the API (not the page) until the server says it is my turn to play a card,
    or the hand is over."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        view = api.get(f"rooms/{code}/state").json()
        if (view["phase"] == "play" and me in view["to_act"]) or view["phase"] == "round_over":
            return view
        time.sleep(0.1)  # 600 requests a minute, half the default throttle
    raise AssertionError("the computer players did not move within 30 s")


def test_a_hand_against_computer_players_under_make_run(make_run_page: Callable[..., Any], make_run: MakeRun) -> None:
    page = make_run_page(390, 844)
    shots = Shots(ARTIFACTS / "make_run_hand")
    sign_up(page, "newcomer")
    code = create_room(page, "hearts")
    add_bots(page, 3)
    page.locator("[data-action=start]").click()
    token = token_of(page)
    # The same player also has the table open on a desktop: every open page follows.
    desk = make_run_page(1280, 800)
    desk.add_init_script(f"localStorage.setItem('tt.token', {token!r})")
    desk.goto(f"/join/{code}")
    table(desk).wait_for()
    pages = (page, desk)
    for p in pages:
        p.evaluate("window.ttNotReloaded = true")  # gone if the page reloads
    headers = {"Authorization": f"Token {token}"}
    with httpx.Client(base_url=f"{make_run.url}/api/v1/", headers=headers, timeout=10) as api:
        me = api.get(f"rooms/{code}/state").json()["you"]["seat"]

        # A file in the broker's folder that is not a message (as a message half written
        # once was) is dropped; the worker, and so the computer players, go on.
        (Path(make_run.env["VAR_DIR"]) / "broker" / "0_stray.celery.msg").write_bytes(b"")
        page.locator("section.table[data-my-turn=true][data-phase=pass]").wait_for()
        hand = page.locator(".hand button")
        for i in range(3):
            hand.nth(i).click()
        shots(page, "pass")
        page.locator("[data-action=pass_cards]").click()

        lags, played = [], 0
        while True:
            # The computers move in the worker; the server says when it is my turn again...
            view = wait_until_mine(api, code, me)
            said = time.monotonic()
            # ...and the page, listening on its socket, shows it within about a second.
            for p in pages:
                expect(table(p)).to_have_attribute("data-version", str(view["version"]), timeout=SHOWN_WITHIN_MS)
                expect(p.locator("[data-live]").first).to_have_text("live")
            lags.append(time.monotonic() - said)
            if view["phase"] == "round_over":
                break
            assert table(page).get_attribute("data-my-turn") == "true", f"the server says it is my turn: {view}"
            legal = page.locator(".hand button:not([disabled])")
            card = legal.first.get_attribute("data-code")
            legal.first.click()
            expect(page.locator(f".hand button[data-code='{card}']")).to_have_count(0)
            played += 1
            assert played <= 13
        assert played == 13
        for p in pages:
            expect(table(p)).to_have_attribute("data-phase", "round_over")
        shots(page, "result")
        shots(desk, "result-desktop")
    for p in pages:
        assert p.evaluate("window.ttNotReloaded === true"), "a page reloaded"
    print(f"page behind the server by {max(lags):.2f} s at most, {sum(lags) / len(lags):.2f} s on average")
