"""A rematch with the same players, in the browser: Ann (at a phone's size) and Bob (on a
desktop) at a table whose match was abandoned. Ann asks; her page says the table waits
for Bob, his says that Ann wants a rematch; Bob agrees, and both pages say the rematch
has started and lead to its table, where both of them play. A refusal is shown in the
server's words.

The tables are abandoned through the server's own services (Ann's idle time run past
`abandon_seconds`), as tests/api/test_rematch.py does. Each step waits for the pages to
show it; nothing sleeps."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.utils import timezone
from playwright.sync_api import expect

from games.models import Room, RoomStatus, Seat
from games.services import due

from .conftest import DESKTOP, PHONE, Shots, orm, table, token_of
from .test_table_layout import sign_up_as
from .test_turns import Person, person

ENDED = "did not play in time; the match was abandoned."
# Long clocks: nothing runs out while the pages are followed, in the old room or the new.
OPTIONS = {"turn_seconds": 600, "abandon_seconds": 600}


def hearts_room(host: Person, *guests: Person) -> str:
    """A started Hearts room of the host, the guests and computer players in the other seats."""
    code = host.room("hearts", "Friday", **OPTIONS)
    for guest in guests:
        guest.call("POST", f"rooms/{code}/join", json={})
    host.bots(code, 3 - len(guests))
    host.call("POST", f"rooms/{code}/start")
    return code


def abandon(code: str) -> None:
    """Seat 0's person has kept the table waiting past abandon_seconds: the server's own
    sweep abandons the match, and the room's listeners hear of it."""

    def work() -> None:
        Seat.objects.filter(room__code=code, index=0).update(turn_since=timezone.now() - timedelta(hours=1))
        assert due.due_actions_apply(code=code, now=timezone.now())
        assert Room.objects.get(code=code).status == RoomStatus.ABANDONED

    orm(work)


def test_both_players_agree_and_open_the_rematch(open_page: Callable[..., Any], live_url: str, shots: Shots) -> None:
    ann = open_page(**PHONE)
    sign_up_as(ann, "ann", "Ann")
    bob = open_page(**DESKTOP)
    sign_up_as(bob, "bob", "Bob")
    with person(live_url, token_of(ann)) as host, person(live_url, token_of(bob)) as guest:
        code = hearts_room(host, guest)
        ann.goto(f"/join/{code}")
        bob.goto(f"/join/{code}")
        expect(table(ann)).to_have_attribute("data-status", "playing")
        expect(table(bob)).to_have_attribute("data-status", "playing")
        # Nobody asks for a rematch while the match is played.
        expect(ann.get_by_role("button", name="Rematch with the same players")).to_have_count(0)

        abandon(code)
        ann_banner, bob_banner = ann.locator(".banner.match-ended"), bob.locator(".banner.match-ended")
        expect(ann_banner.locator(".status-reason")).to_have_text(f"You {ENDED}")
        expect(bob_banner.locator(".status-reason")).to_have_text(f"Ann {ENDED}")
        expect(bob_banner.get_by_role("button", name="Rematch with the same players")).to_be_visible()
        expect(bob_banner.locator(".rematch")).to_have_count(0)
        shots(ann, "abandoned")

        # Ann asks: her page says whom the table waits for, and her button is gone.
        ann_banner.get_by_role("button", name="Rematch with the same players").click()
        expect(ann_banner.locator(".rematch")).to_have_text("You asked for a rematch. Waiting for Bob to agree.")
        expect(ann_banner.get_by_role("button", name="Rematch with the same players")).to_have_count(0)
        expect(ann.locator(".log li").first).to_have_text("You want a rematch.")
        shots(ann, "asked")

        # Bob's page hears of it over the room's socket, without a reload.
        expect(bob_banner.locator(".rematch")).to_have_text("Ann wants a rematch.")
        expect(bob.locator(".log li").first).to_have_text("Ann wants a rematch.")
        expect(table(bob)).to_have_attribute("data-status", "abandoned")
        shots(bob, "ann-wants-a-rematch")

        # Bob agrees, the last to: the rematch is made and started, and both pages say so.
        bob_banner.get_by_role("button", name="Rematch with the same players").click()
        for page, banner in ((bob, bob_banner), (ann, ann_banner)):
            expect(banner.locator(".rematch")).to_have_text("The rematch has started.")
            expect(banner.get_by_role("button", name="Rematch with the same players")).to_have_count(0)
            expect(page.locator(".log li").first).to_have_text("The rematch has started.")
        # Bob's button went away as he made it: the keyboard goes on from the link to it.
        expect(bob_banner.get_by_role("link", name="Open the rematch")).to_be_focused()
        new_code = guest.call("GET", f"rooms/{code}/state")["rematch"]["room"]
        assert new_code and new_code != code
        shots(bob, "rematch-started")
        shots(ann, "rematch-started")

        # The link opens the new room's table, being played by both of them.
        for page, other in ((ann, "Bob"), (bob, "Ann")):
            page.locator(".banner").get_by_role("link", name="Open the rematch").click()
            expect(page).to_have_url(f"{live_url}/join/{new_code}")
            expect(table(page)).to_have_attribute("data-status", "playing")
            expect(table(page).locator(".table-head .meta")).to_contain_text(f"Room {new_code}")
            expect(page.locator(".seat.me .name")).to_have_text("You")
            expect(page.locator(".seat .name", has_text=other)).to_have_count(1)
            expect(page.locator(".turn-line .turn-text")).to_have_text("Your turn: choose cards to pass.")
            expect(page.locator(".banner")).to_have_count(0)
        shots(ann, "rematch-table")
        shots(bob, "rematch-table")
        new = host.call("GET", f"rooms/{new_code}/state")
        assert new["status"] == "playing"
        assert sorted(s["user"] for s in new["seats"] if s["user"]) == ["ann", "bob"]
        assert sum(s["is_bot"] for s in new["seats"]) == 2


def test_a_refused_rematch_is_shown_in_the_servers_words(
    open_page: Callable[..., Any], live_url: str, shots: Shots
) -> None:
    ann = open_page(**PHONE)
    sign_up_as(ann, "ann", "Ann")
    with person(live_url, token_of(ann)) as host:
        code = hearts_room(host)
        abandon(code)
        ann.goto(f"/join/{code}")
        banner = ann.locator(".banner.match-ended")
        ask = banner.get_by_role("button", name="Rematch with the same players")
        expect(ask).to_be_visible()
        # Her seat is taken from her after the end, as a ban from the table does (the
        # page is not told): the server refuses, and the page says why in its words.
        orm(lambda: Seat.objects.filter(room__code=code, index=0).update(user=None, is_bot=True))
        ask.click()
        expect(banner.get_by_role("alert")).to_have_text("You do not have a seat in this room.")
        expect(ask).to_have_count(0)  # she is no longer seated: nothing to ask for
        expect(ann.locator(".spectating")).to_have_text("You are watching this table.")
        shots(ann, "refused")
        assert host.call("GET", f"rooms/{code}/state")["rematch"] == {"agreed": [], "room": None}
