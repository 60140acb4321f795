"""Hearts in the browser: a whole hand against three computer players, from the sign-up
to the results table."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import add_bots, create_room, hand_codes, sign_up, table, wait_my_turn


# TODO: the shooter's moon choice is drawn (two buttons from legal_actions) but no e2e test
# reaches it: a moon needs a fixed deal, which the public API cannot ask for.
def test_a_hearts_hand_from_room_creation_to_the_results(open_page, shots):
    page = open_page()
    sign_up(page, "alice")
    shots(page, "home")
    create_room(page, "hearts")
    expect(page.get_by_label("Invite link")).to_have_value(re.compile(r"/join/\w+$"))
    expect(page.get_by_role("img", name=re.compile("QR code"))).to_be_visible()
    add_bots(page, 3)
    shots(page, "lobby")
    page.locator("[data-action=start]").click()

    # The pass: three cards chosen from the hand; the button waits for exactly three.
    assert wait_my_turn(page, ("pass",)) == "pass"
    confirm = page.locator("[data-action=pass_cards]")
    expect(confirm).to_be_disabled()
    hand = page.locator(".hand button")
    expect(hand).to_have_count(13)
    passed = [hand.nth(i).get_attribute("data-code") for i in range(3)]
    for i in range(3):
        hand.nth(i).click()
    expect(hand.nth(3)).to_be_disabled()  # a fourth card cannot be chosen
    shots(page, "pass")
    confirm.click()

    # Play: only the legal cards are enabled; the 2♣ holder must lead it.
    wait_my_turn(page, ("play",))
    expect(page.locator(".note")).to_contain_text("You received")
    held = hand_codes(page)
    assert len(held) == 13 and not set(passed) & set(held)
    shots(page, "play")
    for trick in range(13):
        wait_my_turn(page, ("play", "round_over"))
        if table(page).get_attribute("data-phase") == "round_over":
            break
        legal = page.locator(".hand button:not([disabled])")
        if trick == 0 and page.locator(".hand button[data-code='2C']").count():
            expect(legal).to_have_count(1)
            expect(legal).to_have_attribute("data-code", "2C")
        version = int(table(page).get_attribute("data-version"))
        card = legal.first.get_attribute("data-code")
        if trick == 1:
            # Keyboard play: cards are real buttons; after the move the focus stays at the table.
            legal.first.focus()
            page.keyboard.press("Enter")
        else:
            legal.first.click()
        expect(page.locator(f".hand button[data-code='{card}']")).to_have_count(0)
        assert int(table(page).get_attribute("data-version")) > version
        if trick == 1:
            assert page.evaluate("document.querySelector('main').contains(document.activeElement)")
        if trick == 6:
            shots(page, "mid-hand")

    # The results: this hand's points and the score sheet, from last_round and GET rounds.
    expect(table(page)).to_have_attribute("data-phase", "round_over")
    results = page.get_by_role("region", name="Result of the hand")
    expect(results).to_contain_text("Hand 1 result")
    rows = results.locator("tbody tr")
    expect(rows).to_have_count(4)
    points = [int(rows.nth(i).locator("td").nth(1).inner_text()) for i in range(4)]
    # 26 points a hand, or a moon's 78 (3 x 26) without the no-trick bonus in standard rules.
    assert sum(points) in (26, 78)
    expect(page.locator(".score-sheet")).to_contain_text("Score sheet (1 hand)")
    shots(page, "results")

    # The next hand starts when this player says so (the computer players already have).
    page.get_by_role("button", name="Next hand").click()
    wait_my_turn(page, ("pass",))
    expect(page.get_by_role("heading", name=re.compile("hand 2"))).to_be_visible()
    expect(page.locator(".actions")).to_contain_text("pass right")
    shots(page, "hand-2")
