"""Hearts in the browser: a whole hand against three computer players, from the sign-up
to the results table; the funky pass; the shooter's choice of how a moon scores."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import (
    add_bots,
    click_and_wait,
    create_room,
    deal_hand,
    hand_codes,
    play_by_api,
    play_piece,
    sign_up,
    table,
    token_of,
    wait_my_turn,
)
from .deals import HEARTS_MOON_DEAL, MOON_PASS, moon_card

# Every card here is played by a tap: these run again on a loaded machine (scripts/test.sh).
pytestmark = pytest.mark.plays

SUIT = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
MINUS = "\u2212"  # the client writes a real minus sign


def card_text(code: str) -> str:
    return ("10" if code[0] == "T" else code[0]) + SUIT[code[1]]


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
            play_piece(page, card, tap=lambda piece: (piece.focus(), page.keyboard.press("Enter")))
        else:
            play_piece(page, card)
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


def funky_to_500(page) -> None:
    page.get_by_label("Fourth hand").select_option(label="Funky pass")
    page.get_by_label("Match target", exact=True).fill("500")


def test_the_funky_pass_on_screen_then_play_goes_on(open_page, live_url, shots):
    page = open_page(width=1280, height=900)
    sign_up(page, "fern")
    code = create_room(page, "hearts", funky_to_500)
    expect(page.locator(".options-summary")).to_contain_text("Funky pass")
    add_bots(page, 3)
    page.locator("[data-action=start]").click()
    wait_my_turn(page, ("pass",))

    # Hands 1 to 3 pass left, right and across: a client of the public API plays them for
    # her; the page follows over its socket to hand 4, the funky pass.
    play_by_api(live_url, token_of(page), code, lambda view: view["round"] == 4)
    expect(page.get_by_role("heading", name=re.compile("hand 4"))).to_be_visible(timeout=15_000)
    wait_my_turn(page, ("pass",))
    expect(page.locator(".info")).to_contain_text("funky (one card to each player)")
    actions = page.locator(".actions")
    expect(actions).to_contain_text("Funky pass: tap one card for each player")
    slots = actions.locator(".slot")
    expect(slots).to_have_count(3)
    for k in range(3):
        expect(slots.nth(k)).to_have_text(f"To Computer {k + 2}: tap a card")
    confirm = page.locator("[data-action=pass_cards]")
    expect(confirm).to_have_text("Pass these cards")
    expect(confirm).to_be_disabled()
    shots(page, "funky-pass")

    # One card for each opponent, in the order of the slots.
    codes = hand_codes(page)
    assert len(codes) == 13
    picks = [codes[0], codes[6], codes[12]]
    for k, card in enumerate(picks):
        page.locator(f".hand button[data-code='{card}']").click()
        expect(slots.nth(k).locator(".card-face")).to_be_visible()
        if k < 2:
            expect(confirm).to_be_disabled()
    # Three chosen: no fourth card may be added.
    expect(page.locator(".hand button[aria-pressed=false]").first).to_be_disabled()
    expect(confirm).to_be_enabled()
    shots(page, "funky-chosen")
    confirm.click()

    # The cards moved at once (the computers had chosen): one from each of them came back.
    wait_my_turn(page, ("play",))
    note = page.locator(".note")
    expect(note).to_contain_text("You received")
    for k in range(3):
        expect(note).to_contain_text(f"from Computer {k + 2}")
    held = hand_codes(page)
    assert len(held) == 13 and not set(picks) & set(held)
    log = page.locator(".log-lines")
    for k, card in enumerate(picks):
        expect(log.locator("li", has_text=f"You passed {card_text(card)} to Computer {k + 2}.")).to_have_count(1)
    shots(page, "after-funky-pass")

    # Play goes on to the end of the hand.
    while wait_my_turn(page, ("play", "round_over", "match_over")) == "play":
        play_piece(page, page.locator(".hand button:not([disabled])").first.get_attribute("data-code"))
    results = page.get_by_role("region", name="Result of the hand")
    expect(results).to_contain_text("Hand 4 result")
    expect(page.locator(".score-sheet")).to_contain_text("Score sheet (4 hands)")
    shots(page, "hand-4-results")


def shooter_choice(page) -> None:
    page.get_by_label("Shooting the moon", exact=True).select_option(label="Shooter's choice")
    page.get_by_label("Q♠ breaks hearts").check()


@pytest.mark.parametrize(
    ("choice", "label", "mine", "theirs"),
    [
        ("minus_self", f"{MINUS}26 for me", "-26", "0"),
        ("plus_others", "+26 for each other player", "0", "+26"),
    ],
    ids=["minus_self", "plus_others"],
)
def test_the_shooter_chooses_how_the_moon_scores(open_page, shots, choice, label, mine, theirs):
    page = open_page(width=1280, height=900)
    sign_up(page, "mona")
    code = create_room(page, "hearts", shooter_choice)
    add_bots(page, 3)
    page.locator("[data-action=start]").click()
    wait_my_turn(page, ("pass",))

    # A fixed deal with which she shoots the moon whatever the computers do (deals.py).
    deal_hand(code, HEARTS_MOON_DEAL)
    page.wait_for_function(
        "want => JSON.stringify([...document.querySelectorAll('.hand button')].map(b => b.dataset.code).sort())"
        " === JSON.stringify(want)",
        arg=sorted(HEARTS_MOON_DEAL[0]),
    )
    wait_my_turn(page, ("pass",))
    for card in MOON_PASS:
        page.locator(f".hand button[data-code='{card}']").click()
    page.locator("[data-action=pass_cards]").click()

    while wait_my_turn(page, ("play", "moon_choice")) == "play":
        legal = page.locator(".hand button:not([disabled])").evaluate_all("els => els.map(e => e.dataset.code)")
        play_piece(page, moon_card(legal))

    # The choice is hers alone, on screen: two buttons worded for the room's rules.
    expect(page.locator(".turn-text")).to_have_text("You shot the moon! Choose how it scores.")
    buttons = page.locator("[data-action=moon_choice]")
    expect(buttons).to_have_count(2)
    expect(buttons.nth(0)).to_have_text(f"{MINUS}26 for me")
    expect(buttons.nth(1)).to_have_text("+26 for each other player")
    expect(page.locator(".hand button")).to_have_count(0)
    shots(page, "moon-choice")
    click_and_wait(page, page.locator("[data-action=moon_choice]", has_text=label))

    # The results table scores it as chosen: this hand and the totals.
    expect(table(page)).to_have_attribute("data-phase", "round_over")
    results = page.get_by_role("region", name="Result of the hand")
    summary = "You shot the moon and took the minus." if choice == "minus_self" else "You shot the moon."
    expect(results.locator("p").first).to_have_text(summary)
    for seat in range(4):
        cells = results.locator(f"tbody tr[data-seat='{seat}'] td")
        want = mine if seat == 0 else theirs
        expect(cells.nth(1)).to_have_text(want)  # this hand
        expect(cells.nth(2)).to_have_text(want.lstrip("+"))  # the total, after one hand
    expect(results.locator("tbody tr[data-seat='0'] th")).to_have_text("You")
    expect(page.locator(".seat.me .score")).to_have_text(f"Score {mine.lstrip('+')}")
    expect(page.locator(".log-lines")).to_contain_text("You shot the moon!")
    shots(page, "moon-results")
