"""The home page's "Your turn" list and the title's count, live, in both configurations:
the production-like server (daphne on PostgreSQL with the Redis channel layer, where
`ws/me/` hears of turns through the layer) and `make run`'s (SQLite, the in-memory layer,
computer players in the Celery worker, where `ws/me/` reads the turns from the database).

Nobody reloads a page: the player's socket says when a turn begins or a match ends, and the
page fetches `me/turns` again; a turn whose clock ran out leaves the list when the page asks
again just after the deadline."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.api.helpers import concrete

from .conftest import ARTIFACTS, PASSWORD, MakeRun, Shots, sign_up, token_of

EMPTY = "No table is waiting for you right now."


class Person:
    """Someone acting through the public API, as any client could."""

    def __init__(self, client: httpx.Client) -> None:
        self.client = client

    def call(self, method: str, path: str, **kwargs: Any) -> Any:
        res = self.client.request(method, path, **kwargs)
        assert res.status_code < 300, f"{method} {path}: {res.status_code} {res.text}"
        return res.json() if res.content else None

    def room(self, game: str, name: str = "", **options: Any) -> str:
        return self.call("POST", "rooms/", json={"game": game, "name": name, "options": options})["code"]

    def bots(self, code: str, count: int) -> None:
        for _ in range(count):
            self.call("POST", f"rooms/{code}/bots", json={})


@contextmanager
def person(url: str, token: str | None = None, register: str | None = None) -> Iterator[Person]:
    with httpx.Client(base_url=f"{url}/api/v1/", timeout=30) as client:
        if register:
            res = client.post("auth/register", json={"username": register, "password": PASSWORD})
            assert res.status_code == 201, res.text
            token = res.json()["token"]
        client.headers["Authorization"] = f"Token {token}"
        yield Person(client)


def play_match_out(code: str, *people: Person) -> None:
    """Each person makes their first legal move whenever they may, until the match is over."""
    for _ in range(2000):
        for p in people:
            view = p.call("GET", f"rooms/{code}/state")
            if view["status"] != "playing":
                return
            legal = view["you"]["legal_actions"]
            if legal:
                body = {"version": view["version"], "action": concrete(legal[0])}
                res = p.client.post(f"rooms/{code}/actions", json=body)
                assert res.status_code == 200 or res.json()["errors"][0]["code"] == "stale_version", res.text
    raise AssertionError("the match did not end in 2000 rounds of moves")


def test_the_list_and_the_title_follow_the_tables_live(
    open_page: Callable[..., Any], live_url: str, shots: Shots
) -> None:
    bob = open_page()  # a phone
    sign_up(bob, "bob")
    panel = bob.locator("section.turns")
    expect(panel.get_by_role("heading", name="Your turn")).to_be_visible()
    expect(panel.locator("li")).to_have_text([EMPTY])
    expect(bob).to_have_title("Trick-taking tables")
    bob.evaluate("window.__sameDocument = true")

    with person(live_url, register="alice") as alice, person(live_url, token_of(bob)) as me:
        slow = alice.room("hearts", "Friday", turn_seconds=600, abandon_seconds=600, target=20)
        me.call("POST", f"rooms/{slow}/join", json={})
        alice.bots(slow, 2)
        alice.call("POST", f"rooms/{slow}/start")

        # Alice's start makes it everyone's turn to pass: Bob's page lists the table unasked.
        item = panel.locator(f"li.turn[data-room='{slow}']")
        expect(item.get_by_role("link", name="Hearts · Friday")).to_have_attribute("href", f"/join/{slow}")
        expect(item).to_contain_text(f"{slow} · pass cards")
        expect(bob).to_have_title("(1) Trick-taking tables")
        expect(panel.get_by_role("status")).to_have_text("1 table is waiting for you.")
        # The deadline is the server's, and it counts down.
        [turn] = me.call("GET", "me/turns")
        clock = item.locator("time")
        expect(clock).to_have_attribute("datetime", turn["deadline"])
        expect(clock).to_have_text(re.compile(r"^(10:00|9:[0-5]\d) left$"))
        shown = clock.text_content()
        expect(clock).not_to_have_text(shown or "", timeout=2500)
        shots(bob, "one-table")

        # A second table with the default one-minute clock comes first: soonest deadline first.
        quick = alice.room("hearts", "Quick", target=20)
        me.call("POST", f"rooms/{quick}/join", json={})
        alice.bots(quick, 2)
        alice.call("POST", f"rooms/{quick}/start")
        expect(panel.locator("li.turn")).to_have_count(2)
        expect(panel.locator("li.turn a")).to_have_text(["Hearts · Quick", "Hearts · Friday"])
        expect(panel.locator("li.turn").first.locator("time")).to_have_text(re.compile(r"^(1:00|0:[0-5]\d) left$"))
        expect(bob).to_have_title("(2) Trick-taking tables")
        expect(panel.get_by_role("status")).to_have_text("2 tables are waiting for you.")
        shots(bob, "two-tables")

        # Bob at one of the tables on a desktop: the title counts the other tables waiting.
        desk = open_page(width=1280, height=900)
        desk.add_init_script(f"localStorage.setItem('tt.token', {token_of(bob)!r})")
        desk.goto(f"/join/{slow}")
        desk.locator("section.table").wait_for()
        expect(desk).to_have_title(f"(1) Table {slow} · Trick-taking tables")

        # The quick match is played out (Alice, Bob from elsewhere, the computer players):
        # its end takes it off the list and out of both titles, without a reload.
        play_match_out(quick, alice, me)
        expect(panel.locator(f"li.turn[data-room='{quick}']")).to_have_count(0)
        expect(panel.locator("li.turn")).to_have_count(1)
        expect(bob).to_have_title("(1) Trick-taking tables")
        expect(desk).to_have_title(f"Table {slow} · Trick-taking tables")
        shots(bob, "quick-match-over")

        # Bob passes at the slow table on the desktop. A turn's end is not announced: the
        # phone's list is as it was until it asks again (here, Bob goes back to his home).
        hand = desk.locator(".hand button")
        for i in range(3):
            hand.nth(i).click()
        desk.locator("[data-action=pass_cards]").click()
        expect(desk.locator("section.table")).to_have_attribute("data-my-turn", "false")
        bob.get_by_role("link", name="♠ Trick-taking tables").click()
        expect(panel.locator("li")).to_have_text([EMPTY])
        expect(bob).to_have_title("Trick-taking tables")

        # Alice passes too, which starts the play; she and the computer players play until
        # it is Bob's turn, and his list shows it at once.
        seat = me.call("GET", f"rooms/{slow}/state")["you"]["seat"]
        for _ in range(10):
            view = alice.call("GET", f"rooms/{slow}/state")
            if seat in view["to_act"]:
                break
            action = concrete(view["you"]["legal_actions"][0])
            alice.call("POST", f"rooms/{slow}/actions", json={"version": view["version"], "action": action})
        assert view["phase"] == "play" and seat in view["to_act"], view
        expect(item).to_contain_text(f"{slow} · play")
        expect(bob).to_have_title("(1) Trick-taking tables")
        expect(desk).to_have_title(f"Table {slow} · Trick-taking tables")
        shots(bob, "turn-again")
        shots(desk, "desktop-table")
        # From the table back to the desktop's home: the same list, and now the count too.
        desk.get_by_role("link", name="♠ Trick-taking tables").click()
        expect(desk.locator(f"section.turns li.turn[data-room='{slow}']")).to_contain_text(f"{slow} · play")
        expect(desk).to_have_title("(1) Trick-taking tables")
        shots(desk, "desktop-home")
    assert bob.evaluate("window.__sameDocument === true"), "the page was reloaded"


def test_the_list_catches_up_when_its_socket_drops_and_listens_again(
    open_page: Callable[..., Any], live_url: str
) -> None:
    page = open_page(width=1280, height=900)  # a desktop
    deaf = {"on": False}
    sockets: list[Any] = []

    def relay(ws: Any) -> None:
        # Between the page and the server; while deaf, nothing from the server gets through.
        server = ws.connect_to_server()
        sockets.append(ws)
        ws.on_message(server.send)
        server.on_message(lambda message: None if deaf["on"] else ws.send(message))

    page.route_web_socket(re.compile(r"/ws/me/"), relay)
    sign_up(page, "dora")
    panel = page.locator("section.turns")
    expect(panel.locator("li")).to_have_text([EMPTY])
    page.evaluate("window.__sameDocument = true")
    deaf["on"] = True
    with person(live_url, register="abel") as abel, person(live_url, token_of(page)) as dora:
        first = abel.room("hearts", "Missed")
        dora.call("POST", f"rooms/{first}/join", json={})
        abel.bots(first, 2)
        abel.call("POST", f"rooms/{first}/start")
        assert [t["code"] for t in dora.call("GET", "me/turns")] == [first]
        # The notice never reached the page, and nothing else tells it.
        page.wait_for_timeout(1500)
        expect(panel.locator("li")).to_have_text([EMPTY])

        # The connection drops: the page asks at once, and connects again.
        deaf["on"] = False
        sockets[-1].close(code=1011, reason="going away")
        expect(panel.locator(f"li.turn[data-room='{first}']")).to_be_visible(timeout=3000)
        expect(page).to_have_title("(1) Trick-taking tables")
        for _ in range(50):
            if len(sockets) == 2:
                break
            page.wait_for_timeout(100)
        assert len(sockets) == 2, "the page did not connect again"

        # The new socket carries the next notice.
        second = abel.room("hearts", "Heard")
        dora.call("POST", f"rooms/{second}/join", json={})
        abel.bots(second, 2)
        abel.call("POST", f"rooms/{second}/start")
        expect(panel.locator(f"li.turn[data-room='{second}']")).to_be_visible(timeout=3000)
        expect(page).to_have_title("(2) Trick-taking tables")
    assert page.evaluate("window.__sameDocument === true"), "the page was reloaded"


def test_turns_come_and_go_with_the_clock_and_the_computer_players_under_make_run(
    make_run_page: Callable[..., Any], make_run: MakeRun
) -> None:
    shots = Shots(ARTIFACTS / "make_run_turns")
    page = make_run_page(390, 844)
    sign_up(page, "carol")
    panel = page.locator("section.turns")
    expect(panel.locator("li")).to_have_text([EMPTY])
    page.evaluate("window.__sameDocument = true")
    with person(make_run.url, token_of(page)) as carol:
        # Five seconds a turn; she will not move, so she must not be taken for gone.
        code = carol.room("hearts", "Clockwork", turn_seconds=5, abandon_seconds=3600)
        carol.bots(code, 3)
        carol.call("POST", f"rooms/{code}/start")
    item = panel.locator(f"li.turn[data-room='{code}']")
    expect(item).to_contain_text(f"{code} · pass cards")
    expect(item.locator("time")).to_have_text(re.compile(r"^0:0[0-5] left$"))
    expect(page).to_have_title("(1) Trick-taking tables")
    shots(page, "pass")
    # Carol does nothing. At the deadline the server passes for her and the computer
    # players (in the worker, one second each) go on: her turn leaves the list...
    expect(item).to_have_count(0, timeout=30_000)
    expect(page).to_have_title("Trick-taking tables")
    # ...and comes back when they have played up to her.
    expect(item).to_contain_text(f"{code} · play", timeout=30_000)
    expect(page).to_have_title("(1) Trick-taking tables")
    shots(page, "play")
    assert page.evaluate("window.__sameDocument === true"), "the page was reloaded"
