"""Tried as a new person would on the README's `make run` (SQLite, the filesystem broker,
the default one-second computer players), on a phone: 390 by 844, a touch screen, so that
"Confirm each move" is on by default.

- A whole Sweedo match (the form's short Sweedo rules at its lowest target) against
  three computer players, signed up in the page, every pass and play tapped with the
  confirm flow: a first tap only raises a card, a second tap or the Play button plays it.
- Then, with "Confirm each move" turned off on the Settings page, a whole Moon match
  against two computer players: bids and trumps by their buttons, the widow by its one
  confirm, every tile played by a single tap.

Each move is checked by the piece leaving the hand, and exactly one piece leaving it per
play. No script error, no error toast, and the page never wider than the phone. Every
wait is for a state of the page; nothing waits a fixed time.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect, sync_playwright

from . import csp
from .conftest import ARTIFACTS, CHROMIUM, MakeRun, Shots, add_bots, create_room, hand_codes, sign_up, table

# Not marked `plays`: the loaded second suite replays the production-like server's play
# tests; this one, whole matches on the embedded server, takes minutes and runs once.

WIDTH, HEIGHT = 390, 844
# A move's answer, the computers' moves (a second each, in the worker) and a finished
# trick's pause all come before my next turn.
TURN_MS = 60_000
NEWER = "v => Number(document.querySelector('section.table')?.dataset.version) > v"
MINE_OR_OVER = "section.table[data-my-turn=true], section.table[data-phase=match_over]"
# Error toasts last six seconds: each one is told to the test as it is shown.
WATCH_TOASTS = """() => {
    const watch = () => {
        const box = document.getElementById("toasts");
        if (!box) return;
        const seen = (el) => {
            if (el instanceof Element && el.classList.contains("error")) window.ttErrorToast(el.textContent);
        };
        [...box.children].forEach(seen);
        new MutationObserver((changes) => changes.forEach((c) => c.addedNodes.forEach(seen)))
            .observe(box, { childList: true });
    };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch);
    else watch();
}"""
# When the page last took a tap (its click, which the table times a double tap from: on
# a busy machine it comes well after the finger came down), for a second tap that is a
# tap of its own.
WATCH_PRESSES = """() => document.addEventListener(
    "click", () => { window.ttLastPress = performance.now(); }, true)"""
# taps.js's REPEAT_MS: two taps closer than this are one slip of the finger.
REPEAT_MS = 400
RAISED = re.compile(r"(^|\s)raised(\s|$)")


class Phone:
    """A page on a phone (touch screen, mobile viewport) with what went wrong in it."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        self.toasts: list[str] = []
        self.widths: dict[str, int] = {}
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.expose_function("ttErrorToast", lambda text: self.toasts.append(text))
        page.add_init_script(f"({WATCH_TOASTS})()")
        page.add_init_script(f"({WATCH_PRESSES})()")

    def fits(self, where: str) -> None:
        """The page is no wider than the phone here (kept, and asserted at once)."""
        width = self.page.evaluate("document.documentElement.scrollWidth")
        self.widths[where] = width
        assert width <= WIDTH, f"{where}: the page is {width} px wide on a {WIDTH} px screen"

    def clean(self, where: str) -> None:
        assert not self.errors, f"{where}: script errors in the page: {self.errors}"
        assert not self.toasts, f"{where}: error toasts: {self.toasts}"


@pytest.fixture
def phone(make_run: MakeRun) -> Iterator[Callable[[], Phone]]:
    """Phones of their own on the `make run` server: 390 by 844, touch, mobile."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium (scripts/test.sh does)")
    blocked: list[Any] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM)

        def make() -> Phone:
            context = browser.new_context(
                viewport={"width": WIDTH, "height": HEIGHT}, has_touch=True, is_mobile=True, base_url=make_run.url
            )
            blocked.append(csp.watch(context))
            page = context.new_page()
            page.set_default_timeout(30_000)
            return Phone(page)

        yield make
        browser.close()
    csp.assert_none([v for each in blocked for v in each])


def version(page: Any) -> int:
    return int(table(page).get_attribute("data-version"))


def settled(page: Any, before: int) -> None:
    """The table shows a view newer than `before`, and no move of the page's is on its way."""
    page.wait_for_function(NEWER, arg=before, timeout=TURN_MS)
    page.wait_for_function("() => !document.querySelector('main.busy')", timeout=TURN_MS)


def piece(page: Any, code: str) -> Any:
    return page.locator(f".hand button[data-code='{code}']")


