"""The web client checks a finished hand's deal itself (SubtleCrypto) and says so."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from .conftest import add_bots, create_room, play_by_api, sign_up, token_of


def test_a_finished_hand_shows_its_deal_verified(open_page, live_url, shots):
    page = open_page()
    sign_up(page, "fay")
    code = create_room(page, "moon")
    add_bots(page, 2)
    # The lobby shows the server's commitment, and the player puts her own seed in.
    fair = page.locator(".fair-deal")
    fair.locator("summary").click()
    commitment = httpx.get(
        f"{live_url}/api/v1/rooms/{code}/state", headers={"Authorization": f"Token {token_of(page)}"}
    ).json()["fairness"]["commitment"]
    expect(fair.locator(".commitment")).to_have_attribute("title", commitment)
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
    # The seeds it was checked with, hers among them.
    page.locator(".revealed-seeds summary").click()
    expect(page.locator(".revealed-seeds")).to_contain_text("1: fay's lucky seed")
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
