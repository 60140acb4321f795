"""A player who does not act, at a phone's size: the table shows the turn clock, then,
once their own waiting time will run out before the turn does, the idle clock beside it;
at the end the match is abandoned, and each person reads why in words said to them: the
idle player "You did not play in time", another person at the table the idle player's
name. The page leads back to the player's tables and to a new table like this one.

The test server queues no deadline tasks; a thread stands in for beat's sweeper and runs
the server's own sweep (games.services.due.overdue_sweep) every quarter of a second, so
the clocks run out as they would in production, within that quarter second. Nothing
waits for a fixed time: each step waits for the page to show it, with room to spare."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connections
from playwright.sync_api import expect

from games.services import due

from .conftest import DESKTOP, PHONE, Shots, deal_hand, table, token_of
from .test_client_contract import DESCRIBE
from .test_table_layout import sign_up_as
from .test_turns import person

# A turn of ten seconds, and seventeen in all before an idle player is gone: once their
# first turn has run out, their own time (seven seconds left) ends before their next
# turn's ten.
TURN_SECONDS = 10
ABANDON_SECONDS = 17
# Ann (seat 0) holds 2♣, so she leads the first trick; her timed-out pass (the computer
# player's choice) gives away her most dangerous cards, never 2♣.
DEAL = [
    ["2C", "QS", "KS", "AS", "AH", "KH", "QH", "JH", "TH", "9H", "8H", "AD", "KD"],
    ["3C", "4C", "5C", "6C", "7H", "6H", "5H", "2S", "3S", "4S", "5S", "2D", "3D"],
    ["7C", "8C", "9C", "TC", "4H", "3H", "6S", "7S", "8S", "4D", "5D", "6D", "7D"],
    ["JC", "QC", "KC", "AC", "2H", "9S", "TS", "JS", "8D", "9D", "TD", "JD", "QD"],
]
ENDED = "did not play in time; the match was abandoned."


@contextmanager
def sweeper(every: float = 0.25) -> Iterator[None]:
    """The server's sweep of overdue tables, run in a thread of its own (the ORM refuses
    the thread Playwright's event loop runs in) until the block ends."""
    stop = threading.Event()
    failures: list[BaseException] = []

    def run() -> None:
        try:
            while not stop.is_set():
                due.overdue_sweep()
                stop.wait(every)
        except BaseException as exc:  # reported by the test, not lost in the thread
            failures.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, name="sweeper", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(10)
    assert not failures, failures


def clocks(page: Any) -> dict[str, str | None]:
    """The turn clock and the idle clock as the page shows them at one moment."""
    return page.evaluate(
        """() => ({turn: document.querySelector('[data-countdown]')?.textContent ?? null,
                   idle: document.querySelector('[data-idle-countdown]')?.textContent ?? null})"""
    )


def seconds(clock: str) -> int:
    minutes, secs = clock.split(":")
    return int(minutes) * 60 + int(secs)


