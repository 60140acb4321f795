"""Moon in the browser: dominoes drawn with pips, the auction, trumps, the widow taken
and a tile discarded (asked once), the hand played out to its result."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import add_bots, click_and_wait, create_room, hand_codes, play_piece, sign_up, wait_my_turn

# Every tile here is played by a tap: these run again on a loaded machine (scripts/test.sh).
pytestmark = pytest.mark.plays


def test_a_moon_hand_with_the_widow(open_page, shots):
    page = open_page()
    sign_up(page, "maya")
    create_room(page, "moon")
    add_bots(page, 2)
    page.locator("[data-action=start]").click()

    widow_taken = False
    for _hand in range(4):
        phase = wait_my_turn(page)
        while phase not in ("round_over", "match_over"):
            if phase == "bid":
                tiles = page.locator(".hand .domino")
                expect(tiles).to_have_count(7)
                # Tiles are drawn with their pips: as many dots as the code says.
                for code in hand_codes(page):
                    high, low = (int(x) for x in code.split("-"))
                    dots = page.locator(f".hand button[data-code='{code}'] circle.dot")
                    expect(dots).to_have_count(high + low)
                expect(page.locator("[data-action=pass]")).to_be_enabled()
                shots(page, "bid")
                # The highest bid open (7, or moon after someone else's 7) wins the auction.
                click_and_wait(page, page.locator("[data-action=bid]:not([disabled])").last)
            elif phase == "trump":
                expect(page.locator("[data-action=trump]")).to_have_count(7)
                shots(page, "trump")
                click_and_wait(page, page.locator("[data-action=trump][data-value='5']"))
            elif phase == "widow":
                widow = page.locator(".widow-panel .domino")
                expect(widow).to_be_visible()
                before = hand_codes(page)
                assert len(before) == 8  # the seven tiles and the widow, any of them the discard
                expect(page.locator(".hand .widow-tile")).to_have_count(1)
                shots(page, "widow")
                discard = before[0]

                # Taking the widow asks once: the tile is raised, the button sends it.
                def raise_then_read(tile):
                    tile.click()
                    confirm = page.locator("[data-action=confirm-move]")
                    expect(confirm).to_have_text(re.compile(r"^Take the widow and discard "))

                play_piece(page, discard, tap=raise_then_read)
                expect(page.locator(".info")).to_contain_text("taken")
                after = hand_codes(page)
                assert len(after) == 7 and discard not in after
                widow_taken = True
            elif phase == "play":
                expect(page.locator(".info")).to_contain_text("Trumps")
                legal = page.locator(".hand button:not([disabled])")
                left = len(hand_codes(page))
                play_piece(page, legal.first.get_attribute("data-code"))
                if left == 4:
                    shots(page, "play")
            phase = wait_my_turn(page)
        if widow_taken:
            break
        click_and_wait(page, page.get_by_role("button", name="Next hand"))
    assert widow_taken, "the player never won an auction"

    results = page.get_by_role("region", name="Result of the hand")
    expect(results).to_contain_text("The widow was taken")
    expect(results.locator("tbody tr")).to_have_count(3)
    tricks = [int(results.locator("tbody tr").nth(i).locator("td").first.inner_text()) for i in range(3)]
    assert sum(tricks) == 7
    expect(page.locator(".score-sheet")).to_contain_text("Contract")
    shots(page, "results")
