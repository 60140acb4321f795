"""A table that forgives a slip of the finger, in Chromium at a phone's size with a touch
screen (where "Confirm each move" is on by default) and on a desktop with a mouse (off):

- a double tap on a card plays one card, never a second one that slid under the finger
  once the table was drawn for the first one's answer;
- with the setting on, a first tap raises a card and sends nothing, a second plays it;
- a card pressed while the table is drawn anew is not played in place of another, and a
  deliberate tap on a card that did not change is not lost to the redraw;
- Moon's widow discard asks once, whatever the setting; the pass button is one Tab after
  the last card;
- the settings are kept by the server and followed at the table.
"""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from games.rules import dominoes

from .conftest import deal_hand, hand_codes, new_match, sign_up, table, token_of, wait_my_turn
from .deals import HEARTS_MOON_DEAL, MOON_OPTIONS, MOON_PASS

PHONE = {"width": 390, "height": 844, "has_touch": True, "is_mobile": True}
DESKTOP = {"width": 1280, "height": 800}
DEVICES = {"phone": PHONE, "desktop": DESKTOP}
# The taps the page saw, each with the piece under it then (a capture listener: it sees a
# tap the table itself ignores).
RECORD_TAPS = """() => {
    window.seenTaps = [];
    document.addEventListener("pointerdown", (e) => {
        const piece = e.target instanceof Element ? e.target.closest(".hand .piece") : null;
        const code = piece?.dataset.code ?? null;
        seenTaps.push({ t: e.timeStamp, code, enabled: Boolean(piece && !piece.disabled) });
    }, true);
}"""

NEWER = "v => Number(document.querySelector('section.table').dataset.version) > v"

# Cards and tiles played by taps: these (`plays`) run again on a loaded machine
# (scripts/test.sh); all but the double tap, whose second tap must fall within REPEAT_MS
# of the first and after the table shows the first's answer: on a machine kept busy the
# test's own two taps, each a round trip to the browser, come too far apart to make one.
plays = pytest.mark.plays


def me(live_url: str, page: Any) -> dict[str, Any]:
    return httpx.get(f"{live_url}/api/v1/me", headers={"Authorization": f"Token {token_of(page)}"}).json()


def hearts_table(page: Any, live_url: str, name: str, options: dict[str, Any] | None = None) -> str:
    """A Hearts match for a new player and three computers, at its pass, dealt the moon
    deal of deals.py (seat 0 leads every trick after the first)."""
    sign_up(page, name)
    code = new_match(live_url, token_of(page), "hearts", options if options is not None else MOON_OPTIONS, bots=3)
    page.goto(f"/join/{code}")
    wait_my_turn(page, ("pass",))
    deal_hand(code, HEARTS_MOON_DEAL)
    showing(page, HEARTS_MOON_DEAL[0])
    wait_my_turn(page, ("pass",))
    return code


def showing(page: Any, codes: list[str]) -> None:
    page.wait_for_function(
        "want => JSON.stringify([...document.querySelectorAll('.hand .piece')].map(b => b.dataset.code).sort())"
        " === JSON.stringify(want)",
        arg=sorted(codes),
        # A new deal reaches the page after its notice and fetch: slow on a loaded machine.
        timeout=30_000,
    )


def pass_the_moon_cards(page: Any) -> None:
    """Passes MOON_PASS and waits for the pass's answer. The socket may show the next turn
    first; a tap on it within a double tap's time of the pass would be taken for the pass's
    second tap and dropped (TableView.send), and no person taps a new table that soon."""
    for card in MOON_PASS:
        page.locator(f".hand button[data-code='{card}']").click()
    page.locator("[data-action=pass_cards]").click()
    settled(page)


def version(page: Any) -> int:
    return int(table(page).get_attribute("data-version"))


