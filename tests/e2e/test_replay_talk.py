"""The table talk of a finished match in its replay (web/static/web/replay.js), at a
phone's size and on a desktop.

Rhea plays Hearts against three computer players while Sami watches; both talk over the
public API: in the lobby, during the first hand, between hands and after the match. The
replay shows each page the lines its reader could read, up to the moment it shows (hand
by hand: the plays carry no times), grouped by hand, each with its author, "spectator"
for a watcher's line and the local time, as text. Sami's word during a hand is in his
replay and never in Rhea's. Axe checks the page with the talk open, and nothing sticks
out sideways at 390 px. Each step waits for what the page shows; nothing sleeps."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any

import httpx
from playwright.sync_api import expect

from .account_pages import SIZES, fits
from .conftest import PASSWORD, play_by_api

MARKUP = "<b>x</b>"
LOBBY = "Enjoy the game, all"
SECRET = "Rhea holds the queen of spades"
BETWEEN = "Nice hand"
# Long clocks: nothing runs out while the match is set up.
OPTIONS = {"target": 50, "turn_seconds": 600, "abandon_seconds": 1200}
# The pages' clock: a zone half an hour off the hour, and a 24-hour locale.
ZONE, OFFSET = "Asia/Kolkata", timedelta(hours=5, minutes=30)


def register(client: httpx.Client, username: str, display_name: str) -> str:
    res = client.post("auth/register", json={"username": username, "password": PASSWORD, "display_name": display_name})
    assert res.status_code == 201, res.text
    token = res.json()["token"]
    client.headers["Authorization"] = f"Token {token}"
    return token


def say(client: httpx.Client, code: str, **body: str) -> None:
    res = client.post(f"rooms/{code}/chat", json=body)
    assert res.status_code == 201, res.text


def talked_match(live_url: str) -> tuple[str, str, str]:
    """A finished Hearts match with its talk; its code, Rhea's token and Sami's."""
    base = f"{live_url}/api/v1/"
    with httpx.Client(base_url=base, timeout=30) as rhea, httpx.Client(base_url=base, timeout=30) as sami:
        rhea_token = register(rhea, "rhea", "Rhea Player")
        sami_token = register(sami, "sami", "Sami Watcher")
        code = rhea.post("rooms/", json={"game": "hearts", "options": OPTIONS}).json()["code"]
        # In the lobby: both read both.
        say(rhea, code, phrase="good_luck")
        say(sami, code, text=LOBBY)
        for _ in range(3):
            assert rhea.post(f"rooms/{code}/bots", json={}).status_code == 201
        assert rhea.post(f"rooms/{code}/start").status_code == 200
        # During the first hand: the spectator's line is for spectators only.
        say(rhea, code, text=MARKUP)
        say(sami, code, text=SECRET)
        play_by_api(live_url, rhea_token, code, lambda v: v["phase"] == "round_over")
        # Between hands: the players read the spectators again.
        say(sami, code, text=BETWEEN)
        play_by_api(live_url, rhea_token, code, lambda v: v["status"] == "finished")
        say(rhea, code, phrase="good_game")
    return code, rhea_token, sami_token


def wide(size: dict[str, int]) -> bool:
    """The talk is a column beside the replay from 1000 px (replay.js's WIDE)."""
    return size["width"] >= 1000


def replay_page(open_page: Callable[..., Any], size: dict[str, int], token: str, code: str) -> Any:
    page = open_page(**size, locale="en-GB", timezone_id=ZONE)
    page.add_init_script(f"localStorage.setItem('tt.token', {json.dumps(token)})")
    page.goto(f"/replay/{code}")
    page.locator("section.replay").wait_for()
    talk = page.locator("details.replay-talk")
    # Folded on a phone, open beside the replay on a desktop; opened here either way.
    assert talk.evaluate("d => d.open") == wide(size)
    if not wide(size):
        talk.locator("summary").click()
    expect(talk.locator(".replay-talk-body")).to_be_visible()
    return page


def to_hand_end(page: Any, index: int) -> None:
    """Hand `index` (from 0) shown at its last step."""
    replay = page.locator("section.replay")
    page.get_by_label("Hand", exact=True).select_option(index=index)
    expect(replay).to_have_attribute("data-hand", str(index))
    total = int(re.search(r"of (\d+)", page.locator(".replay-position").inner_text()).group(1))
    for _ in range(200):
        step = replay.get_attribute("data-step")
        if step == str(total):
            return
        page.get_by_role("button", name="Next trick").click()
        expect(replay).not_to_have_attribute("data-step", step)
    raise AssertionError("the hand's last step was not reached")


def lines(page: Any) -> Any:
    return page.locator("details.replay-talk .replay-talk-line")


def texts(page: Any) -> list[str]:
    return lines(page).locator(".replay-talk-text").all_text_contents()


def line(page: Any, text: str) -> Any:
    return lines(page).filter(has=page.locator(".replay-talk-text", has_text=re.compile(f"^{re.escape(text)}$")))


def groups(page: Any) -> list[str]:
    return page.locator("details.replay-talk h3").all_text_contents()


def summary(page: Any) -> Any:
    return page.locator("details.replay-talk summary")


def assert_line(page: Any, text: str, author: str, spectator: bool) -> None:
    """One line says `text`, by `author`, marked as a spectator's or not, at its local time."""
    said = line(page, text)
    expect(said).to_have_count(1)
    expect(said.locator(".replay-talk-who")).to_have_text(author)
    expect(said.locator(".badge", has_text="spectator")).to_have_count(1 if spectator else 0)
    time = said.locator("time")
    sent = datetime.fromisoformat(time.get_attribute("datetime").replace("Z", "+00:00"))
    local = sent.astimezone(timezone(OFFSET))
    shown = re.fullmatch(r"(\d{1,2}):(\d{2})", time.inner_text().strip())
    assert shown, time.inner_text()
    assert (int(shown[1]), int(shown[2])) == (local.hour, local.minute), (time.inner_text(), local)


@SIZES
def test_the_replay_shows_the_talk_each_reader_could_read(open_page, live_url, shots, size):
    code, rhea, sami = talked_match(live_url)

    page = replay_page(open_page, size, rhea, code)
    # As the first hand is dealt: what was said in the lobby, the spectator's line too.
    expect(summary(page)).to_have_text("Table talk (2)")
    assert texts(page) == ["Good luck!", LOBBY]
    assert groups(page) == ["Before hand 1"]
    assert_line(page, "Good luck!", "Rhea Player", spectator=False)
    assert_line(page, LOBBY, "Sami Watcher", spectator=True)
    # Rhea's line during the hand waits for its end: the plays carry no times.
    expect(page.locator(".replay-talk-note")).to_have_text(
        "1 more line said during this hand shows at its last step: the plays carry no times."
    )
    shots(page, "as dealt")

    # At the end of the first hand: her line during it, as text, and Sami's between hands.
    to_hand_end(page, 0)
    expect(summary(page)).to_have_text("Table talk (4)")
    assert texts(page) == ["Good luck!", LOBBY, MARKUP, BETWEEN]
    assert groups(page) == ["Before hand 1", "During hand 1", "Before hand 2"]
    assert_line(page, MARKUP, "Rhea Player", spectator=False)
    assert_line(page, BETWEEN, "Sami Watcher", spectator=True)
    expect(page.locator("details.replay-talk b")).to_have_count(0)
    expect(page.locator(".replay-talk-note")).to_have_count(0)

    # At the end of the match, everything she read: never Sami's word during a hand.
    last = page.get_by_label("Hand", exact=True).locator("option").count() - 1
    assert last >= 1
    to_hand_end(page, last)
    expect(summary(page)).to_have_text("Table talk (5)")
    assert texts(page) == ["Good luck!", LOBBY, MARKUP, BETWEEN, "Good game!"]
    assert groups(page)[-1] == "After the match"
    assert_line(page, "Good game!", "Rhea Player", spectator=False)
    expect(page.get_by_text(SECRET)).to_have_count(0)
    if wide(size):
        # Beside the replay, not under it.
        main, talk = page.locator(".replay-main").bounding_box(), page.locator("details.replay-talk").bounding_box()
        assert talk["x"] >= main["x"] + main["width"], (main, talk)
        assert talk["y"] < main["y"] + 100, (main, talk)
    shots(page, "the match over")
    fits(page, size)

    # Sami read his own word during the first hand, marked as a spectator's.
    page = replay_page(open_page, size, sami, code)
    expect(summary(page)).to_have_text("Table talk (2)")
    expect(page.locator(".replay-talk-note")).to_have_text(
        "2 more lines said during this hand show at its last step: the plays carry no times."
    )
    to_hand_end(page, 0)
    expect(summary(page)).to_have_text("Table talk (5)")
    assert texts(page) == ["Good luck!", LOBBY, MARKUP, SECRET, BETWEEN]
    assert_line(page, SECRET, "Sami Watcher", spectator=True)
    shots(page, "a spectator's replay")
    fits(page, size)
