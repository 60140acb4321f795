"""The table as a person sees it, at a phone's size (390x844) and on a desktop (1280x800):
whose turn it is and the clock stay in view, the seats sit around the table as seen from
the viewer's chair, the hand fits the first screen and is dimmed only where a card cannot
be played, the rules in force are shown, the clock is not read out every second, the
two-deck dialogs list each card once, the host goes by their display name, and the
site has an icon. Each check reads the page's real geometry and styles."""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from playwright.sync_api import expect

from games.rules import dominoes
from tests.game_params import match_variants, registered_games

from .conftest import PASSWORD, add_bots, create_room, deal_hand, play_by_api, table, token_of, wait_my_turn
from .test_client_contract import play

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
MINUS = "\u2212"  # the client writes a real minus sign
TIMES = "\u00d7"  # and a real multiplication sign for a card's copies
sizes = pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))


def card_text(code: str) -> str:
    return ("10" if code[0] == "T" else code[0]) + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[code[1]]


def sign_up_as(page, username: str, display_name: str) -> None:
    page.goto("/")
    page.get_by_role("tab", name="Sign up").click()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_label("Name shown at the table").fill(display_name)
    page.get_by_role("button", name="Sign up").last.click()
    page.get_by_role("button", name="Create the room").wait_for()


def screen_shot(page, shots, what: str) -> None:
    """What the screen shows as it is scrolled (the shots fixture takes whole pages)."""
    shots.n += 1
    page.screenshot(path=str(shots.folder / f"{shots.n:02d}-{what}.png"))


def box(page, selector: str) -> dict:
    """The bounding box of the first match, in viewport coordinates (after scrolling)."""
    found = page.evaluate(
        """sel => { const e = document.querySelector(sel); if (!e) return null;
            const r = e.getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height, bottom: r.bottom, right: r.right}; }""",
        selector,
    )
    assert found, f"nothing on the page matches {selector}"
    return found


def in_viewport(page, selector: str) -> bool:
    b = box(page, selector)
    vw, vh = page.viewport_size["width"], page.viewport_size["height"]
    return b["y"] >= 0 and b["bottom"] <= vh and b["x"] >= 0 and b["right"] <= vw and b["height"] > 0


def center(b: dict) -> tuple[float, float]:
    return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


def no_sideways_scroll(page) -> None:
    widths = page.evaluate(
        """() => ({doc: document.documentElement.scrollWidth, view: document.documentElement.clientWidth,
            boxes: [...document.querySelectorAll('.scroll')].map(e => [e.scrollWidth, e.clientWidth]),
            wide: [...document.querySelectorAll('body *')]
                .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
                .slice(0, 5).map(e => e.outerHTML.slice(0, 80))})"""
    )
    assert widths["doc"] <= widths["view"], widths
    for scroll, client in widths["boxes"]:
        assert scroll <= client, widths


# How strongly each piece of the hand is drawn: the opacity of its face times that of
# every ancestor; -1 where a filter fades or greys it (a drop shadow does not).
OPACITY = """() => [...document.querySelectorAll('.hand .piece')].map(e => {
    let o = 1;
    for (let n = e.firstElementChild; n; n = n.parentElement) {
        const s = getComputedStyle(n);
        o *= Number(s.opacity);
        if (/opacity|brightness|grayscale|saturate|contrast/.test(s.filter)) o = -1;
    }
    return o;
})"""


def hand_opacity(page) -> list[float]:
    return page.evaluate(OPACITY)


def assert_full_strength(page, pieces: int) -> None:
    """Every piece of the hand drawn at full strength (read once the table has settled:
    the page redraws as the computer players move)."""
    try:
        page.wait_for_function(
            f"n => {{ const o = ({OPACITY})(); return o.length === n && o.every(x => x === 1); }}",
            arg=pieces,
            timeout=3000,
        )
    except Exception:
        raise AssertionError(f"the hand is dimmed: {hand_opacity(page)}") from None


