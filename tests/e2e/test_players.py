"""A player's page and the leaderboard in the browser, at a phone's size and on a desktop."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.api.helpers import concrete

from .axe import assert_none, check
from .conftest import DESKTOP, PHONE, create_room, new_match, orm, play_by_api, sign_up, table, token_of


def rate(ratings: list[tuple[str, str, float, int]]) -> None:
    """Hearts ratings as the ratings app keeps them (username, display name, shown,
    matches); enough rated matches to make the leaderboard takes too long to play here.
    """
    from accounts.models import User
    from ratings.models import Rating

    def work() -> None:
        for username, display, shown, matches in ratings:
            user = User.objects.filter(username=username).first() or User.objects.create_user(
                username=username, password="a-long-secret-9", display_name=display
            )
            Rating.objects.create(user=user, game="hearts", mu=shown + 6, sigma=2, shown=shown, matches=matches)

    orm(work)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_profile_and_leaderboard(open_page, live_url, shots, size):
    page = open_page(**size)
    sign_up(page, "pia")
    token = token_of(page)
    code = new_match(live_url, token, "hearts", {"target": 50}, bots=3)
    play_by_api(live_url, token, code, lambda v: v["status"] == "finished")
    rate([("pia", "Pia", 21.5, 6), ("quinn", "Quinn", 30.25, 12), ("ruth", "Ruth", 10.0, 7)])

    # The top bar leads to the leaderboard, and the name in it to one's own page.
    page.goto("/")
    page.get_by_role("navigation", name="Account").get_by_role("link", name="Leaderboard").click()
    expect(page.get_by_role("heading", name="Leaderboard", level=1)).to_be_visible()
    page.goto("/")
    page.get_by_role("navigation", name="Account").get_by_role("link", name="pia").click()
    expect(page).to_have_url(f"{live_url}/players/pia")
    counts = re.compile(r"1 match finished, [01] of them won\.")
    expect(page.locator(".match-counts")).to_have_text(counts, timeout=10_000)
    expect(page.locator(".ratings tr[data-game=hearts] td").first).to_have_text("21.5")
    matches = page.locator(".match-list .match")
    expect(matches).to_have_count(1)
    expect(matches.first).to_have_attribute("data-code", code)
    expect(matches.first.locator(".match-players")).to_contain_text("Computer 2")
    shots(page, "profile")
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    matches.first.get_by_role("link", name="Replay").click()
    page.locator("section.replay").wait_for()
    expect(page.locator(".replay-hand li")).to_have_count(52)

    page.goto("/players/pia")
    page.locator(".leaderboards").get_by_role("link", name="Hearts").click()
    expect(page).to_have_url(f"{live_url}/leaderboard?game=hearts")
    rows = page.locator(".board tbody tr")
    expect(rows).to_have_count(3)
    assert rows.evaluate_all("rs => rs.map(r => r.dataset.username)") == ["quinn", "pia", "ruth"]
    expect(rows.first.locator("td").nth(1)).to_have_text("30.3")
    shots(page, "leaderboard")
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    page.get_by_label("Game").select_option("moon")
    expect(page.locator(".leaderboard .empty")).to_contain_text("a player is listed after 5 rated matches")
    expect(page).to_have_url(f"{live_url}/leaderboard?game=moon")
    page.get_by_label("Game").select_option("hearts")
    rows.first.get_by_role("link", name="Quinn").click()
    expect(page).to_have_url(f"{live_url}/players/quinn")
    expect(page.locator(".profile h1")).to_have_text("Quinn @quinn")
    expect(page.locator(".no-ratings")).to_have_count(0)
    expect(page.locator(".match-list")).to_have_count(0)


def test_an_unknown_player(open_page):
    page = open_page()
    sign_up(page, "sol")
    page.goto("/players/nobody-here")
    expect(page.get_by_role("alert")).to_have_attribute("data-code", "not_found")


def play_out_together(live_url: str, tokens: list[str], code: str) -> dict[str, Any]:
    """Each person acts through the API when it is their turn (their first legal
    action), until the match is over; the last view."""
    base = f"{live_url}/api/v1/"
    clients = [httpx.Client(base_url=base, headers={"Authorization": f"Token {t}"}, timeout=30) for t in tokens]
    try:
        for _ in range(3000):
            for client in clients:
                view = client.get(f"rooms/{code}/state").json()
                if view["status"] != "playing":
                    return view
                legal = view["you"]["legal_actions"]
                if legal:
                    body = {"version": view["version"], "action": concrete(legal[0])}
                    res = client.post(f"rooms/{code}/actions", json=body)
                    assert res.status_code == 200 or res.json()["errors"][0]["code"] == "stale_version", res.text
        raise AssertionError("the match did not end in 3000 rounds of turns")
    finally:
        for client in clients:
            client.close()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_match_made_with_the_forms_defaults_by_two_people_is_rated(make_run_page, make_run, size):
    """On the README's own `make run`, as a newcomer's first evening goes."""
    host = make_run_page(size["width"], size["height"])
    sign_up(host, f"rory{size['width']}")
    # The form leaves `rated` to the server unless the host chooses: "Automatic".
    host.get_by_label("Game", exact=True).select_option("kali_tidi")
    expect(host.get_by_label("Rated", exact=True)).to_have_value("null")
    code = create_room(host, "kali_tidi", lambda p: p.get_by_label("Players", exact=True).select_option("2"))
    expect(host.locator(".rated-note")).to_have_text("Rated if every seat is a person when the match starts.")
    guest = make_run_page(size["width"], size["height"])
    sign_up(guest, f"sam{size['width']}")
    guest.goto(f"/rooms/{code}")
    guest.locator("[data-action=join]:not([disabled])").first.click()
    expect(host.locator(".lobby-seat", has_text=f"sam{size['width']}")).to_be_visible()
    host.locator("[data-action=start]").click()
    table(host).wait_for()

    play_out_together(make_run.url, [token_of(host), token_of(guest)], code)
    for page, name in ((host, f"rory{size['width']}"), (guest, f"sam{size['width']}")):
        page.goto(f"/players/{name}")
        expect(page.locator(".ratings tr[data-game=kali_tidi]")).to_be_visible(timeout=10_000)
        expect(page.locator(".no-ratings")).to_have_count(0)

    # The match's result and its replay, as axe reads them on `make run`
    # (test_accessibility.py checks the other pages there).
    found: dict[str, list[dict[str, Any]]] = {}
    host.goto(f"/rooms/{code}")
    expect(host.locator(".results")).to_be_visible()
    check(host, "the match's result", found)
    host.goto(f"/replay/{code}")
    host.locator("section.replay").wait_for()
    check(host, "replay", found)
    assert_none(found)