def tap(page: Any, point: tuple[float, float], touch: bool, count: int = 1) -> None:
    """A tap of a finger, or a click of a mouse: the `count`th of a multiple click, as the
    system counts a mouse's clicks (the touch screen's taps are counted by Chromium)."""
    if touch:
        page.touchscreen.tap(*point)
    else:
        page.mouse.move(*point)
        page.mouse.down(click_count=count)
        page.mouse.up(click_count=count)


def point_on(page: Any, code: str) -> tuple[float, float]:
    """A point on the card, three quarters across: the card after it in the hand lies
    there once this one has left (the row closes up, or recentres by half a step)."""
    box = page.locator(f".hand button[data-code='{code}']").bounding_box()
    return box["x"] + 0.75 * box["width"], box["y"] + box["height"] / 2


def play_at_once(page: Any, code: str, confirm: bool) -> None:
    """Plays `code` as its player would, with one tap or two, and waits for the answer."""
    card = page.locator(f".hand button[data-code='{code}']")
    card.click()
    if confirm:
        expect(card).to_have_attribute("aria-pressed", "true")
        page.locator("[data-action=confirm-move]").click()
    expect(card).to_have_count(0)
    settled(page)


def wait_held(page: Any, held: list[Any]) -> None:
    """Wait until the route that holds a move's answer has it (30 s at most): the page may
    draw the socket's push before the route's handler has read the server's answer."""
    deadline = time.monotonic() + 30
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert held, "the move's answer was not held"


def settled(page: Any) -> None:
    """No move of the page's on its way (the socket may show its outcome before the answer
    comes, and the page sends nothing else meanwhile)."""
    page.wait_for_function("() => !document.querySelector('main.busy')")


@pytest.mark.parametrize("device", list(DEVICES), ids=list(DEVICES))
def test_a_double_tap_on_a_card_plays_one_card(open_page, live_url, shots, device):
    page = open_page(**DEVICES[device])
    touch = device == "phone"
    code = hearts_table(page, live_url, f"tapper{device}")
    # The device decides: on with a touch screen, off with a mouse.
    assert me(live_url, page)["confirm_moves"] is None
    confirm = page.evaluate("matchMedia('(pointer: coarse)').matches")
    assert confirm is touch
    pass_the_moon_cards(page)

    # Trick 1: A♣ wins it (deals.py), and its player leads the next.
    wait_my_turn(page, ("play",))
    expect(page.locator(".hand button[data-code='AC']")).to_be_enabled()
    play_at_once(page, "AC", confirm)
    led = ["AC"]

    # A♠, K♠ and Q♠ each win the trick they lead: after each, seat 0 leads again at once,
    # and the next spade lies where the last one was. A double tap on the top spade: the
    # second tap comes as soon as the table shows the first one's answer (300 ms at most),
    # on the same spot. A trial counts once that answer came in time and the second tap
    # fell on a card that could be led; a slow server gets another.
    for trial in range(3):
        wait_my_turn(page, ("play",))
        held = hand_codes(page)
        top, under = held[0], held[1]
        assert top[1] == under[1] == "S", held
        if confirm:
            # The first tap raises the card and sends nothing; the Play button names it.
            before = version(page)
            card = page.locator(f".hand button[data-code='{top}']")
            card.tap()
            expect(card).to_have_attribute("aria-pressed", "true")
            expect(page.locator("[data-action=confirm-move]")).to_have_text(
                re.compile(r"^Play (ace|king|queen) of spades$")
            )
            if not trial:
                shots(page, "raised")
            # Longer than a double tap: the next tap is a tap of its own.
            page.wait_for_timeout(600)
            assert version(page) == before
            assert hand_codes(page) == held

        page.evaluate(RECORD_TAPS)
        spot = point_on(page, top)
        before = version(page)
        tap(page, spot, touch)
        try:
            page.wait_for_function(NEWER, arg=before, polling="raf", timeout=300)
        except PlaywrightTimeoutError:
            pass  # the second tap comes all the same
        tap(page, spot, touch, count=2)
        expect(page.locator(f".hand button[data-code='{top}']")).to_have_count(0)
        # Time for a second move to be answered, had one been sent.
        page.wait_for_timeout(800)
        settled(page)
        taps = page.evaluate("seenTaps")
        timed = len(taps) == 2 and taps[1]["t"] - taps[0]["t"] < 400 and taps[1]["code"] == under
        shown = hand_codes(page)
        led += [c for c in held if c not in shown]
        if not (timed and taps[1]["enabled"]):
            continue
        # One card left the hand; the card that slid under the finger was neither led nor raised.
        assert shown == held[1:], (held, shown, taps)
        expect(page.locator(".hand .piece[aria-pressed=true]")).to_have_count(0)
        expect(page.locator("[data-action=confirm-move]")).to_have_count(0)
        break
    else:
        pytest.fail(f"no double tap fell on a card to lead within 400 ms: the last was {taps}")
    # The room's log holds her leads, one for each double tap.
    events = httpx.get(
        f"{live_url}/api/v1/rooms/{code}/events", headers={"Authorization": f"Token {token_of(page)}"}
    ).json()
    assert [e["card"] for e in events if e["type"] == "play" and e["seat"] == 0] == led
    shots(page, "after-double-tap")

    if confirm:
        # A slow second tap on the raised card plays it.
        wait_my_turn(page, ("play",))
        card = page.locator(f".hand button[data-code='{hand_codes(page)[0]}']")
        card.tap()
        expect(card).to_have_attribute("aria-pressed", "true")
        page.wait_for_timeout(500)
        card.tap()
        expect(card).to_have_count(0)


