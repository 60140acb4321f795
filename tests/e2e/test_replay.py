"""The replay viewer: a finished match's hands face up, stepped through play by play and
trick by trick, in every game, at a phone's size and on a desktop."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from games import rules
from tests.game_params import game_keys, match_variants, seats_for

from .conftest import DESKTOP, PHONE, new_match, orm, play_by_api, sign_up, token_of


def end_match_here(code: str) -> None:
    """The match ends after its finished hands."""
    from games.models import Room

    orm(lambda: Room.objects.filter(code=code).update(status="finished"))


def step_through(page, seats: int, per_trick: int) -> None:
    replay = page.locator("section.replay")
    expect(replay).to_have_attribute("data-step", "0")
    expect(page.locator(".replay-seat")).to_have_count(seats)
    # As dealt every seat's hand is face up.
    for seat in range(seats):
        expect(page.locator(f".replay-seat[data-seat='{seat}'] .replay-hand li").first).to_be_visible()
    page.get_by_role("button", name="Next trick").click()
    expect(page.locator(".trick-winner")).to_contain_text("takes the trick")
    expect(page.locator(".replay-trick .trick-play")).to_have_count(per_trick)
    expect(page.locator(".trick-play.winner")).to_have_count(1)
    first_trick = int(replay.get_attribute("data-step"))
    page.get_by_role("button", name="Next play").click()
    expect(replay).to_have_attribute("data-step", str(first_trick + 1))
    page.get_by_role("button", name="Previous play").click()
    expect(replay).to_have_attribute("data-step", str(first_trick))
    page.get_by_role("button", name="Next trick").click()
    second = int(replay.get_attribute("data-step"))
    assert second > first_trick
    page.get_by_role("button", name="Previous trick").click()
    expect(replay).to_have_attribute("data-step", str(first_trick))
    page.get_by_role("button", name="Previous trick").click()
    expect(replay).to_have_attribute("data-step", "0")
    expect(page.get_by_role("button", name="Previous play")).to_be_disabled()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_finished_hearts_match_replays_from_its_results(open_page, live_url, shots, size):
    page = open_page(**size)
    sign_up(page, "rhea")
    token = token_of(page)
    code = new_match(live_url, token, "hearts", {"target": 50}, bots=3)
    page.goto(f"/join/{code}")
    page.locator("section.table").wait_for()
    # Before the end the viewer says what the server says, and shows nothing of the hand.
    page.goto(f"/replay/{code}")
    expect(page.locator(".replay-refused [role=alert]")).to_have_attribute("data-code", "match_not_over")
    expect(page.locator(".replay-hand")).to_have_count(0)
    page.goto(f"/join/{code}")
    play_by_api(live_url, token, code, lambda v: v["status"] == "finished")
    page.get_by_role("link", name="Watch the replay").click()
    expect(page).to_have_url(f"{live_url}/replay/{code}")
    page.locator("section.replay").wait_for()
    expect(page.locator(".replay-seat[data-seat='0'] .replay-hand li")).to_have_count(13)
    expect(page.locator(".replay-hand li")).to_have_count(52)
    shots(page, "as dealt")
    step_through(page, 4, 4)
    hands = page.get_by_label("Hand", exact=True)
    assert hands.locator("option").count() >= 2
    hands.select_option(index=1)
    expect(page.locator("section.replay")).to_have_attribute("data-hand", "1")
    expect(page.locator(".replay-hand li")).to_have_count(52)
    page.get_by_role("button", name="Next trick").click()
    shots(page, "a trick")
    # No piece of the page runs past the screen's width.
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]


# Hearts has its own test above. Moon's three players leave a widow out of the hands (21
# tiles shown); Kali Tidi's five hands are uneven. Any other game replays its first
# match variant on a desktop.
SCENES = {
    "moon": ({"players": 3}, 2, PHONE, 21),
    "kali_tidi": ({"players": 5, "team_mode": "cards"}, 4, DESKTOP, None),
}
FACES = {"moon": ".domino", "kali_tidi": ".card-face"}


def replay_scene(game: str) -> tuple[dict[str, Any], int, dict[str, int], int | None]:
    if game in SCENES:
        return SCENES[game]
    options = next(iter(match_variants(rules.get(game)).values()))
    return options, seats_for(rules.get(game), options) - 1, DESKTOP, None


@pytest.mark.parametrize("game", [key for key in game_keys() if key != "hearts"])
def test_every_game_replays_face_up(open_page, live_url, shots, game):
    options, bots, size, pieces = replay_scene(game)
    page = open_page(**size)
    sign_up(page, f"rex{game[:4]}")
    token = token_of(page)
    code = new_match(live_url, token, game, options, bots=bots)
    play_by_api(live_url, token, code, lambda v: v["phase"] in ("round_over", "match_over"))
    end_match_here(code)
    page.goto(f"/replay/{code}")
    page.locator("section.replay").wait_for()
    seats = bots + 1
    if pieces is not None:
        expect(page.locator(".replay-hand li")).to_have_count(pieces)
    else:
        for seat in range(seats):
            expect(page.locator(f".replay-seat[data-seat='{seat}'] .replay-hand li").first).to_be_visible()
    # Each piece is drawn by the game's renderer: a tile, a card (or, for a game whose
    # renderer is not known here, either, or the generic piece).
    face = FACES.get(game, ".domino, .card-face, .generic-piece")
    expect(page.locator(".replay-hand li").locator(face).first).to_be_visible()
    shots(page, "as dealt")
    step_through(page, seats, seats)
    shots(page, "a trick")
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
