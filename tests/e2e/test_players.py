"""A player's page and the leaderboard in the browser, at a phone's size and on a desktop."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, new_match, orm, play_by_api, sign_up, token_of


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

    # The name in the top bar is the way to one's own page.
    page.goto("/")
    page.get_by_role("navigation", name="Account").get_by_role("link", name="pia").click()
    expect(page).to_have_url(f"{live_url}/players/pia")
    counts = re.compile(r"1 match played, [01] won, 0 abandoned\.")
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
    expect(page.locator(".leaderboard .empty")).to_be_visible()
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