def assert_turn_and_clock_in_view_at_the_hand(page) -> None:
    """Scrolled so that the whole hand shows at the top: the turn line and the clock are on
    screen all the same."""
    page.evaluate("document.querySelector('.hand-area').scrollIntoView({block: 'start'})")
    assert in_viewport(page, ".hand-area"), box(page, ".hand-area")
    # The line stays on top and the cards show below it, not under it.
    assert box(page, ".turn-line")["bottom"] <= box(page, ".hand .piece")["y"] + 1
    for where in ("window.scrollTo(0, 0)", "window.scrollTo(0, document.body.scrollHeight)"):
        page.evaluate(where)
        assert in_viewport(page, ".turn-line .turn-text"), box(page, ".turn-line")
        assert in_viewport(page, "[data-countdown]"), box(page, "[data-countdown]")
    page.evaluate("window.scrollTo(0, 0)")


def assert_seats_around(page, n: int) -> None:
    """The viewer sits at the bottom of the table; going round clockwise from them the
    seats come in their order (seats are numbered clockwise): on the viewer's left, across,
    then on their right. With four, the seats left, across and right are exactly so."""
    # Laid out around the table, the seats are still one list to a screen reader.
    expect(page.get_by_role("list", name="Players").get_by_role("listitem")).to_have_count(n)
    me = page.locator(".seat.me")
    viewer = int(me.get_attribute("data-seat")) if me.count() else 0  # a spectator sees seat 0 there
    ring = center(box(page, ".ring"))
    boxes = {s: box(page, f".seat[data-seat='{s}']") for s in range(n)}
    me_x, me_y = center(boxes[viewer])
    assert all(me_y > center(b)[1] for s, b in boxes.items() if s != viewer), boxes
    # Clockwise on screen from straight down (y grows downwards): 0 at the bottom, 90 on
    # the left, 180 at the top, 270 on the right.
    turned = []
    for k in range(n):
        x, y = center(boxes[(viewer + k) % n])
        angle = math.degrees(math.atan2(y - ring[1], x - ring[0]))
        turned.append((angle - 90) % 360 if k else 0.0)
    assert turned == sorted(turned) and len(set(turned)) == n, turned
    if n == 4:
        left, across, right = ((viewer + k) % 4 for k in (1, 2, 3))
        lx, ly = center(boxes[left])
        ax, ay = center(boxes[across])
        rx, ry = center(boxes[right])
        assert lx < ax < rx, boxes
        assert abs(ax - me_x) < 2, "the seat across sits straight across"
        assert ay < ly and ay < ry, boxes


def assert_clock_not_read_out(page) -> None:
    """No live region holds the countdown, and what the live regions say stays put while
    the clock ticks."""
    inside = page.evaluate(
        "() => [...document.querySelectorAll('[aria-live]')].some(r => r.querySelector('[data-countdown]'))"
    )
    assert not inside
    read = "() => [...document.querySelectorAll('[aria-live]')].map(r => r.textContent).join('|')"
    clock = page.locator("[data-countdown]").inner_text()
    said = page.evaluate(read)
    page.wait_for_function("t => document.querySelector('[data-countdown]')?.textContent !== t", arg=clock)
    assert page.evaluate(read) == said


