"""Claiming the rest in the browser: the button is offered exactly where the claim holds
(never at the first play of a hand, whose other hands the player cannot know), asks
first, and once accepted the hand is played out to its result."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import add_bots, create_room, play_by_api, sign_up, table, token_of, wait_my_turn

CLAIM = {"type": "claim"}


def test_claim_the_rest_is_offered_where_it_holds_asks_then_ends_the_hand(open_page, live_url):
    page = open_page(width=1280, height=900)
    sign_up(page, "clara")
    code = create_room(page, "hearts")
    add_bots(page, 3)
    page.locator("[data-action=start]").click()
    wait_my_turn(page, ("pass",))
    expect(page.locator("[data-action=claim]")).to_have_count(0)
    for button in page.locator(".hand button").all()[:3]:
        button.click()
    page.locator("[data-action=pass_cards]").click()
    wait_my_turn(page, ("play",))
    # Thirteen tricks to go, three hands unseen: no claim holds, none is offered.
    expect(page.locator(".hand button").first).to_be_visible()
    expect(page.locator("[data-action=claim]")).to_have_count(0)

    # Played on through the API (the page follows) until a claim holds for her: by the
    # last trick at the latest, where her card takes it whatever is still to come.
    view = play_by_api(live_url, token_of(page), code, lambda v: CLAIM in v.get("you", {}).get("legal_actions", []))
    claim = page.locator("[data-action=claim]")
    expect(claim).to_have_text("Claim the rest")
    expect(table(page)).to_have_attribute("data-version", str(view["version"]))
    # Asked on the page (never the browser's dialog), the question takes the focus;
    # "Play on" sends nothing and gives the focus back.
    page.on("dialog", lambda dialog: pytest.fail(f"a browser dialog: {dialog.message}"))
    claim.click()
    question = page.get_by_role("group", name="Claim the rest?")
    expect(question).to_be_visible()
    expect(page.locator("[data-action=claim-yes]")).to_be_focused()
    page.locator("[data-action=claim-no]").click()
    expect(question).to_be_hidden()
    expect(claim).to_be_focused()
    expect(page.locator(".toast")).to_have_count(0)
    assert table(page).get_attribute("data-version") == str(view["version"])
    # Said yes: the rest is played out, and the hand's result shows.
    claim.click()
    page.locator("[data-action=claim-yes]").click()
    # (Hearts' result, or the shooter's choice had she taken every point.)
    expect(table(page)).to_have_attribute("data-phase", re.compile("^(round_over|moon_choice|match_over)$"))
    expect(page.locator(".toast.error")).to_have_count(0)
