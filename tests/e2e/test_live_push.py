"""The page draws the view its room socket pushes: at a table of several pages, a move
reaches every other page with no `GET state` and no `GET events` from any of them. It
fetches what the push does not bring: a change announced without a view (as the embedded
server's worker announces its own), events it missed while its socket said nothing, and
everything while its socket is cut, after which it listens to the pushes again."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
from playwright.sync_api import expect

from .conftest import click_and_wait, create_room, new_match, sign_up, table, token_of, wait_my_turn
from .test_live_table import card_text


class Fetches:
    """The page's requests for its room's view (`state`) and log (`events`), as sent."""

    def __init__(self, page: Any, code: str) -> None:
        self.seen: list[str] = []
        pattern = re.compile(rf"/api/v1/rooms/{code}/(state|events)\b")
        page.on("request", lambda request: self.seen.append(request.url) if pattern.search(request.url) else None)

    def clear(self) -> None:
        self.seen.clear()

    def of(self, what: str) -> list[str]:
        return [url for url in self.seen if f"/{what}" in url]


def server_version(live_url: str, token: str, code: str) -> int:
    """The room's version as the API says it (not through any page: nothing a page counts)."""
    headers = {"Authorization": f"Token {token}"}
    return httpx.get(f"{live_url}/api/v1/rooms/{code}/state", headers=headers, timeout=30).json()["version"]


def last_logged(live_url: str, token: str, code: str) -> int:
    """The `seq` of the room's last card played (or of the pass, before any): the log's
    latest line once a page has drawn the change that logged it."""
    headers = {"Authorization": f"Token {token}"}
    events = httpx.get(f"{live_url}/api/v1/rooms/{code}/events", headers=headers, timeout=30).json()
    return max(e["seq"] for e in events if e["type"] in ("play", "pass_complete"))


def log_seqs(page: Any) -> list[str]:
    return page.locator(".log-lines li").evaluate_all("els => els.map(e => e.dataset.seq)")


def pass_three(page: Any) -> None:
    wait_my_turn(page, ("pass",))
    hand = page.locator(".hand button")
    for i in range(3):
        hand.nth(i).click()
    click_and_wait(page, page.locator("[data-action=pass_cards]"))


def test_every_other_page_draws_the_pushed_move_without_fetching(open_page, live_url, shots):
    alice = open_page(width=1280, height=900)
    bob = open_page()
    carol = open_page()
    sign_up(alice, "alice")
    code = create_room(alice, "hearts")
    invite = alice.get_by_label("Invite link").input_value()
    sign_up(bob, "bob")
    bob.goto(invite)
    bob.locator("[data-action=join]").click()
    # Carol only watches: the view pushed to her is the spectators'.
    sign_up(carol, "carol")
    carol.goto(invite)
    expect(carol.locator(".lobby-seat", has_text="bob")).to_be_visible()
    for added in (1, 2):
        alice.locator("[data-action=add-bot]:not([disabled])").first.click()
        expect(carol.locator(".lobby-seat .badge", has_text="computer")).to_have_count(added)
    alice.locator("[data-action=start]").click()
    pages = {"alice": alice, "bob": bob, "carol": carol}
    for page in pages.values():
        expect(table(page)).to_have_attribute("data-phase", "pass")
        expect(page.locator("[data-live]")).to_have_text("live")
    expect(carol.locator(".spectating")).to_be_visible()
    # One after the other: two passes at once would send one of them back as stale, and
    # the page then rightly fetches the view it must decide on.
    pass_three(alice)
    pass_three(bob)
    token = token_of(alice)
    version = server_version(live_url, token, code)
    for page in pages.values():
        expect(table(page)).to_have_attribute("data-phase", "play")
        expect(table(page)).to_have_attribute("data-version", str(version))

    fetches = {name: Fetches(page, code) for name, page in pages.items()}
    for _ in range(6):
        # At each version a person is to play: the computer players moved within the request.
        mover_name = next(n for n in ("alice", "bob") if table(pages[n]).get_attribute("data-my-turn") == "true")
        mover = pages[mover_name]
        card = mover.locator(".hand button:not([disabled])").first
        played = card.get_attribute("data-code")
        card.click()
        expect(mover.locator(f".hand button[data-code='{played}']")).to_have_count(0)
        # The move and the computer players' after it, on every page, log and table alike.
        version = server_version(live_url, token, code)
        last = last_logged(live_url, token, code)
        for name, page in pages.items():
            expect(table(page)).to_have_attribute("data-version", str(version))
            expect(page.locator(f".log-lines li[data-seq='{last}']")).to_have_count(1)
            if name != mover_name:
                line = f"{mover_name} played {card_text(played)}."
                expect(page.locator(".log-lines li", has_text=line)).to_have_count(1)
    for name, page in pages.items():
        assert fetches[name].seen == [], f"{name} fetched what the socket pushed: {fetches[name].seen}"
        # Each event once, in order.
        seqs = [int(s) for s in log_seqs(page)]
        assert seqs == sorted(set(seqs), reverse=True), (name, seqs)
    shots(carol, "spectator")