@sizes
def test_a_sweedo_hearts_table_at_the_size_of(open_page, live_url, shots, size):
    width, height = SIZES[size]
    page = open_page(width=width, height=height)
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    sign_up_as(page, f"hostc{width}", "Hostess")

    def sweedo_funky(page) -> None:
        page.get_by_label("Rules", exact=True).select_option("sweedo")
        page.get_by_label("Fourth hand").select_option(label="Funky pass")

    code = create_room(page, "hearts", sweedo_funky)
    # The host is named as the table names her, not by her account.
    expect(page.locator(".lobby .table-head .meta")).to_contain_text("host Hostess")
    expect(page.locator(".lobby .table-head .meta")).not_to_contain_text(f"hostc{width}")
    add_bots(page, 3)
    shots(page, "lobby")
    page.locator("[data-action=start]").click()
    wait_my_turn(page, ("pass",))

    # The house rules in force, at the table.
    rules = page.get_by_role("region", name="Rules in force")
    expect(rules).to_be_visible()
    sweedo = ("Sweedo", "J♦ {m}10", "no trick {m}5", "moon needs J♦ too: shooter {m}36, or {m}10 and others +26")
    for words in (*sweedo, "funky pass"):
        expect(rules).to_contain_text(words.format(m=MINUS))
    # The first screen holds the turn, the table and all thirteen cards (measured once
    # the live link has settled: its status line is part of the screen).
    expect(page.locator(".hand .piece")).to_have_count(13)
    expect(page.locator("[data-live]").first).to_have_text("live")
    shots(page, "pass")
    assert in_viewport(page, ".hand-area"), box(page, ".hand-area")
    assert in_viewport(page, ".house-rules"), box(page, ".house-rules")
    assert box(page, ".ring")["height"] <= 0.4 * height, box(page, ".ring")
    assert_seats_around(page, 4)
    assert_turn_and_clock_in_view_at_the_hand(page)
    assert_clock_not_read_out(page)
    expect(page.locator("#turn-announcer")).to_have_text("Your turn: choose cards to pass.")
    no_sideways_scroll(page)

    # The cards are played through the API; the page follows to the end of the hand.
    play_by_api(live_url, token_of(page), code, lambda view: view["phase"] == "round_over")
    expect(table(page)).to_have_attribute("data-phase", "round_over")
    # The pause between hands says what happens when it runs out.
    expect(page.locator(".turn-line")).to_contain_text(re.compile(r"The next hand starts by itself in \d+:\d\d\."))
    results = page.get_by_role("region", name="Result of the hand")
    takers = results.locator(".takers")
    expect(takers).to_contain_text(re.compile(r"(You|Computer \d) took Q♠\. (You|Computer \d) took J♦\."))
    no_sideways_scroll(page)
    shots(page, "results")
    page.evaluate("document.querySelector('.score-sheet').scrollIntoView({block: 'end'})")
    assert in_viewport(page, ".turn-line .clock")
    screen_shot(page, shots, "score-sheet-scrolled")

    # Hand 4, the funky pass: its three slots and the whole hand on the first screen.
    play_by_api(live_url, token_of(page), code, lambda view: view["round"] == 4)
    wait_my_turn(page, ("pass",))
    expect(page.locator(".actions .slot")).to_have_count(3)
    expect(page.locator(".hand .piece")).to_have_count(13)
    expect(page.locator("[data-live]").first).to_have_text("live")
    shots(page, "funky-pass")
    # The top bar is one line, the account's four links beside the spade.
    assert box(page, ".topbar")["height"] <= 52, box(page, ".topbar")
    assert in_viewport(page, ".hand-area"), box(page, ".hand-area")
    assert in_viewport(page, "[data-action=pass_cards]")
    no_sideways_scroll(page)

    # The list of her tables names the host as the table does.
    page.goto("/")
    expect(page.locator(".room-list li", has_text=code).first).to_contain_text("host Hostess")
    assert not errors, errors


def moon_deal_for(me: int) -> list[list[str]]:
    """The seven sixes for seat `me`; the other tiles dealt round the computer players."""
    sixes = [t for t in dominoes.full_set() if t.startswith("6-")]
    rest = [t for t in dominoes.full_set() if not t.startswith("6-")]
    others = [s for s in range(4) if s != me]
    return [sixes if s == me else rest[others.index(s) :: 3] for s in range(4)]


def moon_for_four(page) -> None:
    page.get_by_label("Players", exact=True).select_option("4")


