"""Kali Tidi in the browser, partners by called cards: the host removes the extra card in
a popup, bids the maximum, calls a partner card in a popup, names trumps and plays; the
partner is revealed on screen when the called card falls."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import add_bots, click_and_wait, create_room, hand_codes, sign_up, table, wait_my_turn


def cards_mode_for_three(page) -> None:
    page.get_by_label("Players", exact=True).select_option("3")
    page.get_by_label("Team mode").select_option("cards")
    expect(page.get_by_role("group", name="Team sizes")).to_be_hidden()


def test_a_kali_tidi_hand_in_cards_mode_reveals_the_partner(open_page, shots):
    page = open_page(width=1280, height=900)
    sign_up(page, "kiran")
    create_room(page, "kali_tidi", cards_mode_for_three)
    add_bots(page, 2)
    page.locator("[data-action=start]").click()

    # 52 cards for three: one is removed first, by the host, in a popup of zero-point cards.
    assert wait_my_turn(page, ("remove",)) == "remove"
    dialog = page.locator("dialog.choose")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Remove 1 card")
    codes = dialog.locator(".piece").evaluate_all("els => els.map(e => e.dataset.code)")
    assert codes and all(code[0] in "246789" for code in codes)
    shots(page, "remove")
    dialog.locator(".piece").first.click()
    click_and_wait(page, dialog.get_by_role("button", name="Remove these cards"))
    expect(page.locator(".info")).to_contain_text("Removed")

    # The host bids first; the maximum ends the auction at once.
    wait_my_turn(page, ("bid",))
    expect(page.locator(".hand button")).to_have_count(17)
    bids = page.locator(".actions select option").all_inner_texts()
    assert bids[0] == "Bid 125" and bids[-1] == "Bid 250" and len(bids) == 26
    shots(page, "bid")
    page.locator(".actions select").select_option(label="Bid 250")
    click_and_wait(page, page.get_by_role("button", name="Bid", exact=True))

    # Calling the partner: only cards another player holds are offered.
    wait_my_turn(page, ("call",))
    expect(dialog).to_be_visible()
    held = set(hand_codes(page))
    callable_cards = dialog.locator(".piece").evaluate_all("els => els.map(e => e.dataset.code)")
    assert callable_cards and not held & set(callable_cards)
    shots(page, "call")
    called = callable_cards[-1]
    dialog.locator(f".piece[data-code='{called}']").click()
    click_and_wait(page, dialog.get_by_role("button", name="Call partners"))
    expect(page.locator(".info")).to_contain_text("Called")

    wait_my_turn(page, ("trump",))
    click_and_wait(page, page.locator("[data-action=trump][data-value='H']"))
    expect(page.locator(".info")).to_contain_text("hearts")
    hearts = [c for c in hand_codes(page) if c[1] == "H"]
    # Trumps are marked on every card of the suit; suits wear the four colours.
    expect(page.locator(".hand .card-face.trump")).to_have_count(len(hearts))
    expect(page.locator(".hand .card-face.palette-four").first).to_be_visible()

    partner_badge = page.locator(".seat .badge-partner")
    revealed_during_play = False
    while True:
        # A made bid of 250 reaches the one-deck target: the match may end with this hand.
        page.locator(
            "section.table[data-my-turn=true][data-phase=play], section.table[data-phase=round_over],"
            " section.table[data-phase=match_over]"
        ).wait_for()
        phase = table(page).get_attribute("data-phase")
        # The info bar and the seats come from one rendering of one view: read them together.
        seen = page.evaluate(
            """() => ({
                revealed: [...document.querySelectorAll('.info dt')].some(dt => dt.textContent === 'Partners'),
                badges: document.querySelectorAll('.seat .badge-partner').length,
            })"""
        )
        # The partner is named on screen as the called card falls, and never before.
        assert seen["badges"] == (1 if seen["revealed"] else 0), seen
        if seen["revealed"] and phase == "play" and not revealed_during_play:
            revealed_during_play = True
            shots(page, "partner-revealed")
        if phase != "play":
            break
        click_and_wait(page, page.locator(".hand button:not([disabled])").first)

    expect(partner_badge).to_have_count(1)
    partner_seat = page.locator(".seat.partner").get_attribute("data-seat")
    assert partner_seat != page.locator(".seat.me").get_attribute("data-seat")
    results = page.get_by_role("region", name="Result of the hand")
    expect(results).to_contain_text(f"Called {called[0].replace('T', '10')}")
    expect(results).to_contain_text("partner Computer")
    shots(page, "results")