def test_an_idle_player_sees_both_clocks_and_is_told_the_match_ended_for_them(
    open_page: Callable[..., Any], live_url: str, shots: Shots
) -> None:
    ann = open_page(**PHONE)
    sign_up_as(ann, "ann", "Ann")
    bob = open_page(**DESKTOP)
    sign_up_as(bob, "bob", "Bob")
    options = {"turn_seconds": TURN_SECONDS, "abandon_seconds": ABANDON_SECONDS}
    with person(live_url, token_of(ann)) as host, person(live_url, token_of(bob)) as guest, sweeper():
        code = host.room("hearts", "Idle", **options)
        guest.call("POST", f"rooms/{code}/join", json={})
        host.bots(code, 2)
        host.call("POST", f"rooms/{code}/start")
        deal_hand(code, DEAL)
        ann.goto(f"/join/{code}")
        bob.goto(f"/join/{code}")

        # Bob passes at once and is never waited for again: only Ann is idle.
        view = guest.call("GET", f"rooms/{code}/state")
        assert view["you"]["seat"] == 1, view["you"]
        cards = view["you"]["legal_actions"][0]["choices"][:3]
        body = {"version": view["version"], "action": {"type": "pass_cards", "cards": cards}}
        guest.call("POST", f"rooms/{code}/actions", json=body)

        # The pass: the turn clock alone, her idle time running out after the turn does.
        line = ann.locator(".turn-line")
        expect(table(ann)).to_have_attribute("data-phase", "pass")
        expect(line.locator(".turn-text")).to_have_text("Your turn: choose cards to pass.")
        expect(line.locator("[data-countdown]")).to_have_text(re.compile(r"^0:(10|0\d)$"))
        expect(line.locator(".idle-clock")).to_have_count(0)
        shots(ann, "turn-clock")

        # Her pass runs out and the server passes for her; she leads the first trick, and
        # now her own time (seven seconds left) ends before the turn (ten): both clocks.
        expect(table(ann)).to_have_attribute("data-phase", "play", timeout=TURN_SECONDS * 3000)
        idle = line.locator(".idle-clock")
        expect(idle).to_have_text(re.compile(r"^0:0\d before the match is abandoned$"))
        expect(line.locator("[data-countdown]")).to_have_text(re.compile(r"^0:(10|0\d)$"))
        shown = clocks(ann)
        assert shown["idle"] and shown["turn"], shown
        assert seconds(shown["idle"]) < seconds(shown["turn"]), shown
        expect(ann.locator(".log")).to_contain_text("You ran out of time.")
        expect(bob.locator(".log")).to_contain_text("Ann ran out of time.")
        shots(ann, "both-clocks")
        ann.screenshot(path=str(shots.folder / "both-clocks-screen.png"))

        # She still does nothing: the match is abandoned, and the page says why, to her.
        expect(table(ann)).to_have_attribute("data-status", "abandoned", timeout=ABANDON_SECONDS * 2000)
        ending = ann.locator(".banner.match-ended")
        expect(ending.locator(".status-reason")).to_have_text(f"You {ENDED}")
        # The line says so (beside the table-talk button it carries on a phone).
        expect(line).to_contain_text("The match was abandoned.")
        expect(line.locator("[data-countdown], .idle-clock")).to_have_count(0)
        expect(ann.locator("#turn-announcer")).to_have_text(f"You {ENDED}")
        expect(ann.locator(".log li").first).to_have_text(f"You {ENDED}")
        back = ending.get_by_role("link", name="Back to your tables")
        expect(back).to_be_visible()
        expect(ending.get_by_role("button", name="New table with the same settings")).to_be_visible()
        shots(ann, "abandoned")

        # Bob, at the same table, reads her name.
        bob_ending = bob.locator(".banner.match-ended")
        expect(bob_ending.locator(".status-reason")).to_have_text(f"Ann {ENDED}")
        expect(bob.locator(".log li").first).to_have_text(f"Ann {ENDED}")
        shots(bob, "abandoned-for-the-others")

        # Back to her tables: nothing waits for her, and this table is listed as abandoned.
        back.click()
        expect(ann.locator("section.turns li")).to_have_text(["No table is waiting for you right now."])
        expect(ann.locator(".room-list li", has_text=code)).to_contain_text("abandoned")
        shots(ann, "back-home")

        # Bob sets up the same table again: a lobby of his, the game and options the same,
        # as they were asked for (`rated` left to the seats, which the computer players
        # at this one made unrated).
        bob_ending.get_by_role("button", name="New table with the same settings").click()
        expect(bob.locator(".lobby")).to_be_visible()
        new_code = bob.url.rstrip("/").rsplit("/", 1)[1]
        assert new_code != code
        old, new = guest.call("GET", f"rooms/{code}/"), guest.call("GET", f"rooms/{new_code}/")
        assert old["options"]["rated"] is False and new["options"]["rated"] is None
        assert (new["game"], new["options"], new["name"], new["public"]) == (
            old["game"],
            old["asked_options"],
            old["name"],
            old["public"],
        )
        assert new["host"] == "bob" and new["status"] == "lobby"
        shots(bob, "new-table")


def test_the_log_says_who_was_idle_to_each_reader(open_page: Callable[..., Any]) -> None:
    """The idle player reads "You", the others the name; a match that ended because only
    computer players were left says so in its own words."""
    page = open_page(**PHONE)
    page.goto("/")
    page.get_by_role("tab", name="Log in").wait_for()
    everyone_away = "Every seat is played by a computer player; the match was abandoned."
    events = [
        {"type": "timed_out", "seat": 0},
        {"type": "timed_out", "seat": 1},
        {"type": "seat_to_bot", "seat": 0, "name": "Ann", "idle": True, "reason": "Ann did not play in time."},
        {"type": "seat_to_bot", "seat": 1, "name": "Bob", "idle": True, "reason": "Bob did not play in time."},
        {"type": "abandoned", "seat": 0, "idle": True, "reason": f"Ann {ENDED}"},
        {"type": "abandoned", "seat": 1, "idle": True, "reason": f"Bob {ENDED}"},
        {"type": "abandoned", "seat": 1, "idle": False, "reason": everyone_away},
        # Logged before events said `idle`: told by the reason.
        {"type": "abandoned", "seat": 1, "reason": f"Bob {ENDED}"},
        {"type": "abandoned", "seat": 1, "reason": everyone_away},
    ]
    shaped = [{"seq": i + 1, "round": 1, "version": i, **e} for i, e in enumerate(events)]
    texts = page.evaluate(DESCRIBE, ["hearts", shaped, ["You", "Bob", "Computer 3", "Computer 4"]])
    assert texts == [
        "You ran out of time.",
        "Bob ran out of time.",
        "You did not play in time; a computer player plays your seat until you come back.",
        "Bob did not play in time; a computer player plays the seat until they come back.",
        f"You {ENDED}",
        f"Bob {ENDED}",
        everyone_away,
        f"Bob {ENDED}",
        everyone_away,
    ]