class Relay:
    """Between a page and its room socket: passes everything, turns each pushed view into
    the notice a server that cannot push sends instead (`no views`), drops everything
    while keeping the socket open (`silent`), or refuses every connection (`down`)."""

    def __init__(self) -> None:
        self.mode = "pass"
        self.routes: list[Any] = []
        self.held: list[tuple[Any, str | bytes]] = []

    def __call__(self, ws: Any) -> None:
        if self.mode == "down":
            ws.close(code=1011, reason="down")
            return
        self.routes.append(ws)
        server = ws.connect_to_server()
        ws.on_message(server.send)
        server.on_message(lambda message: self.forward(ws, message))

    def forward(self, ws: Any, message: str | bytes) -> None:
        if self.mode == "silent":
            return
        if self.mode == "hold":
            self.held.append((ws, message))
            return
        if self.mode == "no views":
            data = json.loads(message)
            if data.get("type") == "view":
                message = json.dumps({"type": "changed", "version": data["version"], "seq": data["seq"]})
        ws.send(message)

    def release(self) -> None:
        """Pass everything again, first what was held, in order."""
        self.mode = "pass"
        for ws, message in self.held:
            ws.send(message)
        self.held.clear()

    def cut(self) -> None:
        self.mode = "down"
        self.routes[-1].close(code=1011, reason="cut")


def test_a_page_fetches_what_its_socket_did_not_push(open_page, live_url, shots):
    player = open_page(width=1280, height=900)
    sign_up(player, "pia")
    token = token_of(player)
    code = new_match(live_url, token, "hearts", {}, bots=3)
    player.goto(f"/join/{code}")
    # The same person's second page, whose socket the test holds.
    watched = open_page()
    relay = Relay()
    watched.route_web_socket(re.compile(r"/ws/rooms/"), relay)
    watched.add_init_script(f"localStorage.setItem('tt.token', {token!r})")
    watched.goto(f"/join/{code}")
    for page in (player, watched):
        expect(page.locator("[data-live]")).to_have_text("live")
    pass_three(player)
    fetches = Fetches(watched, code)

    def play() -> int:
        """A card from the player's page; the version once the computer players have moved."""
        wait_my_turn(player, ("play",))
        click_and_wait(player, player.locator(".hand button:not([disabled])").first)
        wait_my_turn(player, ("play",))
        return server_version(live_url, token, code)

    def same_as_player(version: int) -> None:
        last = last_logged(live_url, token, code)
        for page in (player, watched):
            expect(table(page)).to_have_attribute("data-version", str(version))
            expect(page.locator(f".log-lines li[data-seq='{last}']")).to_have_count(1)
        # The log is whole: the same events as the acting page's, each once.
        assert log_seqs(watched) == log_seqs(player)

    # Pushed: nothing fetched.
    same_as_player(server_version(live_url, token, code))
    fetches.clear()
    same_as_player(play())
    assert fetches.seen == []

    # A notice without a view (the embedded server's worker sends no view): fetched.
    relay.mode = "no views"
    same_as_player(play())
    assert fetches.of("state") and fetches.of("events"), fetches.seen

    # Missed while the socket said nothing: the next pushed view is drawn as it comes, and
    # its events, which do not join the log, bring the missing ones with them.
    relay.mode = "silent"
    missed = play()
    assert table(watched).get_attribute("data-version") != str(missed)
    relay.mode = "pass"
    fetches.clear()
    same_as_player(play())
    assert fetches.of("events") and not fetches.of("state"), fetches.seen

    # Cut: the page polls, then reconnects and listens to the pushes again.
    relay.cut()
    expect(watched.locator("[data-live]")).to_have_text("reconnecting (polling)")
    same_as_player(play())
    assert fetches.of("state"), fetches.seen
    shots(watched, "polling")
    relay.mode = "pass"
    expect(watched.locator("[data-live]")).to_have_text("live", timeout=15_000)
    version = server_version(live_url, token, code)
    expect(table(watched)).to_have_attribute("data-version", str(version))
    fetches.clear()
    same_as_player(play())
    assert not fetches.of("state"), fetches.seen
    shots(watched, "live-again")


def test_a_moves_events_that_come_after_its_answer_leave_the_table_as_it_is(open_page, live_url):
    # The mover's page draws its move's answer, then the push of the same change brings the
    # move's events: only the log is drawn again, so a tap under way on the table (pressed,
    # not yet released) lands where it was aimed instead of on a table drawn anew.
    page = open_page(width=1280, height=900)
    relay = Relay()
    page.route_web_socket(re.compile(r"/ws/rooms/"), relay)
    sign_up(page, "tess")
    code = new_match(live_url, token_of(page), "hearts", {}, bots=3)
    page.goto(f"/join/{code}")
    expect(page.locator("[data-live]")).to_have_text("live")
    wait_my_turn(page, ("pass",))
    hand = page.locator(".hand button")
    for i in range(3):
        hand.nth(i).click()
    relay.mode = "hold"
    click_and_wait(page, page.locator("[data-action=pass_cards]"))
    # The answer is drawn; the push of the same change is held back.
    page.evaluate("document.querySelector('section.table').dataset.drawnOnce = 'yes'")
    passed = page.locator(".log-lines li", has_text="You passed")
    expect(passed).to_have_count(0)
    # The push comes after the answer; on a busy machine, a while after.
    for _ in range(100):
        if relay.held:
            break
        page.wait_for_timeout(100)
    assert relay.held, "the change's push was not held"
    relay.release()
    expect(passed).to_have_count(1)
    # The same table, its log drawn again inside it.
    expect(table(page)).to_have_attribute("data-drawn-once", "yes")