def next_turn(page: Any) -> str:
    """Wait until this player may act, or the match is over; the phase."""
    page.locator(MINE_OR_OVER).first.wait_for(timeout=TURN_MS)
    return table(page).get_attribute("data-phase")


def press(page: Any, target: Any) -> None:
    """Tap a button that acts (a bid, trumps, the next hand) and wait for its answer."""
    before = version(page)
    target.tap()
    settled(page, before)


def tap_again_later(page: Any, card: Any) -> None:
    """A second tap of its own on `card`: once the first is past a double tap's reach."""
    page.wait_for_function("ms => performance.now() - (window.ttLastPress ?? -Infinity) > ms", arg=REPEAT_MS)
    card.tap()


# -- Hearts, Sweedo, confirm on ------------------------------------------------------------


def sweedo_short_and_low(page: Any) -> None:
    """The form's Sweedo rules, short, at the lowest target it takes."""
    page.get_by_label("Rules", exact=True).select_option("sweedo_short")
    target = page.get_by_label("Match target")
    expect(target).to_have_value("70")
    minimum = target.get_attribute("min")
    assert minimum is not None, "the target field says no minimum"
    target.fill(minimum)


def hearts_pass(phone: Phone) -> None:
    page = phone.page
    held = hand_codes(page)
    assert len(held) == 13, held
    picks: list[str] = []
    for _ in range(3):
        card = page.locator(".hand button:not([disabled])[aria-pressed=false]").first
        code = card.get_attribute("data-code")
        card.tap()
        expect(piece(page, code)).to_have_attribute("aria-pressed", "true")
        picks.append(code)
    # Choosing sends nothing: the three are still held.
    assert sorted(hand_codes(page)) == sorted(held)
    button = page.locator("[data-action=pass_cards]")
    expect(button).to_be_enabled()
    before = version(page)
    button.tap()
    for code in picks:
        expect(piece(page, code)).to_have_count(0, timeout=TURN_MS)
    settled(page, before)


def hearts_play(phone: Phone, n: int) -> str:
    """Play the first legal card with the confirm flow: the first tap raises it and sends
    nothing; the Play button (odd plays) or a second tap (even ones) plays it. One card,
    that card, leaves the hand."""
    page = phone.page
    legal = page.locator(".hand button:not([disabled])")
    legal.first.wait_for(timeout=TURN_MS)
    held = hand_codes(page)
    code = legal.first.get_attribute("data-code")
    card = piece(page, code)
    before = version(page)
    card.tap()
    # The first tap only raises the card.
    expect(card).to_have_attribute("aria-pressed", "true")
    expect(card).to_have_class(RAISED)
    button = page.locator(".hand-area [data-action=confirm-move]")
    expect(button).to_be_visible()
    assert hand_codes(page) == held, "the first tap played the card"
    assert version(page) == before, "the first tap sent a move"
    if n % 2:
        button.tap()
    else:
        tap_again_later(page, card)
    expect(card).to_have_count(0, timeout=TURN_MS)
    settled(page, before)
    after = hand_codes(page)
    gone = Counter(held) - Counter(after)
    assert list(gone.elements()) == [code] and len(after) == len(held) - 1, (code, held, after)
    expect(page.locator(".hand .piece[aria-pressed=true]")).to_have_count(0)
    return code