@pytest.mark.parametrize("device", list(DEVICES), ids=list(DEVICES))
def test_a_double_tap_held_through_the_answer_plays_one_card(open_page, live_url, device):
    # The second tap of a double tap comes down on the next card once the socket has shown
    # the first move; the move's own answer, held back here until then, draws the hand
    # anew before the finger lifts. The release on the card drawn anew is no tap of its own.
    page = open_page(**DEVICES[device])
    touch = device == "phone"
    hearts_table(page, live_url, f"holdtap{device}")
    confirm = page.evaluate("matchMedia('(pointer: coarse)').matches")
    pass_the_moon_cards(page)
    wait_my_turn(page, ("play",))
    play_at_once(page, "AC", confirm)
    wait_my_turn(page, ("play",))
    held = hand_codes(page)
    top, under = held[0], held[1]
    if confirm:
        card = page.locator(f".hand button[data-code='{top}']")
        card.tap()
        expect(card).to_have_attribute("aria-pressed", "true")
        # Longer than a double tap: the next tap is a tap of its own.
        page.wait_for_timeout(600)

    answers: list[tuple[Any, Any]] = []

    def hold(route: Any) -> None:
        # The first move's answer is held; any other request goes through.
        if answers:
            route.continue_()
        else:
            answers.append((route, route.fetch()))

    page.route("**/api/v1/rooms/*/actions", hold)
    spot = point_on(page, top)
    before = version(page)
    tap(page, spot, touch)
    # The socket shows the move while its answer is held: the next card lies under the finger.
    page.wait_for_function(f"v => ({NEWER})(v) && document.querySelector('main.busy')", arg=before, polling="raf")
    assert (
        page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('.piece')?.dataset.code", list(spot))
        == under
    )
    cdp = page.context.new_cdp_session(page)
    if touch:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": spot[0], "y": spot[1]}]})
    else:
        page.mouse.down(click_count=2)
    wait_held(page, answers)
    ((route, answer),) = answers
    route.fulfill(response=answer)
    settled(page)
    if touch:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    else:
        page.mouse.up(click_count=2)
    # Time for a second move to be answered, had one been sent.
    page.wait_for_timeout(800)
    settled(page)
    page.unroute("**/api/v1/rooms/*/actions")
    assert hand_codes(page) == held[1:]
    expect(page.locator(".hand .piece[aria-pressed=true]")).to_have_count(0)


