"""Fair deals for people: the table's Fair deal box says in one sentence what it does,
shows the lock (the commitment) of the hand to come whole and copyable, and each hand
the browser checked (SubtleCrypto) as "Verified ✓"; it links to the site's page that
explains how to check a deal by hand. No programmer's words in the box, and nothing
sticks out sideways on a phone, the revealed key included."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect

from .account_pages import LAPTOP, PHONE, fits
from .conftest import add_bots, create_room, play_by_api, sign_up, token_of

EXPLAINED = (
    "Before each hand the server locks in the shuffle and shows you the lock; after the hand it shows the key, "
    "so anyone can check the deal was not changed."
)
# What the box once said to programmers, and says no more.
PROGRAMMERS = ("committed", "commitment", "Algorithm", "hmac", "README")


def commitment_of(live_url: str, page, code: str) -> str:
    headers = {"Authorization": f"Token {token_of(page)}"}
    return httpx.get(f"{live_url}/api/v1/rooms/{code}/state", headers=headers).json()["fairness"]["commitment"]


def fits_the_phone(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_finished_hand_shows_its_deal_verified(open_page, live_url, shots):
    page = open_page(permissions=["clipboard-read", "clipboard-write"])
    sign_up(page, "fay")
    code = create_room(page, "moon")
    add_bots(page, 2)
    # The lobby's box says what it is for in plain words and shows hand 1's lock whole,
    # in the page's text (not a tooltip), with a button that copies it.
    fair = page.locator(".fair-deal")
    fair.locator("summary").click()
    expect(fair).to_contain_text(EXPLAINED)
    commitment = commitment_of(live_url, page, code)
    lock = fair.locator(".commitment")
    expect(lock).to_have_text(commitment)
    expect(lock).to_be_visible()
    expect(fair).to_contain_text("The lock for hand 1:")
    fair.get_by_role("button", name="Copy the lock for hand 1").click()
    expect(fair.get_by_role("status").filter(has_text="Copied.")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == commitment
    for words in PROGRAMMERS:
        assert words not in fair.inner_text()
    expect(fair.get_by_role("link", name="How to check a deal yourself")).to_have_attribute("href", "/fair-deals")
    fits_the_phone(page)
    page.get_by_label("Your seed for hand 1").fill("fay's lucky seed")
    page.get_by_role("button", name="Set my seed").click()
    expect(page.locator(".lobby-seat.me")).to_be_visible()
    expect(page.get_by_role("status").filter(has_text="Seed set.")).to_be_visible()
    expect(page.get_by_label("Your seed for hand 1")).to_have_value("fay's lucky seed")
    shots(page, "seed set")
    page.locator("[data-action=start]").click()
    page.locator("section.table").wait_for()
    play_by_api(live_url, token_of(page), code, lambda v: v["phase"] in ("round_over", "match_over"))
    check = page.locator(".results .deal-check")
    expect(check).to_have_text("Deal verified ✓", timeout=15_000)
    expect(check).to_have_class("deal-check ok")
    # The box lists the hand as checked, and shows the next hand's lock; the score
    # sheet marks the hand too.
    fair = page.locator(".fair-deal")
    if fair.get_attribute("open") is None:
        fair.locator("summary").click()
    expect(fair.locator(".fair-checked li[data-hand='1']")).to_have_text("Hand 1: Verified ✓")
    expect(fair.locator(".commitment")).to_have_text(commitment_of(live_url, page, code))
    expect(fair).to_contain_text("The lock for hand 2:")
    for words in PROGRAMMERS:
        assert words not in fair.inner_text()
    expect(page.locator(".score-sheet tbody th").first).to_have_text("1 ✓ deal verified")
    # The key and the seeds it was checked with, hers among them; the 64 characters of
    # the key wrap on a phone.
    page.locator(".revealed-seeds summary").click()
    seeds = page.locator(".revealed-seeds")
    expect(seeds).to_contain_text("1: fay's lucky seed")
    expect(seeds).to_contain_text(f"The lock shown before the hand: {commitment}")
    for words in PROGRAMMERS:
        assert words not in seeds.inner_text()
    fits_the_phone(page)
    shots(page, "deal verified")

    # The same check refuses a deal changed after the fact.
    verdicts = page.evaluate(
        """async (code) => {
            const { verifyHand } = await import("/static/web/fairness.js");
            const token = localStorage.getItem("tt.token");
            const rounds = await (await fetch(`/api/v1/rooms/${code}/rounds`,
                {headers: {Authorization: `Token ${token}`}})).json();
            const fair = rounds[0].fairness;
            const honest = await verifyHand(fair);
            const hands = fair.deals.at(-1).hands;
            [hands[0][0], hands[1][0]] = [hands[1][0], hands[0][0]];
            const swapped = await verifyHand(fair);
            const other = await verifyHand({ ...fair, server_seed: "0".repeat(64) });
            return [honest, swapped, other];
        }""",
        code,
    )
    assert verdicts == [True, False, False]

    # The box's link: the site's page that explains it all, step by step.
    fair.get_by_role("link", name="How to check a deal yourself").click()
    expect(page).to_have_url(f"{live_url}/fair-deals")
    explains(page, PHONE)


def explains(page, size) -> None:
    """The fair-deals page: the sentence of the box, the check step by step, the
    algorithm's name; it fits the screen, and axe finds nothing serious."""
    expect(page.get_by_role("heading", level=1)).to_have_text("Fair deals")
    body = page.locator("main")
    expect(body).to_contain_text(EXPLAINED)
    expect(body).to_contain_text("Verified ✓")
    expect(body.get_by_role("heading", name="Check a deal yourself, step by step")).to_be_visible()
    expect(body).to_contain_text("SHA-256")
    expect(body).to_contain_text("Algorithm: hmac-sha256-fisher-yates-v2")
    fits(page, size)


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "desktop"])
def test_the_fair_deals_page_explains_how_to_check_a_deal(open_page, shots, size):
    page = open_page(**size)
    page.goto("/fair-deals")
    explains(page, size)
    shots(page, "fair deals")