@sizes
def test_moon_for_four_seats_the_partner_across_and_shows_the_hand_while_bidding(open_page, shots, size):
    width, height = SIZES[size]
    page = open_page(width=width, height=height)
    sign_up_as(page, f"mo{width}", "Mo")
    code = create_room(page, "moon", moon_for_four)
    add_bots(page, 3)
    page.locator("[data-action=start]").click()
    expect(table(page)).to_be_visible()

    me = int(table(page).locator(".seat.me").get_attribute("data-seat"))
    partner = (me + 2) % 4
    mine, theirs = box(page, ".seat.me"), box(page, f".seat[data-seat='{partner}']")
    assert abs(center(mine)[0] - center(theirs)[0]) < 2 and theirs["bottom"] < mine["y"], (mine, theirs)
    assert_seats_around(page, 4)
    expect(page.get_by_role("region", name="Rules in force")).to_contain_text("4 players, partners sit across")

    # Bidding is when the tiles must be read: every tile at full strength. A fixed deal
    # makes her the first to bid, so no computer player's bid can end the auction first.
    deal_hand(code, moon_deal_for(me), dealer=(me - 1) % 4)
    assert wait_my_turn(page, ("bid",)) == "bid"
    expect(page.locator(".hand .piece")).to_have_count(7)
    assert_full_strength(page, 7)
    assert in_viewport(page, ".hand-area"), box(page, ".hand-area")
    assert_turn_and_clock_in_view_at_the_hand(page)
    no_sideways_scroll(page)
    shots(page, "bid")
    page.locator("[data-action=bid]:not([disabled])").last.click()
    phase = wait_my_turn(page, ("trump", "play", "round_over"))
    if phase == "trump":
        assert_full_strength(page, 7)
        shots(page, "trump")
    if phase == "play":
        # In play the tiles that cannot be played are dimmed, and only they.
        seen = page.evaluate(
            f"() => ({{ opacity: ({OPACITY})(), playable: [...document.querySelectorAll('.hand .piece')]"
            ".map(e => !e.disabled) })"
        )
        pairs = zip(seen["opacity"], seen["playable"], strict=True)
        assert all((o == 1) == ok for o, ok in pairs), seen
        shots(page, "play")


def kali_two_decks_for_five(page) -> None:
    page.get_by_label("Players", exact=True).select_option("5")
    page.get_by_label("Partners", exact=True).select_option("cards")


@sizes
def test_kali_tidi_with_two_decks_lists_each_card_once_and_keeps_the_hand_in_sight(open_page, shots, size):
    width, height = SIZES[size]
    page = open_page(width=width, height=height)
    sign_up_as(page, f"kal{width}", "Kal")
    create_room(page, "kali_tidi", kali_two_decks_for_five)
    add_bots(page, 4)
    page.locator("[data-action=start]").click()

    # 104 cards for five: four are removed, from 24 zero-point codes of two copies each.
    wait_my_turn(page, ("remove",))
    dialog = page.locator("dialog.choose")
    expect(dialog).to_be_visible()
    pieces = dialog.locator(".piece")
    expect(pieces).to_have_count(24)
    codes = pieces.evaluate_all("els => els.map(e => e.dataset.code)")
    assert len(set(codes)) == 24 and all(c[0] in "246789" for c in codes)
    expect(dialog.locator(".piece .copies")).to_have_count(24)
    expect(dialog.locator(".piece .copies").first).to_have_text(f"{TIMES}2")
    expect(dialog).to_contain_text("both copies of one may")
    shots(page, "remove")
    # Both copies of one card (two taps), then two more cards.
    first = pieces.nth(0)
    first.click()
    first.click()
    expect(first).to_have_attribute("aria-label", re.compile(r"2 copies, 2 chosen$"))
    pieces.nth(1).click()
    expect(dialog.get_by_role("button", name="Remove these cards")).to_be_disabled()
    pieces.nth(2).click()
    shots(page, "remove-chosen")
    dialog.get_by_role("button", name="Remove these cards").click()
    removed = page.locator(".info-item", has_text="Removed")
    expect(removed).to_be_visible()
    shown = removed.locator("dd").inner_text().split()
    assert sorted(shown) == sorted(card_text(c) for c in (codes[0], codes[0], codes[1], codes[2])), shown

    # The auction: the hand of 20 is read at full strength, and fits the first screen.
    wait_my_turn(page, ("bid",))
    expect(page.locator(".hand .piece")).to_have_count(20)
    shots(page, "bid")
    assert_full_strength(page, 20)
    assert in_viewport(page, ".hand-area"), box(page, ".hand-area")
    assert_turn_and_clock_in_view_at_the_hand(page)
    assert_seats_around(page, 5)
    expect(page.get_by_role("region", name="Rules in force")).to_contain_text(
        "2 decks · partners by called cards · the first other player to play a called card is the partner"
    )
    no_sideways_scroll(page)
    page.locator(".actions select").select_option(label="Bid 500")
    page.get_by_role("button", name="Bid", exact=True).click()

    # Calling two partners: the hand stays in sight in the dialog, with the rule in force;
    # each card is listed once, with the copies the others hold.
    wait_my_turn(page, ("call",))
    expect(dialog).to_be_visible()
    expect(dialog.locator(".partner-rule")).to_contain_text(
        "Partner rule: the first other player to play a called card is the partner"
    )
    held = page.locator(".hand .piece").evaluate_all("els => els.map(e => e.dataset.code)")
    expect(dialog.locator(".dialog-hand .mini")).to_have_count(len(held))
    assert in_viewport(page, "dialog.choose .dialog-hand")
    calls = dialog.locator(".piece").evaluate_all("els => els.map(e => [e.dataset.code, Number(e.dataset.copies)])")
    assert len({c for c, _ in calls}) == len(calls)
    removed = [codes[0], codes[0], codes[1], codes[2]]
    assert codes[0] not in dict(calls), "both copies are out of the game"
    for card, copies in calls:
        assert copies == 2 - held.count(card) - removed.count(card), (card, copies, held)
    expect(dialog.locator(".piece .copies").first).to_have_text(re.compile(TIMES + "[12]"))
    shots(page, "call")
    for card, _ in calls[-2:]:
        dialog.locator(f".piece[data-code='{card}']").click()
    dialog.get_by_role("button", name="Call partners").click()

    wait_my_turn(page, ("trump",))
    assert_full_strength(page, 20)
    shots(page, "trump")
    page.locator("[data-action=trump][data-value='S']").click()
    wait_my_turn(page, ("play",))
    shots(page, "play")