@plays
def test_a_move_on_the_next_table_goes_while_the_last_ones_answer_is_slow(open_page, live_url):
    # The socket shows the trick taken and her lead again while her last move's answer is
    # still on its way (held here). A click on the next card, after a double tap's time,
    # is a move of its own: it goes at once, not lost to the move under way.
    page = open_page(**DESKTOP)
    code = hearts_table(page, live_url, "slowanswer")
    pass_the_moon_cards(page)
    wait_my_turn(page, ("play",))
    play_at_once(page, "AC", confirm=False)
    wait_my_turn(page, ("play",))
    first, second = hand_codes(page)[:2]
    held: list[tuple[Any, Any]] = []
    sent: list[dict[str, Any]] = []

    def hold_the_first(route: Any) -> None:
        sent.append(route.request.post_data_json["action"])
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))

    page.route("**/api/v1/rooms/*/actions", hold_the_first)
    before = version(page)
    page.locator(f".hand button[data-code='{first}']").click()
    # Her lead again, drawn from the socket while the first answer is held.
    page.wait_for_function(
        f"v => ({NEWER})(v) && document.querySelector('main.busy')"
        " && document.querySelector('section.table[data-my-turn=true][data-phase=play]')",
        arg=before,
        timeout=30_000,
    )
    wait_held(page, held)
    page.wait_for_timeout(500)
    page.locator(f".hand button[data-code='{second}']").click()
    expect(page.locator(f".hand button[data-code='{second}']")).to_have_count(0, timeout=30_000)
    assert sent == [{"type": "play", "card": first}, {"type": "play", "card": second}]
    ((route, answer),) = held
    route.fulfill(response=answer)
    settled(page)
    page.unroute("**/api/v1/rooms/*/actions")
    events = httpx.get(
        f"{live_url}/api/v1/rooms/{code}/events", headers={"Authorization": f"Token {token_of(page)}"}
    ).json()
    assert [e["card"] for e in events if e["type"] == "play" and e["seat"] == 0] == ["AC", first, second]


# The keys the page saw, each with the version of the table drawn then and whether a move
# was on its way (one listener; the record starts anew at each call).
RECORD_KEYS = """() => {
    const listening = window.seenKeys !== undefined;
    window.seenKeys = [];
    if (listening) return;
    document.addEventListener("keydown", (e) => {
        const drawn = Number(document.querySelector("section.table")?.dataset.version ?? -1);
        const busy = Boolean(document.querySelector("main.busy"));
        seenKeys.push({ t: e.timeStamp, key: e.key, drawn, busy });
    }, true);
}"""


@plays
def test_enter_pressed_twice_plays_one_card(open_page, live_url):
    # With a keyboard the focus stays at the played card's place, where the next card
    # lies once the table is drawn for the answer: a second Enter as quick as a double
    # tap is a slip there too.
    page = open_page(**DESKTOP)
    hearts_table(page, live_url, "keyboarder")
    pass_the_moon_cards(page)
    wait_my_turn(page, ("play",))
    play_at_once(page, "AC", confirm=False)
    # Seat 0 takes every trick of this deal and leads the next: a slow answer gets another try.
    for _trial in range(6):
        wait_my_turn(page, ("play",))
        held = hand_codes(page)
        page.locator(f".hand button[data-code='{held[0]}']").focus()
        page.evaluate(RECORD_KEYS)
        before = version(page)
        page.keyboard.press("Enter")
        try:
            page.wait_for_function(
                f"v => ({NEWER})(v) && !document.querySelector('main.busy')", arg=before, polling="raf", timeout=350
            )
        except PlaywrightTimeoutError:
            pass  # the second press comes all the same
        page.keyboard.press("Enter")
        expect(page.locator(f".hand button[data-code='{held[0]}']")).to_have_count(0)
        # Time for a second move to be answered, had one been sent.
        page.wait_for_timeout(800)
        settled(page)
        keys = page.evaluate("seenKeys")
        shown = hand_codes(page)
        # A trial counts where the second press came within 400 ms, on the table drawn anew
        # for the first one's answer (no move on its way: nothing else held it back).
        second = keys[1] if len(keys) == 2 else None
        if not (second and second["t"] - keys[0]["t"] < 400 and second["drawn"] > before and not second["busy"]):
            continue
        assert shown == held[1:], (held, shown, keys)
        break
    else:
        pytest.fail(f"no second Enter came within 400 ms on the table drawn anew: the last was {keys}")