def test_a_sweedo_match_then_a_moon_match_on_a_phone_under_make_run(phone: Callable[[], Phone]) -> None:
    me = phone()
    page = me.page
    shots = Shots(ARTIFACTS / "make_run_slips")
    sign_up(page, "phoney")
    me.fits("home, signed in")
    # A touch screen: the device's choice, "Confirm each move", is on.
    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
    create_room(page, "hearts", sweedo_short_and_low)
    expect(page.locator(".lobby")).to_contain_text("Sweedo")
    add_bots(page, 3)
    me.fits("lobby")
    shots(page, "lobby")
    page.locator("[data-action=start]").tap()
    table(page).wait_for()

    passes = plays = hands = 0
    first_play = True
    while (phase := next_turn(page)) != "match_over":
        if phase == "pass":
            if not passes:
                me.fits("pass")
                shots(page, "pass")
            hearts_pass(me)
            passes += 1
        elif phase == "play":
            if first_play:
                me.fits("first play")
                first_play = False
            plays += 1
            hearts_play(me, plays)
            if plays == 7:
                me.fits("mid-hand")
                shots(page, "mid-hand")
        elif phase == "moon_choice":
            press(page, page.locator("[data-action=moon_choice]").first)
        elif phase == "round_over":
            hands += 1
            expect(page.get_by_role("region", name="Result of the hand")).to_be_visible()
            me.fits(f"result of hand {hands}")
            if hands == 1:
                shots(page, "hand-result")
            press(page, page.locator("[data-action=next_round]"))
        else:
            raise AssertionError(f"an unexpected turn in phase {phase}")
        me.clean(f"Hearts, {phase}")
        assert plays <= 13 * 20, "the match does not end"
    hands += 1
    assert plays == 13 * hands, (plays, hands)
    assert passes >= 1
    expect(page.locator(".banner.match-over")).to_be_visible()
    me.fits("Hearts match over")
    shots(page, "hearts-match-over")
    me.clean("Hearts match over")
    print(f"Hearts: {hands} hands, {plays} cards played, {passes} passes")

    # Settings: "Confirm each move" off.
    page.goto("/notifications")
    confirm = page.get_by_label("Confirm each move")
    expect(confirm).to_have_value("device")
    with page.expect_response(lambda r: r.url.endswith("/api/v1/me") and r.request.method == "PATCH") as saved:
        confirm.select_option(label="Never")
    assert saved.value.status == 200
    expect(confirm).to_have_value("off")
    me.fits("settings")
    shots(page, "settings")

    page.goto("/")
    create_room(page, "moon")
    add_bots(page, 2)
    page.locator("[data-action=start]").tap()
    table(page).wait_for()
    moon_match(me, shots)


# -- Moon, confirm off -----------------------------------------------------------------


def best_trump(codes: list[str]) -> str:
    """The pip the hand holds most often."""
    pips = Counter(p for code in codes for p in set(code.split("-")))
    return max(sorted(pips), key=lambda p: pips[p])


def moon_match(me: Phone, shots: Shots) -> None:
    page = me.page
    plays = widows = hands = 0
    while (phase := next_turn(page)) != "match_over":
        if phase == "bid":
            if not hands:
                me.fits("bid")
            bid = page.locator("[data-action=bid]:not([disabled])")
            press(page, bid.first if bid.count() else page.locator("[data-action=pass]"))
        elif phase == "trump":
            press(page, page.locator(f"[data-action=trump][data-value='{best_trump(hand_codes(page))}']"))
        elif phase == "widow":
            held = hand_codes(page)
            assert len(held) == 8, held  # the seven and the widow
            discard = held[0]
            tile = piece(page, discard)
            before = version(page)
            tile.tap()
            # The widow asks once, though "Confirm each move" is off.
            expect(tile).to_have_attribute("aria-pressed", "true")
            assert version(page) == before and hand_codes(page) == held
            if not widows:
                me.fits("widow")
                shots(page, "widow")
            page.locator(".hand-area [data-action=confirm-move]").tap()
            expect(tile).to_have_count(0, timeout=TURN_MS)
            settled(page, before)
            after = hand_codes(page)
            assert len(after) == 7 and discard not in after, (discard, held, after)
            widows += 1
        elif phase == "play":
            legal = page.locator(".hand button:not([disabled])")
            legal.first.wait_for(timeout=TURN_MS)
            held = hand_codes(page)
            code = legal.first.get_attribute("data-code")
            before = version(page)
            # One tap plays it: nothing is raised, no button asks.
            piece(page, code).tap()
            expect(piece(page, code)).to_have_count(0, timeout=TURN_MS)
            settled(page, before)
            after = hand_codes(page)
            gone = Counter(held) - Counter(after)
            assert list(gone.elements()) == [code] and len(after) == len(held) - 1, (code, held, after)
            expect(page.locator(".hand-area [data-action=confirm-move]")).to_have_count(0)
            plays += 1
            if plays == 4:
                me.fits("Moon mid-hand")
                shots(page, "moon-mid-hand")
        elif phase == "round_over":
            hands += 1
            me.fits(f"Moon result of hand {hands}")
            press(page, page.locator("[data-action=next_round]"))
        else:
            raise AssertionError(f"an unexpected turn in phase {phase}")
        me.clean(f"Moon, {phase}")
        assert plays <= 7 * 40, "the match does not end"
    hands += 1
    expect(page.locator(".banner.match-over")).to_be_visible()
    me.fits("Moon match over")
    shots(page, "moon-match-over")
    me.clean("Moon match over")
    print(f"Moon: {hands} hands, {plays} tiles played, the widow taken {widows} times; widths {me.widths}")