# The table drawn by the client's own code from engine views, in the page's main column.
DRAW = """async ([key, view, rounds, options]) => {
    const { TableView } = await import("/static/web/table.js");
    const { gameModule } = await import("/static/web/games/index.js");
    const game = gameModule(key);
    const extras = { catalogue: { name: key, module: game }, events: [], rounds, liveStatus: "live" };
    const room = { code: view.code, game: key, options, host: "user0", seats: view.seats };
    const tv = new TableView({ game, room, act: () => {}, rerender: () => {} });
    tv.render(document.querySelector("main"), view, extras);
}"""


# The widest tables of the games known here; any other game, each of its match variants.
WIDEST = [
    ("kali_tidi", "7", {"players": 7, "team_mode": "cards", "trump_card": "three_of_spades"}),
    ("kali_tidi", "6", {"players": 6, "team_mode": "cards", "partner_rule": "last"}),
    ("kali_tidi", "2", {"players": 2, "team_sizes": [1, 1]}),
    ("moon", "4", {"players": 4}),
    ("moon", "3", {"players": 3}),
    ("hearts", "sweedo", {"preset": "sweedo"}),
]
WIDEST += [
    (game.key, name, options)
    for game in registered_games()
    if game.key not in {key for key, _, _ in WIDEST}
    for name, options in match_variants(game).items()
]


@sizes
@pytest.mark.parametrize(
    ("key", "options"), [pytest.param(key, options, id=f"{key}-{name}") for key, name, options in WIDEST]
)
def test_the_results_and_a_long_score_sheet_fit_the_width(open_page, shots, size, key, options):
    """The widest tables there are (seven players and a contract column, several hands):
    no sideways scroll, on the page or in a table."""
    played = play(key, options, hands=4, play_every=50)
    rounds = []
    for case in played.cases:
        last = case.view.get("last_round")
        if last and not any(r["round"] == last["round"] for r in rounds):
            rounds.append(dict(last))
    over = [c for c in played.cases if c.seat == 0 and c.view["phase"] in ("round_over", "match_over")]
    assert len(rounds) >= 2 and over
    width, height = SIZES[size]
    page = open_page(width=width, height=height)
    page.goto("/")
    page.get_by_role("tab", name="Log in").wait_for()
    page.evaluate(DRAW, [key, over[-1].view, rounds, played.options])
    expect(page.get_by_role("region", name="Result of the hand")).to_be_visible()
    expect(page.locator(".score-sheet tbody tr:not(.contract-row)")).to_have_count(len(rounds))
    n = len(over[-1].view["seats"])
    assert_seats_around(page, n)
    shots(page, "results")
    no_sideways_scroll(page)