@plays
def test_a_card_that_slides_under_the_finger_is_not_taken(open_page, live_url):
    page = open_page(**PHONE)
    code = hearts_table(page, live_url, "slider")
    first = hand_codes(page)[0]
    spot = point_on(page, first)
    # The finger comes down on the first card; the table is dealt anew under it (another
    # hand: another card there) before it lifts.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": spot[0], "y": spot[1]}]})
    other = [HEARTS_MOON_DEAL[(seat + 1) % 4] for seat in range(4)]
    deal_hand(code, other)
    showing(page, other[0])
    under = page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('.piece')?.dataset.code", list(spot))
    assert under not in (None, first), under
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_timeout(500)
    expect(page.locator(".hand .piece[aria-pressed=true]")).to_have_count(0)
    # A tap of its own on that card takes it.
    page.locator(f".hand button[data-code='{under}']").tap()
    expect(page.locator(f".hand button[data-code='{under}']")).to_have_attribute("aria-pressed", "true")


@plays
def test_a_tap_held_through_a_redraw_is_not_lost(open_page, live_url):
    page = open_page(**DESKTOP)
    code = hearts_table(page, live_url, "holder")
    first = hand_codes(page)[0]
    spot = point_on(page, first)
    # Pressed, then the table is drawn anew (the same deal again: the same cards, in the
    # same places, a newer version), then released: the card is chosen all the same.
    page.mouse.move(*spot)
    page.mouse.down()
    before = version(page)
    deal_hand(code, HEARTS_MOON_DEAL)
    page.wait_for_function(NEWER, arg=before)
    page.mouse.up()
    expect(page.locator(f".hand button[data-code='{first}']")).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".hand .piece[aria-pressed=true]")).to_have_count(1)


def moon_deal() -> list[list[str]]:
    deck = dominoes.cut_deck()
    return [deck[0:7], deck[7:14], deck[14:21]]


@plays
def test_the_widow_discard_asks_once(open_page, live_url, shots):
    # With a mouse, where "Confirm each move" is off: the widow asks all the same.
    page = open_page(**DESKTOP)
    sign_up(page, "widowa")
    code = new_match(live_url, token_of(page), "moon", {"moon_any_time": True, "widow": "compulsory"}, bots=2)
    page.goto(f"/join/{code}")
    wait_my_turn(page, ("bid",))
    # Seat 2 deals, so seat 0 bids first: a moon ends the auction at once.
    deal = moon_deal()
    deal_hand(code, deal, dealer=2)
    showing(page, deal[0])
    page.locator("[data-action=bid][data-value='21']").click()
    wait_my_turn(page, ("trump",))
    page.locator("[data-action=trump][data-value='6']").click()
    wait_my_turn(page, ("widow",))
    expect(page.locator(".hand .piece")).to_have_count(8)

    discard = hand_codes(page)[0]
    before = version(page)
    tile = page.locator(f".hand button[data-code='{discard}']")
    tile.click()
    expect(tile).to_have_attribute("aria-pressed", "true")
    button = page.locator("[data-action=confirm-move]")
    expect(button).to_have_text(re.compile(r"^Take the widow and discard "))
    shots(page, "widow-asked")
    # Nothing is sent before the button.
    page.wait_for_timeout(600)
    assert version(page) == before
    assert table(page).get_attribute("data-phase") == "widow"
    # Another tile moves the choice; Escape puts it down.
    other = hand_codes(page)[1]
    page.locator(f".hand button[data-code='{other}']").click()
    expect(page.locator(f".hand button[data-code='{other}']")).to_have_attribute("aria-pressed", "true")
    expect(tile).to_have_attribute("aria-pressed", "false")
    page.keyboard.press("Escape")
    expect(page.locator(".hand .piece[aria-pressed=true]")).to_have_count(0)
    expect(button).to_have_count(0)
    # And so does a tap elsewhere.
    tile.click()
    expect(button).to_be_visible()
    page.locator(".info").click()
    expect(button).to_have_count(0)
    assert version(page) == before

    tile.click()
    button.click()
    expect(page.locator(".info")).to_contain_text("taken")
    expect(page.locator(".hand .piece")).to_have_count(7)
    assert discard not in hand_codes(page)


