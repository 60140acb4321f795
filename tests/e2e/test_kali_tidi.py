"""Kali Tidi in the browser. Partners by called cards: the host removes the extra card in
a popup, bids the maximum, calls a partner card in a popup, names trumps and plays; the
partner is revealed on screen when the called card falls. Teams: picked in the lobby by
the people, computers added to a team, and the hand scored per team."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import add_bots, click_and_wait, create_room, hand_codes, play_piece, sign_up, table, wait_my_turn

# Every card here is played by a tap: these run again on a loaded machine (scripts/test.sh).
pytestmark = pytest.mark.plays


def cards_mode_for_three(page) -> None:
    page.get_by_label("Players", exact=True).select_option("3")
    page.get_by_label("Partners", exact=True).select_option("cards")
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
    # By keyboard: the cards are one Tab stop, walked with the arrow keys; once the choice
    # is complete the focus is on "Call partners". The whole call takes two Tabs at most.
    called = callable_cards[-1]
    tabs = 0
    while not page.evaluate("document.activeElement.matches('dialog.choose .piece')"):
        page.keyboard.press("Tab")
        tabs += 1
        assert tabs <= 2, "the cards to call are more than two Tabs into the dialog"
    page.keyboard.press("End")
    expect(dialog.locator(f".piece[data-code='{called}']")).to_be_focused()
    page.keyboard.press("Enter")
    call = dialog.get_by_role("button", name="Call partners")
    expect(call).to_be_focused()
    version = table(page).get_attribute("data-version")
    page.keyboard.press("Enter")
    expect(table(page)).not_to_have_attribute("data-version", version, timeout=30_000)
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
        ).wait_for(timeout=30_000)
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
        play_piece(page, page.locator(".hand button:not([disabled])").first.get_attribute("data-code"))

    expect(partner_badge).to_have_count(1)
    partner_seat = page.locator(".seat.partner").get_attribute("data-seat")
    assert partner_seat != page.locator(".seat.me").get_attribute("data-seat")
    results = page.get_by_role("region", name="Result of the hand")
    expect(results).to_contain_text(f"Called {called[0].replace('T', '10')}")
    expect(results).to_contain_text("partner Computer")
    shots(page, "results")


def teams_of_two(page) -> None:
    page.get_by_label("Players", exact=True).select_option("4")
    page.get_by_label("Partners", exact=True).select_option(label="Teams chosen in the lobby")
    page.get_by_label("Team A").fill("2")
    page.get_by_label("Team B").fill("2")


def team_badges(page) -> dict[int, str]:
    """Each seat's team as the table shows it."""
    return page.locator(".seat").evaluate_all(
        """els => Object.fromEntries(els.map(e => [e.dataset.seat,
            [...e.querySelectorAll('.badge')].map(b => b.textContent).find(t => t.startsWith('Team')) ?? null]))"""
    )


