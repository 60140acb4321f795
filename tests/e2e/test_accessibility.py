"""Every page of the web client, at a phone's size and on a desktop, checked by axe-core
(the accessibility engine browsers' own audits use), run in the page as a person sees it:
no serious or critical violation of WCAG 2.x A and AA anywhere.
It runs on the production-like server and on the README's own `make run`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from .axe import AXE, assert_none, check
from .conftest import DESKTOP, PHONE, add_bots, create_room, new_match, play_by_api, sign_up, table, token_of


def first_evening(make_page: Callable[[], Any], url: str, name: str, found: dict[str, list[dict[str, Any]]]) -> Any:
    """The pages of a person's first evening, each checked as it is shown: home signed out
    and in, a lobby, the invite, a table of each game, the settings, a player's page, the
    leaderboard and the confirmation page. The host's page, for more."""
    visitor = make_page()
    visitor.goto("/")
    expect(visitor.get_by_role("tab", name="Log in")).to_be_visible()
    check(visitor, "home, signed out", found)

    host = make_page()
    sign_up(host, name)
    check(host, "home", found)
    code = create_room(host, "kali_tidi")
    expect(host.locator(".lobby")).to_be_visible()
    check(host, "lobby", found)

    visitor.goto(f"/join/{code}")
    expect(visitor.get_by_role("heading", name="You're invited to a table")).to_be_visible()
    check(visitor, "invite", found)

    add_bots(host, 3)
    host.locator("[data-action=start]").click()
    table(host).wait_for(timeout=30_000)
    check(host, "Kali Tidi table", found)

    token = token_of(host)
    for game, options, bots in (("hearts", {"target": 30}, 3), ("moon", {}, 2)):
        played = new_match(url, token, game, options, bots=bots)
        host.goto(f"/rooms/{played}")
        table(host).wait_for(timeout=30_000)
        check(host, f"{game} table", found)

    for path, ready, where in (
        ("/notifications", ".settings", "settings"),
        (f"/players/{name}", ".match-counts", "player page"),
        ("/leaderboard?game=hearts", ".leaderboard", "leaderboard"),
        ("/confirm-email", "main h1", "confirm e-mail"),
    ):
        host.goto(path)
        host.locator(ready).first.wait_for()
        check(host, where, found)
    return host


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_no_page_has_a_serious_accessibility_violation(open_page, live_url, size):
    assert AXE.exists(), "npm ci installs axe-core (package.json)"
    found: dict[str, list[dict[str, Any]]] = {}
    host = first_evening(lambda: open_page(**size), live_url, f"ally{size['width']}", found)
    # A hand's result and a finished match's replay (the computer players move at once here).
    token = token_of(host)
    hearts = new_match(live_url, token, "hearts", {"target": 30}, bots=3)
    play_by_api(live_url, token, hearts, lambda v: v["phase"] in ("round_over", "match_over"))
    host.goto(f"/rooms/{hearts}")
    expect(host.locator(".results")).to_be_visible()
    check(host, "a hand's result", found)
    play_by_api(live_url, token, hearts, lambda v: v["status"] == "finished")
    host.goto(f"/replay/{hearts}")
    host.locator("section.replay").wait_for()
    check(host, "replay", found)
    assert_none(found)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_no_page_has_a_serious_accessibility_violation_under_make_run(make_run_page, make_run, size):
    """The same pages on the README's own `make run` (SQLite, its own static files, the
    one-second computer players); a result and a replay are checked there after two
    people's match (test_players.py), where no computer player makes it slow."""
    assert AXE.exists(), "npm ci installs axe-core (package.json)"
    found: dict[str, list[dict[str, Any]]] = {}
    first_evening(lambda: make_run_page(size["width"], size["height"]), make_run.url, f"axel{size['width']}", found)
    assert_none(found)