@plays
def test_the_pass_is_one_tab_after_the_last_card(open_page, live_url):
    page = open_page(**DESKTOP)
    hearts_table(page, live_url, "tabby", {})
    cards = page.locator(".hand .piece")
    for card in MOON_PASS:
        page.locator(f".hand button[data-code='{card}']").focus()
        page.keyboard.press("Enter")
        expect(page.locator(f".hand button[data-code='{card}']")).to_have_attribute("aria-pressed", "true")
    cards.last.focus()
    page.keyboard.press("Tab")
    button = page.locator("[data-action=pass_cards]")
    expect(button).to_be_focused()
    # It says what it sends: the cards chosen, and to whom.
    expect(button).to_have_text("Pass 2♦ 3♦ 4♦ to Computer 2")


@plays
def test_the_settings_are_kept_and_followed_at_the_table(open_page, live_url, shots):
    page = open_page(**DESKTOP)
    sign_up(page, "settler")
    page.get_by_role("navigation", name="Account").get_by_role("link", name="Settings").click()
    confirm = page.get_by_label("Confirm each move")
    # The device's own choice is said: a mouse here.
    expect(confirm.locator("option[value=device]")).to_have_text(re.compile(r"off here"))
    expect(confirm).to_have_value("device")
    with page.expect_response(lambda r: r.url.endswith("/api/v1/me") and r.request.method == "PATCH") as saved:
        confirm.select_option(label="Always")
    assert saved.value.status == 200
    pause = page.get_by_label("Keep a finished trick on the table for")
    expect(pause).to_have_value("1200")
    with page.expect_response(lambda r: r.url.endswith("/api/v1/me") and r.request.method == "PATCH") as saved:
        pause.select_option(label="2 s")
    assert saved.value.status == 200
    settings = me(live_url, page)
    assert settings["confirm_moves"] is True and settings["trick_pause_ms"] == 2000
    page.reload()
    expect(page.get_by_label("Confirm each move")).to_have_value("on")
    expect(page.get_by_label("Keep a finished trick on the table for")).to_have_value("2000")
    shots(page, "settings")

    # At the table, with a mouse: a click raises a card, and its button, one Tab after
    # the last card, plays it.
    code = new_match(live_url, token_of(page), "hearts", MOON_OPTIONS, bots=3)
    page.goto(f"/join/{code}")
    wait_my_turn(page, ("pass",))
    deal_hand(code, HEARTS_MOON_DEAL)
    showing(page, HEARTS_MOON_DEAL[0])
    wait_my_turn(page, ("pass",))
    pass_the_moon_cards(page)
    wait_my_turn(page, ("play",))
    ace = page.locator(".hand button[data-code='AC']")
    before = version(page)
    ace.click()
    expect(ace).to_have_attribute("aria-pressed", "true")
    page.wait_for_timeout(500)
    assert version(page) == before
    page.locator(".hand .piece:not([disabled])").last.focus()
    page.keyboard.press("Tab")
    play = page.locator("[data-action=confirm-move]")
    expect(play).to_be_focused()
    expect(play).to_have_text("Play ace of clubs")
    shots(page, "raised")
    page.keyboard.press("Enter")
    expect(ace).to_have_count(0)