def test_kali_tidi_teams_are_picked_in_the_lobby_and_scored_together(open_page, shots):
    host = open_page(width=1280, height=900)
    sign_up(host, "tara")
    create_room(host, "kali_tidi", teams_of_two)
    sizes = host.locator(".team-sizes")
    expect(sizes).to_have_text("Team A: 1 of 2 · Team B: 0 of 2")  # the host starts in Team A
    invite = host.get_by_label("Invite link").input_value()

    # A guest from the invite link is seated at once, in the team with room; she may switch.
    guest = open_page()
    guest.goto(invite)
    guest.get_by_label("Your name at the table").fill("Gus")
    guest.get_by_role("button", name="Play as guest").last.click()
    expect(guest.locator(".lobby-seat.me")).to_contain_text("Team B")
    shots(guest, "guest-seated-in-a-team")
    expect(sizes).to_have_text("Team A: 1 of 2 · Team B: 1 of 2")  # live on the host's page

    # The host moves over to Team B; it is full, so computers can only go to Team A.
    host.locator("[data-action=switch-team]").click()
    expect(sizes).to_have_text("Team A: 0 of 2 · Team B: 2 of 2")
    expect(host.locator(".lobby-seat.me")).to_contain_text("Team B")
    bot_a = host.locator("[data-action=add-bot][data-team='0']")
    bot_b = host.locator("[data-action=add-bot][data-team='1']")
    expect(bot_b).to_be_disabled()
    start = host.locator("[data-action=start]")
    expect(start).to_be_disabled()
    for n in (1, 2):
        bot_a.click()
        expect(sizes).to_have_text(f"Team A: {n} of 2 · Team B: 2 of 2")
    expect(bot_a).to_be_disabled()
    expect(host.locator(".lobby-seat", has_text="Computer").locator(".badge", has_text="Team A")).to_have_count(2)
    expect(guest.locator(".lobby-seat", has_text="Computer")).to_have_count(2)
    shots(host, "lobby-full")
    expect(start).to_have_text("Start the game")
    start.click()

    # Both tables show the teams as picked: host and guest in Team B, the computers in Team A.
    host_seat = 0
    guest_seat = int(guest.locator(".seat.me").get_attribute("data-seat"))
    for page in (host, guest):
        expect(table(page)).to_be_visible()
        badges = team_badges(page)
        assert badges[str(host_seat)] == badges[str(guest_seat)] == "Team B", badges
        assert sorted(v for k, v in badges.items() if int(k) not in (host_seat, guest_seat)) == ["Team A"] * 2
    shots(host, "table-host")
    shots(guest, "table-guest")

    # The hand, played by both people: the host bids the minimum once, the guest passes.
    host_bid = False
    waiting_for = (
        "section.table[data-my-turn=true], section.table[data-phase=round_over],"
        " section.table[data-phase=match_over],"
        + ", ".join(
            f"section.table[data-phase={p}] .seat.to-act[data-seat='{guest_seat}']" for p in ("bid", "trump", "play")
        )
    )
    for _ in range(200):
        host.locator(waiting_for).first.wait_for(timeout=30_000)
        phase = table(host).get_attribute("data-phase")
        if phase in ("round_over", "match_over"):
            break
        mine = table(host).get_attribute("data-my-turn") == "true"
        page = host if mine else guest
        phase = wait_my_turn(page, ("bid", "trump", "play"))
        if phase == "bid" and page is host and not host_bid:
            click_and_wait(page, page.get_by_role("button", name="Bid", exact=True))
            host_bid = True
        elif phase == "bid":
            click_and_wait(page, page.locator("[data-action=pass]"))
        elif phase == "trump":
            click_and_wait(page, page.locator("[data-action=trump]").first)
        else:
            play_piece(page, page.locator(".hand button:not([disabled])").first.get_attribute("data-code"))
        if page is guest:
            # Read the next turn from the host's page only once it has seen this move.
            version = int(table(guest).get_attribute("data-version"))
            host.wait_for_function(
                "v => Number(document.querySelector('section.table')?.dataset.version) >= v",
                arg=version,
                timeout=30_000,
            )
    else:
        raise AssertionError("the hand did not end")

    # Teammates share the side, the result of the hand and the score.
    results = host.get_by_role("region", name="Result of the hand")
    expect(results).to_be_visible()
    rows = {
        int(r.get_attribute("data-seat")): r.locator("td").all_inner_texts() for r in results.locator("tbody tr").all()
    }
    bots = [s for s in rows if s not in (host_seat, guest_seat)]
    for a, b in ((host_seat, guest_seat), tuple(bots)):
        side_a, hand_a, total_a = rows[a][1:]
        assert (side_a, hand_a, total_a) == tuple(rows[b][1:]), rows
    assert {rows[host_seat][1], rows[bots[0]][1]} == {"bidding", "other"}, rows
    assert sum(1 for r in rows.values() if r[2].startswith("won +")) == 2, rows
    shots(host, "results")