def test_the_site_icon_is_served_and_no_first_visit_logs_an_error(open_page, live_url):
    res = httpx.get(f"{live_url}/favicon.ico")
    assert res.status_code == 200
    assert res.headers["content-type"] == "image/x-icon"
    assert res.content[:4] == b"\x00\x00\x01\x00"  # an ICO header
    page = open_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    failed: list[str] = []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.goto("/")
    page.get_by_role("tab", name="Log in").wait_for()
    page.wait_for_load_state("networkidle")
    assert not errors and not failed, (errors, failed)
    icons = page.locator("link[rel=icon]").evaluate_all("els => els.map(e => e.href)")
    for href in icons:
        assert httpx.get(href).status_code == 200, href


def overlap(a: dict, b: dict) -> bool:
    return a["x"] < b["right"] and b["x"] < a["right"] and a["y"] < b["bottom"] and b["y"] < a["bottom"]


@sizes
@pytest.mark.parametrize(
    ("on_abandon", "words"),
    [("end", "before the match is abandoned"), ("bot", "before a computer player takes your seat")],
    ids=["end", "bot"],
)
def test_the_idle_clock_stays_in_view_beside_the_turn_clock(open_page, shots, size, on_abandon, words):
    """When the player's own waiting time runs out before the turn does, the sticky line
    carries that clock too, worded for what the room does then, distinct from the turn
    clock and clear of it; the hand still shows below the line."""
    played = play("hearts", {"on_abandon": on_abandon})
    view = next(
        c.view for c in played.cases if c.seat == 0 and c.view["phase"] == "play" and c.view["you"]["legal_actions"]
    )
    now = datetime.now(UTC)
    view = {
        **view,
        "deadline": (now + timedelta(seconds=60.5)).isoformat(),
        "abandon_deadline": (now + timedelta(seconds=40.5)).isoformat(),
    }
    width, height = SIZES[size]
    page = open_page(width=width, height=height)
    page.goto("/")
    page.get_by_role("tab", name="Log in").wait_for()
    page.evaluate(DRAW, ["hearts", view, [], played.options])
    idle = page.locator(".turn-line .idle-clock")
    expect(idle).to_have_text(re.compile(rf"^0:(40|39|3\d) {words}$"))
    expect(page.locator(".turn-line [data-countdown]")).to_have_text(re.compile(r"^(1:00|0:5\d)$"))
    shots(page, "both-clocks")
    parts = {sel: box(page, f".turn-line {sel}") for sel in (".turn-text", ".clock", ".idle-clock")}
    assert not overlap(parts[".idle-clock"], parts[".turn-text"]), parts
    assert not overlap(parts[".idle-clock"], parts[".clock"]), parts
    # Warning colours of its own, not the line's.
    colours = page.evaluate(
        """() => [document.querySelector('.turn-line'), document.querySelector('.idle-clock')]
            .map(e => getComputedStyle(e).backgroundColor)"""
    )
    assert colours[0] != colours[1], colours
    # On a phone the first screen still holds the whole hand under both clocks.
    assert in_viewport(page, ".hand-area"), box(page, ".hand-area")
    assert_turn_and_clock_in_view_at_the_hand(page)
    for where in ("window.scrollTo(0, 0)", "window.scrollTo(0, document.body.scrollHeight)"):
        page.evaluate(where)
        assert in_viewport(page, ".idle-clock"), box(page, ".idle-clock")
    page.evaluate("document.querySelector('.hand-area').scrollIntoView({block: 'start'})")
    assert box(page, ".turn-line")["bottom"] <= box(page, ".hand .piece")["y"] + 1
    no_sideways_scroll(page)
    # A screen reader hears it once with the turn, without the seconds.
    then = words.removeprefix("before ")
    said = re.compile(rf"^Your turn.* If you do not act, {then} before this turn's time runs out\.$")
    expect(page.locator("#turn-announcer")).to_have_text(said)
    # Not while the turn runs out first.
    later = {**view, "abandon_deadline": (now + timedelta(seconds=90)).isoformat(), "version": view["version"] + 1}
    page.evaluate(DRAW, ["hearts", later, [], played.options])
    expect(page.locator(".turn-line [data-countdown]")).to_be_visible()
    expect(idle).to_have_count(0)
