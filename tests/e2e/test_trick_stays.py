"""A finished trick stays on the table for the player's pause whoever won it and whoever
leads the next, and the last trick can be looked at again while the next is played.

The deal is fixed after the pass (HANDS below): the player, seat 0, leads 2♣; each other
seat holds one club, the ace with seat 3, who takes the trick and, holding only hearts,
leads one; then it is the player's turn. The computer players move inside the request
(no bot delay in the tests), so the page gets one view in which the trick was taken and
the next one led. What the page drew is recorded in the page itself, at each redraw, with
the version of the view drawn: the old trick is seen to stay while the drawn view is the
one with the lead, whatever the machine's speed."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

from .axe import assert_none, check
from .conftest import orm, sign_up, table, token_of, wait_my_turn

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
sizes = pytest.mark.parametrize("size", list(SIZES))

# The hands once the cards have passed left: (seat 0) the player, (1) left, (2) across, (3) right.
HANDS = [
    ["2C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "2D", "3D", "4D"],
    ["3C", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD", "2S", "3S"],
    ["4C", "2H", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"],
    ["AC", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
]
# What each seat passes to its left: three cards of the next seat's hand above.
PASSES = [["5D", "6D", "7D"], ["4S", "5S", "6S"], ["3H", "4H", "5H"], ["2D", "3D", "4D"]]
FIRST_TRICK = ["2C", "3C", "4C", "AC"]

# Each drawing of the trick area, as the page shows it, with the version of the view drawn
# and whether the hand could be played from then.
RECORD = """() => {
    window.__tricks = [];
    const note = () => {
        const section = document.querySelector("section.table");
        const area = section?.querySelector(".trick-area");
        if (!area) return;
        const seen = {
            version: Number(section.dataset.version),
            caption: area.querySelector(".caption").textContent,
            cards: [...area.querySelectorAll(".played")].map((li) => li.dataset.code),
            winner: area.querySelector(".played.winner")?.dataset.seat ?? null,
            playable: document.querySelectorAll(".hand button:not([disabled])").length,
        };
        if (JSON.stringify(window.__tricks.at(-1)) !== JSON.stringify(seen)) window.__tricks.push(seen);
    };
    new MutationObserver(note).observe(document.querySelector("main"), { subtree: true, childList: true });
    note();
}"""


def api(live_url: str, token: str) -> httpx.Client:
    return httpx.Client(base_url=f"{live_url}/api/v1/", headers={"Authorization": f"Token {token}"}, timeout=30)


def deal_after_the_pass(code: str) -> None:
    """Replace the hand being played in room `code` by HANDS, as they are once PASSES are
    made (through the engine's own pass), so that play starts with the player's 2♣ lead."""
    from games import rules, store
    from games.models import Action

    def work() -> None:
        with store.locked(code) as table:
            round_ = table.round
            game = rules.get(table.room.game)
            dealt = [sorted(set(HANDS[s]) - set(PASSES[s - 1]) | set(PASSES[s])) for s in range(4)]
            state = game.new_round(
                options=table.room.options, players=4, seed=round_.seed, carry=dict(round_.carry or {}), deal=dealt
            )
            for seat in range(4):
                state = game.apply(state, seat, {"type": "pass_cards", "cards": PASSES[seat]}).state
            assert [sorted(h) for h in state["hands"]] == [sorted(h) for h in HANDS]
            round_.state = state
            table.mark(round_, ["state"])
            Action.objects.filter(round=round_).delete()
            table.touch()

    orm(work)


def open_table(open_page, live_url: str, size: str, name: str, pause_ms: int | None) -> tuple[object, str, str]:
    """A page at the player's table, the deal above, their 2♣ to lead; the page, the room's
    code and the player's token. `pause_ms`: their trick pause (None: the default)."""
    width, height = SIZES[size]
    page = open_page(width=width, height=height)
    sign_up(page, name)
    token = token_of(page)
    settings = {"confirm_moves": False}
    if pause_ms is not None:
        settings["trick_pause_ms"] = pause_ms
    with api(live_url, token) as client:
        assert client.patch("me", json=settings).status_code == 200
        code = client.post("rooms/", json={"game": "hearts", "options": {}}).json()["code"]
        for _ in range(3):
            assert client.post(f"rooms/{code}/bots", json={}).status_code == 201
        assert client.post(f"rooms/{code}/start").status_code == 200
    deal_after_the_pass(code)
    # Opened afresh, so that the page reads the settings just changed.
    page.goto(f"/join/{code}")
    wait_my_turn(page, ("play",))
    expect(page.locator(".hand button")).to_have_count(13)
    return page, code, token


def lead_the_two_and_get_the_next_lead(page, live_url: str, code: str, token: str) -> tuple[int, dict]:
    """The player leads 2♣; the computers finish the trick, seat 3 takes it and leads.
    The version of the view with that lead, and that view, from the server."""
    page.evaluate(RECORD)
    page.locator(".hand button[data-code='2C']").click()
    expect(page.locator(".hand button[data-code='2C']")).to_have_count(0)
    wait_my_turn(page, ("play",))
    with api(live_url, token) as client:
        view = client.get(f"rooms/{code}/state").json()
    # The view the page drew: the trick taken by seat 3, and its lead, alone in the next.
    assert view["last_trick"] == {"cards": [{"seat": s, "card": c} for s, c in enumerate(FIRST_TRICK)], "winner": 3}
    assert len(view["trick"]) == 1 and view["trick"][0]["seat"] == 3 and view["to_act"] == [0]
    assert table(page).get_attribute("data-version") == str(view["version"])
    return view["version"], view


def drawn_at(page, version: int) -> list[dict]:
    return [t for t in page.evaluate("window.__tricks") if t["version"] == version]


def assert_no_sideways_scroll(page, size: str) -> None:
    if size == "phone":
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES["phone"][0]


# The trick area as it stands, read at once: a look back closes by itself after a few
# seconds, which a slow machine may spend between one question and the next.
SHOWN = """() => {
    const area = document.querySelector(".trick-area");
    const button = area.querySelector(".last-trick-toggle")?.getBoundingClientRect();
    const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    return {
        caption: area.querySelector(".caption").textContent,
        cards: [...area.querySelectorAll(".played")].map((li) => li.dataset.code),
        winner: area.querySelector(".played.winner")?.dataset.seat ?? null,
        pressed: area.querySelector(".last-trick-toggle")?.getAttribute("aria-pressed") ?? null,
        focused: document.activeElement?.classList.contains("last-trick-toggle") ?? false,
        // Whether the button covers a card.
        covers: Boolean(button) && [...area.querySelectorAll(".played .card-face")].some(
            (card) => overlaps(button, card.getBoundingClientRect())),
    };
}"""


def last_trick_words(page) -> str:
    names = [page.locator(f".seat[data-seat='{s}'] .name").inner_text() for s in range(4)]
    cards = ["2 of clubs", "3 of clubs", "4 of clubs", "ace of clubs"]
    plays = ", ".join(f"{card} by {names[s]}" for s, card in enumerate(cards))
    return f"Last trick, taken by {names[3]}: {plays}"


@sizes
def test_the_trick_taken_stays_after_the_next_lead_then_the_new_trick_shows(open_page, live_url, shots, size):
    page, code, token = open_table(open_page, live_url, size, f"stay{size}", pause_ms=None)
    version, view = lead_the_two_and_get_the_next_lead(page, live_url, code, token)
    lead = view["trick"][0]["card"]
    right = page.locator(".seat[data-seat='3'] .name").inner_text()

    # Then the current trick, once the pause is over: the lead alone.
    area = page.locator(".trick-area")
    expect(area.locator(".caption")).to_have_text("This trick")
    expect(area.locator(".played")).to_have_count(1)
    expect(area.locator(".played")).to_have_attribute("data-code", lead)
    shots(page, "next-trick")

    # The view with the lead in it was first drawn with the whole trick taken, its winner
    # marked, while the hand could be played from.
    drawn = drawn_at(page, version)
    first = drawn[0]
    assert (first["caption"], first["cards"], first["winner"]) == (f"Taken by {right}", FIRST_TRICK, "3"), drawn
    assert first["playable"] > 0
    assert drawn[-1]["cards"] == [lead] and drawn[-1]["caption"] == "This trick"
    assert_no_sideways_scroll(page, size)
    found: dict[str, list] = {}
    check(page, "next trick, with the look back offered", found)
    assert_none(found)

    # The last trick, looked at again with one tap, and closed with another.
    button = page.get_by_role("button", name=re.compile("^Last trick"))
    expect(button).to_have_attribute("aria-label", last_trick_words(page))
    now = page.evaluate(SHOWN)
    assert (now["cards"], now["pressed"], now["covers"]) == ([lead], "false", False), now
    button.click()
    now = page.evaluate(SHOWN)
    assert now["caption"] == f"Last trick, taken by {right}" and now["cards"] == FIRST_TRICK, now
    assert (now["winner"], now["pressed"], now["covers"]) == ("3", "true", False), now
    assert_no_sideways_scroll(page, size)
    shots(page, "last-trick")
    # Unless the look back closed by itself while the screenshot was taken.
    if page.evaluate(SHOWN)["pressed"] == "true":
        button.click()
    now = page.evaluate(SHOWN)
    assert (now["cards"], now["pressed"]) == ([lead], "false"), now

    # By keyboard: Enter opens it, Escape closes it; left alone, it closes by itself.
    button.focus()
    page.keyboard.press("Enter")
    now = page.evaluate(SHOWN)
    assert (now["cards"], now["pressed"], now["focused"]) == (FIRST_TRICK, "true", True), now
    page.keyboard.press("Escape")
    now = page.evaluate(SHOWN)
    assert (now["cards"], now["pressed"], now["focused"]) == ([lead], "false", True), now
    page.keyboard.press("Enter")
    expect(area.locator(".played")).to_have_count(4)
    expect(area.locator(".played")).to_have_count(1, timeout=15_000)
    expect(button).to_have_attribute("aria-pressed", "false")

    # A page opened in the middle of the trick shows the trick as it is, with no pause.
    page.add_init_script(f"document.addEventListener('DOMContentLoaded', {RECORD})")
    page.reload()
    wait_my_turn(page, ("play",))
    expect(area.locator(".played")).to_have_count(1)
    assert all(t["cards"] == [lead] for t in page.evaluate("window.__tricks")), page.evaluate("window.__tricks")


@sizes
def test_with_no_pause_the_next_trick_shows_at_once(open_page, live_url, shots, size):
    page, code, token = open_table(open_page, live_url, size, f"quick{size}", pause_ms=0)
    version, view = lead_the_two_and_get_the_next_lead(page, live_url, code, token)
    lead = view["trick"][0]["card"]
    # The view with the lead in it was never drawn with the trick taken.
    drawn = drawn_at(page, version)
    assert drawn and all(t["cards"] == [lead] and t["caption"] == "This trick" for t in drawn), drawn
    shots(page, "next-trick")

    # The trick taken is still there to be looked at.
    page.get_by_role("button", name=re.compile("^Last trick")).click()
    now = page.evaluate(SHOWN)
    assert (now["cards"], now["winner"], now["pressed"]) == (FIRST_TRICK, "3", "true"), now
    assert_no_sideways_scroll(page, size)
    shots(page, "last-trick")
