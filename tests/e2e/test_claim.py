"""Claiming the rest in the browser: the button is there at every turn of trick play,
asks first, and shows the server's refusal as any refused move."""

from __future__ import annotations

from playwright.sync_api import expect

from games.rules.claims import NOT_CERTAIN_DETAIL

from .conftest import add_bots, create_room, sign_up, table, wait_my_turn


def test_claim_the_rest_asks_then_shows_the_refusal(open_page):
    page = open_page(width=1280, height=900)
    sign_up(page, "clara")
    create_room(page, "hearts")
    add_bots(page, 3)
    page.locator("[data-action=start]").click()
    wait_my_turn(page, ("pass",))
    expect(page.locator("[data-action=claim]")).to_have_count(0)
    for button in page.locator(".hand button").all()[:3]:
        button.click()
    page.locator("[data-action=pass_cards]").click()
    wait_my_turn(page, ("play",))
    claim = page.locator("[data-action=claim]")
    expect(claim).to_have_text("Claim the rest")
    version = table(page).get_attribute("data-version")
    # Said no to the question: nothing is sent.
    page.once("dialog", lambda dialog: dialog.dismiss())
    claim.click()
    expect(page.locator(".toast")).to_have_count(0)
    assert table(page).get_attribute("data-version") == version
    # With 13 tricks to go and three computer players' hands unknown, a claim of them all
    # is refused: the server's sentence shows, and the hand is as it was.
    page.once("dialog", lambda dialog: dialog.accept())
    claim.click()
    expect(page.locator(".toast.error")).to_have_text(NOT_CERTAIN_DETAIL)
    assert table(page).get_attribute("data-version") == version
    expect(page.locator("[data-action=claim]")).to_have_count(1)
