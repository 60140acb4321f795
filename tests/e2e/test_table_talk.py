"""Table talk in the browser (web/static/web/chat.js), at a phone's size and on a desktop.

Ann and Ben sit at a table; Cleo and Dev watch it. Lines said on one page reach the
others over the room's socket within a few seconds; what people write shows as text;
a spectator's word during a hand reaches the other spectators and not the players; at a
Kali Tidi table whose partners are hidden, free text waits for the end of the hand while
quick phrases go through; blocking someone takes their lines away; a timeout and a
throttle are said calmly, with the time left. Axe checks the pages with the panel open,
nothing sticks out sideways at 390 px, and the closed panel covers no card of the hand.
The last test has two people talk at a table of the README's `make run`.

The tables are set up over the public API (the people and their rooms); everything said
is said on the pages. Each step waits for what a page shows; nothing sleeps. A line that
must not reach a page is checked after a later line that must: the socket hands one
person's frames on in order, so once the later line is there the earlier one would be."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import httpx
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import User
from talk.models import ChatTimeout

from .account_pages import LAPTOP, PHONE, SIZES, fits
from .conftest import ARTIFACTS, PASSWORD, MakeRun, Shots, add_bots, create_room, orm, sign_up, table

# "Within a few seconds": what a line may take from one page's Send to another page.
LIVE_MS = 5_000
HOSTILE = "<script>alert(1)</script><b>x</b> https://example.com"
OFF_DURING_HAND = "Free text is off during a hand at this table."
# Long clocks: nothing runs out while the pages are followed.
OPTIONS = {"turn_seconds": 600, "abandon_seconds": 1200}


class Person:
    """Someone with an account, acting over the public API as any client could."""

    def __init__(self, client: httpx.Client, username: str, token: str) -> None:
        self.client = client
        self.username = username
        self.token = token

    def call(self, method: str, path: str, **kwargs: Any) -> Any:
        res = self.client.request(method, path, **kwargs)
        assert res.status_code < 300, f"{method} {path}: {res.status_code} {res.text}"
        return res.json() if res.content else None


@contextmanager
def people(live_url: str, *names: tuple[str, str]) -> Iterator[list[Person]]:
    """Accounts for (username, display name) pairs, each with its own API client."""
    clients = []
    try:
        found = []
        for username, display in names:
            client = httpx.Client(base_url=f"{live_url}/api/v1/", timeout=30)
            clients.append(client)
            res = client.post(
                "auth/register", json={"username": username, "password": PASSWORD, "display_name": display}
            )
            assert res.status_code == 201, res.text
            token = res.json()["token"]
            client.headers["Authorization"] = f"Token {token}"
            found.append(Person(client, username, token))
        yield found
    finally:
        for client in clients:
            client.close()


def hearts_table(host: Person, *guests: Person, bots: int = 0) -> str:
    """A Hearts room of the host with the guests seated (and computer players), not started."""
    code = host.call("POST", "rooms/", json={"game": "hearts", "options": OPTIONS})["code"]
    for guest in guests:
        guest.call("POST", f"rooms/{code}/join", json={})
    for _ in range(bots):
        host.call("POST", f"rooms/{code}/bots", json={})
    return code


def page_of(open_page: Callable[..., Any], size: dict[str, int], who: Person, path: str = "/") -> Any:
    """A page of its own (its own storage) signed in as `who`, opened at `path`."""
    page = open_page(**size)
    page.add_init_script(f"localStorage.setItem('tt.token', {json.dumps(who.token)})")
    page.goto(path)
    return page


def room_page(open_page: Callable[..., Any], size: dict[str, int], who: Person, code: str) -> Any:
    page = page_of(open_page, size, who, f"/join/{code}")
    page.locator(".lobby, section.table").first.wait_for()
    expect(page.locator("[data-live]")).to_have_text("live")
    return page


def chat_reads(page: Any) -> list[str]:
    """The page's requests for lines over HTTP, as they are made (to tell them from the socket)."""
    reads: list[str] = []

    def seen(request: Any) -> None:
        if request.method == "GET" and "/chat" in request.url:
            reads.append(request.url)

    page.on("request", seen)
    return reads


def talk(page: Any) -> Any:
    return page.locator("aside.talk")


def sheet(page: Any) -> bool:
    """Whether the panel is a sheet opened by a button here (a phone), not a column beside
    the table (from 1100 px wide: chat.js's SIDE)."""
    return page.viewport_size["width"] < 1100


def open_talk(page: Any) -> None:
    if sheet(page):
        toggle = page.locator(".talk-toggle")
        if toggle.get_attribute("aria-expanded") != "true":
            toggle.click()
        expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(talk(page)).to_be_visible()


def close_talk(page: Any) -> None:
    if sheet(page) and page.locator(".talk-toggle").get_attribute("aria-expanded") == "true":
        talk(page).get_by_role("button", name="Close").click()
        expect(talk(page)).to_be_hidden()
        # The focus goes back to the button that opened it.
        expect(page.locator(".talk-toggle")).to_be_focused()


def say(page: Any, text: str) -> None:
    open_talk(page)
    talk(page).get_by_label("Message to the table").fill(text)
    talk(page).get_by_role("button", name="Send").click()


def say_phrase(page: Any, words: str) -> None:
    open_talk(page)
    talk(page).get_by_role("group", name="Quick phrases").get_by_role("button", name=words, exact=True).click()


def line(page: Any, text: str) -> Any:
    """The panel's lines whose text is exactly `text`."""
    return (
        talk(page)
        .locator(".talk-line")
        .filter(has=page.locator(".talk-text", has_text=re.compile(f"^{re.escape(text)}$")))
    )


def error_line(page: Any) -> Any:
    return talk(page).locator(".talk-error")


def assert_heard_live(page: Any, reads: list[str], text: str, author: str, spectator: bool = False) -> None:
    """`text` reaches `page` within a few seconds by its socket (no read over HTTP meanwhile),
    with its author's name, whether a spectator said it, and the time."""
    before = len(reads)
    said = line(page, text)
    expect(said).to_have_count(1, timeout=LIVE_MS)
    assert len(reads) == before, f"the page read the talk over HTTP to show it: {reads[before:]}"
    expect(said.locator(".talk-who")).to_have_text(author)
    expect(said.locator(".talk-meta .badge", has_text="spectator")).to_have_count(1 if spectator else 0)
    expect(said.locator("time")).to_have_text(re.compile(r"\d{1,2}:\d{2}"))


def nothing_off_screen(page: Any, size: dict[str, int]) -> None:
    """The panel and its button lie within the screen's width, and the page scrolls no
    wider than the screen (fits, which also runs axe)."""
    for box in (talk(page).bounding_box(), page.locator(".talk-toggle").bounding_box()):
        if box is not None:  # None: not shown at this size
            assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5, box
    fits(page, size)


# Each piece of the hand and each play control scrolled to the middle of the screen in
# turn: nothing of the talk panel (its button included) may be what lies at its centre,
# and the panel's box may not overlap it.
COVERED = """() => {
    const talk = document.querySelector("aside.talk");
    const covered = [];
    for (const el of document.querySelectorAll(".hand .piece, .actions button, .actions select")) {
        el.scrollIntoView({ block: "center" });
        const r = el.getBoundingClientRect();
        const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        const t = talk && getComputedStyle(talk).display !== "none" ? talk.getBoundingClientRect() : null;
        const overlaps = t && r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom;
        if (!top || top.closest("aside.talk, .talk-toggle") || overlaps) {
            covered.push(el.dataset.code ?? el.outerHTML.slice(0, 60));
        }
    }
    window.scrollTo(0, 0);
    return covered;
}"""


def assert_hand_uncovered(page: Any) -> None:
    """Neither the cards of the hand nor the play controls lie under the talk panel."""
    expect(page.locator(".hand .piece").first).to_be_visible()
    expect(page.locator(".actions button").first).to_be_visible()
    assert page.evaluate(COVERED) == []


def started(host: Person, code: str, *pages: Any) -> None:
    host.call("POST", f"rooms/{code}/start")
    for page in pages:
        expect(table(page)).to_be_visible(timeout=15_000)


@SIZES
def test_two_players_and_two_spectators_talk_live(
    open_page: Callable[..., Any], live_url: str, shots: Shots, size: dict[str, int]
) -> None:
    with people(live_url, ("ann", "Ann"), ("ben", "Ben"), ("cleo", "Cleo"), ("dev", "Dev")) as (ann, ben, cleo, dev):
        code = hearts_table(ann, ben, bots=2)
        pages = {}
        reads = {}
        # A script run by a line would show its alert here; none may.
        alerts: list[str] = []
        for who in (ann, ben, cleo, dev):
            page = open_page(**size)
            reads[who.username] = chat_reads(page)
            page.add_init_script(f"localStorage.setItem('tt.token', {json.dumps(who.token)})")
            page.on("dialog", lambda dialog: alerts.append(dialog.message))
            page.goto(f"/join/{code}")
            page.locator(".lobby").wait_for()
            expect(page.locator("[data-live]")).to_have_text("live")
            pages[who.username] = page
        a, b, c, d = (pages[n] for n in ("ann", "ben", "cleo", "dev"))
        # On a phone the panel waits behind its button; the lobby has nothing to say yet.
        if sheet(a):
            expect(talk(a)).to_be_hidden()
            expect(a.locator(".talk-toggle")).to_have_accessible_name("Chat")
        open_talk(b)
        expect(talk(b).locator(".talk-empty")).to_be_visible()

        # In the lobby: a quick phrase, then free text, each reaching the other player live.
        say_phrase(a, "Hello!")
        expect(line(a, "Hello!").locator(".talk-who")).to_have_text("You")
        assert_heard_live(b, reads["ben"], "Hello!", "Ann")
        close_talk(a)
        say(b, "Ready when you are")
        # Sent: the box is empty again and its counter back to nothing.
        expect(talk(b).get_by_label("Message to the table")).to_have_value("")
        expect(talk(b).locator(".talk-count")).to_have_text("0/280")
        if sheet(a):
            # Ann's panel is closed: her button counts the line she has not read.
            expect(a.locator(".talk-toggle .talk-unread")).to_have_text("1 new", timeout=LIVE_MS)
            expect(a.locator(".talk-toggle")).to_have_accessible_name("Chat 1 new")
        open_talk(a)
        assert_heard_live(a, reads["ann"], "Ready when you are", "Ben")
        if sheet(a):
            expect(a.locator(".talk-toggle .talk-unread")).to_be_hidden()

        # Markup and an address are text: shown as written, no element made, no link.
        talk(b).get_by_label("Message to the table").fill(HOSTILE)
        expect(talk(b).locator(".talk-count")).to_have_text(f"{len(HOSTILE)}/280")
        talk(b).get_by_role("button", name="Send").click()
        assert_heard_live(a, reads["ann"], HOSTILE, "Ben")
        hostile = line(a, HOSTILE).locator(".talk-text")
        assert hostile.evaluate("el => el.childElementCount") == 0
        expect(talk(a).locator(".talk-lines").locator("a, b, script")).to_have_count(0)
        assert alerts == []
        # The box takes 280 characters and no more.
        talk(b).get_by_label("Message to the table").fill("x" * 300)
        expect(talk(b).get_by_label("Message to the table")).to_have_value("x" * 280)
        expect(talk(b).locator(".talk-count")).to_have_text("280/280")
        talk(b).get_by_label("Message to the table").fill("")
        shots(a, "lobby-talk")

        # During the hand a spectator's word reaches the other spectator, not the players.
        started(ann, code, a, b, c, d)
        expect(talk(c).locator(".talk-hint")).to_have_text(
            "You are watching: during a hand, only other spectators read what you say."
        )
        expect(talk(a).locator(".talk-hint")).to_be_hidden()
        say(c, "Ben holds the queen of spades")
        expect(line(c, "Ben holds the queen of spades").locator(".talk-who")).to_have_text("You")
        assert_heard_live(d, reads["dev"], "Ben holds the queen of spades", "Cleo", spectator=True)
        say_phrase(a, "Good luck!")
        for page, name in ((b, "ben"), (c, "cleo"), (d, "dev")):
            assert_heard_live(page, reads[name], "Good luck!", "Ann")
        for page in (a, b):
            expect(line(page, "Ben holds the queen of spades")).to_have_count(0)
        # Nor does reading the talk afresh bring it to a player.
        b.reload()
        table(b).wait_for()
        open_talk(b)
        expect(line(b, "Good luck!")).to_have_count(1)
        expect(line(b, "Ready when you are")).to_have_count(1)
        expect(line(b, "Ben holds the queen of spades")).to_have_count(0)
        open_talk(d)
        shots(d, "spectator-talk")

        # With the panel open, axe finds nothing and nothing sticks out sideways.
        for page in (a, c):
            open_talk(page)
            nothing_off_screen(page, size)
        shots(a, "table-talk-open")
        # Closed (on a phone) or beside the table (a desktop), it covers no card of the hand
        # and no play control.
        close_talk(a)
        assert_hand_uncovered(a)
        nothing_off_screen(a, size)
        shots(a, "table-talk-closed")
        assert alerts == []


def cards_mode_for_three(page: Any) -> None:
    """Kali Tidi for three with partners by called cards (hidden until they play them);
    free text during a hand left to the server ("Automatic")."""
    page.get_by_label("Players", exact=True).select_option("3")
    page.get_by_label("Partners", exact=True).select_option("cards")
    setting = page.get_by_label("Free text during a hand", exact=True)
    expect(setting).to_have_value("null")
    assert setting.locator("option").all_inner_texts() == ["Automatic", "On", "Off (quick phrases only)"]


@SIZES
def test_free_text_waits_for_the_hand_where_partners_are_hidden(
    open_page: Callable[..., Any], live_url: str, shots: Shots, size: dict[str, int]
) -> None:
    with people(live_url, ("ann", "Ann"), ("ben", "Ben")) as (ann, ben):
        a = page_of(open_page, size, ann)
        a.get_by_role("button", name="Create the room").wait_for()
        # The new-room form says what the option does, in a player's words.
        a.get_by_label("Game", exact=True).select_option("kali_tidi")
        help_text = a.locator(".field", has=a.get_by_label("Free text during a hand", exact=True)).locator("small")
        expect(help_text).to_contain_text("Automatic: on, except where partners are hidden")
        code = create_room(a, "kali_tidi", cards_mode_for_three)
        ben.call("POST", f"rooms/{code}/join", json={})
        ann.call("POST", f"rooms/{code}/bots", json={})
        expect(a.locator("[data-live]")).to_have_text("live")
        b = room_page(open_page, size, ben, code)
        reads = chat_reads(b)

        # Before the deal free text is fine.
        say(a, "Ready?")
        assert_heard_live(b, reads, "Ready?", "Ann")

        started(ann, code, a, b)
        # Ann removes a card in a popup first; Ben, waiting, writes to the table.
        say(b, "I hold the ace of hearts")
        expect(error_line(b)).to_contain_text(OFF_DURING_HAND, timeout=LIVE_MS)
        expect(error_line(b)).to_contain_text("Quick phrases still work")
        # What was written stays in the box, for after the hand.
        expect(talk(b).get_by_label("Message to the table")).to_have_value("I hold the ace of hearts")
        expect(line(b, "I hold the ace of hearts")).to_have_count(0)
        shots(b, "free-text-refused")
        nothing_off_screen(b, size)

        say_phrase(b, "Good luck!")
        expect(line(a, "Good luck!")).to_have_count(1, timeout=LIVE_MS)
        expect(line(a, "Good luck!").locator(".talk-who")).to_have_text("Ben")
        expect(error_line(b)).to_be_hidden()
        expect(line(a, "I hold the ace of hearts")).to_have_count(0)
        shots(b, "phrase-said")


@SIZES
def test_blocking_someone_takes_their_lines_away(
    open_page: Callable[..., Any], live_url: str, shots: Shots, size: dict[str, int]
) -> None:
    with people(live_url, ("ann", "Ann"), ("ben", "Ben"), ("cleo", "Cleo")) as (ann, ben, cleo):
        code = hearts_table(ann, ben)
        a, b, c = (room_page(open_page, size, who, code) for who in (ann, ben, cleo))
        say_phrase(a, "Hello!")
        expect(line(b, "Hello!")).to_have_count(1, timeout=LIVE_MS)
        say(b, "Hi Ann")
        expect(line(b, "Hi Ann")).to_have_count(1)
        say(b, "Nice weather")
        say(c, "Hello all")
        for text in ("Hi Ann", "Nice weather", "Hello all"):
            expect(line(a, text)).to_have_count(1, timeout=LIVE_MS)
        # One's own lines have no menu; others' lines do.
        expect(line(a, "Hello!").locator("summary")).to_have_count(0)

        # The menu asks first; "Cancel" leaves everything as it was.
        menu = line(a, "Hi Ann").locator("details.talk-menu")
        menu.locator("summary").click()
        menu.get_by_role("button", name="Block Ben").click()
        expect(menu).to_contain_text("Block Ben? You won't see each other's messages any more")
        nothing_off_screen(a, size)
        shots(a, "block-asked")
        menu.get_by_role("button", name="Cancel").click()
        expect(menu.get_by_role("button", name="Yes, block Ben")).to_have_count(0)
        expect(talk(a).locator(".talk-line[data-author=ben]")).to_have_count(2)

        menu.locator("summary").click()
        menu.get_by_role("button", name="Block Ben").click()
        menu.get_by_role("button", name="Yes, block Ben").click()
        expect(talk(a).locator(".talk-line[data-author=ben]")).to_have_count(0)
        expect(line(a, "Hello all")).to_have_count(1)
        expect(error_line(a)).to_have_text("You blocked Ben. Their messages are hidden, and they won't see yours.")
        assert [block["username"] for block in ann.call("GET", "me/blocks")] == ["ben"]
        shots(a, "blocked")

        # What Ben says next does not reach Ann, though Cleo's later line does.
        say(b, "Are you there?")
        expect(line(c, "Are you there?")).to_have_count(1, timeout=LIVE_MS)
        say(c, "Still here")
        expect(line(a, "Still here")).to_have_count(1, timeout=LIVE_MS)
        expect(line(a, "Are you there?")).to_have_count(0)

        # Both ways, read afresh: Ann no longer reads Ben, nor Ben Ann.
        for page in (a, b):
            page.reload()
            page.locator(".lobby").wait_for()
            open_talk(page)
            expect(line(page, "Still here")).to_have_count(1)
        expect(talk(a).locator(".talk-line[data-author=ben]")).to_have_count(0)
        expect(talk(b).locator(".talk-line[data-author=ann]")).to_have_count(0)
        expect(line(b, "Hi Ann")).to_have_count(1)


@SIZES
def test_a_page_whose_socket_dropped_reads_what_it_missed_once(
    open_page: Callable[..., Any], live_url: str, shots: Shots, size: dict[str, int]
) -> None:
    with people(live_url, ("ann", "Ann"), ("ben", "Ben")) as (ann, ben):
        code = hearts_table(ann, ben)
        a = room_page(open_page, size, ann, code)
        b = open_page(**size)
        b.add_init_script(f"localStorage.setItem('tt.token', {json.dumps(ben.token)})")
        down = {"now": False}
        sockets: list[Any] = []

        def drop_or_pass(ws: Any) -> None:
            # While "down", every connection is closed at once, as a dying proxy would.
            if down["now"]:
                ws.close(code=1011, reason="down")
            else:
                sockets.append(ws)
                ws.connect_to_server()

        b.route_web_socket(re.compile(r"/ws/rooms/"), drop_or_pass)
        b.goto(f"/join/{code}")
        b.locator(".lobby").wait_for()
        expect(b.locator("[data-live]")).to_have_text("live")
        open_talk(b)

        # Heard on the socket (the page has read nothing over HTTP after it yet)...
        say(a, "Before the drop")
        expect(line(b, "Before the drop")).to_have_count(1, timeout=LIVE_MS)
        # ...then the socket drops: the page polls, and reads what is said meanwhile.
        down["now"] = True
        for ws in sockets:
            ws.close(code=1011, reason="down")
        expect(b.locator("[data-live]")).to_have_text("reconnecting (polling)")
        say(a, "Said while you were away")
        # A poll every 5 s, each a request on a machine that may be busy with other
        # browsers: a count of polls, not a time, is what this waits for.
        expect(line(b, "Said while you were away")).to_have_count(1, timeout=30_000)

        # Back on the socket, it reads the talk again from where HTTP left it: each line
        # once, in the order said, and what comes next comes live.
        down["now"] = False
        expect(b.locator("[data-live]")).to_have_text("live", timeout=20_000)
        say(a, "Back again")
        expect(line(b, "Back again")).to_have_count(1, timeout=LIVE_MS)
        said = ["Before the drop", "Said while you were away", "Back again"]
        expect(talk(b).locator(".talk-text")).to_have_text(said)
        ids = talk(b).locator(".talk-line").evaluate_all("els => els.map(e => Number(e.dataset.id))")
        assert ids == sorted(set(ids)), ids
        shots(b, "caught-up")


@SIZES
def test_a_timeout_and_a_throttle_are_said_calmly(
    open_page: Callable[..., Any], live_url: str, shots: Shots, size: dict[str, int]
) -> None:
    with people(live_url, ("ann", "Ann")) as (ann,):
        code = hearts_table(ann)
        a = room_page(open_page, size, ann, code)

        def time_out() -> int:
            user = User.objects.get(username="ann")
            until = timezone.now() + timedelta(minutes=10)
            return ChatTimeout.objects.create(user=user, until=until, reason="a test").pk

        timeout = orm(time_out)
        say_phrase(a, "Hello!")
        expect(error_line(a)).to_have_text(
            re.compile(r"^A moderator has paused your chat\. You can talk again in (9|10) minutes\.$"), timeout=LIVE_MS
        )
        expect(line(a, "Hello!")).to_have_count(0)
        nothing_off_screen(a, size)
        shots(a, "timed-out")
        orm(lambda: ChatTimeout.objects.filter(pk=timeout).update(lifted_at=timezone.now()))

        # Lines counted in fixed windows of a minute: Ann says enough over the API to be
        # refused, then once more on the page. Should the window turn over in between (the
        # page's line then goes through), she does it again.
        box = talk(a).get_by_label("Message to the table")
        for attempt in range(3):
            for n in range(40):
                res = ann.client.post(f"rooms/{code}/chat", json={"text": f"line {attempt}.{n}"})
                if res.status_code == 429:
                    break
                assert res.status_code == 201, res.text
            else:
                raise AssertionError("40 lines in a row were never throttled")
            say(a, f"one more {attempt}")
            throttled = error_line(a).filter(has_text="That's a lot of messages in a short time.")
            expect(throttled.or_(line(a, f"one more {attempt}"))).to_be_visible(timeout=LIVE_MS)
            if throttled.is_visible():
                break
        else:
            raise AssertionError("the page's line was never throttled")
        expect(error_line(a)).to_have_text(
            re.compile(r"^That's a lot of messages in a short time\. Please wait \d+ seconds? and try again\.$")
        )
        expect(box).to_have_value(f"one more {attempt}")
        nothing_off_screen(a, size)
        shots(a, "throttled")


def test_two_people_talk_at_a_table_under_make_run(make_run_page: Callable[..., Any], make_run: MakeRun) -> None:
    """The README's `make run` (runserver with the in-memory channel layer, SQLite, the
    worker's one-second computer players): a phrase and a line of text each way, live."""
    shots = Shots(ARTIFACTS / "make_run_talk")
    ann = make_run_page(PHONE["width"], PHONE["height"])
    sign_up(ann, "talk_ann")
    code = create_room(ann, "hearts")
    ben = make_run_page(LAPTOP["width"], LAPTOP["height"])
    sign_up(ben, "talk_ben")
    ben.goto(f"/join/{code}")
    ben.locator("[data-action=join]").click()
    expect(ann.locator(".lobby-seat", has_text="talk_ben")).to_be_visible()
    add_bots(ann, 2)
    ann.locator("[data-action=start]").click()
    reads = {"ann": chat_reads(ann), "ben": chat_reads(ben)}
    for page in (ann, ben):
        expect(table(page)).to_be_visible(timeout=15_000)
        expect(page.locator("[data-live]")).to_have_text("live")

    say_phrase(ann, "Good luck!")
    assert_heard_live(ben, reads["ben"], "Good luck!", "talk_ann")
    say(ben, "You too! <i>see you</i>")
    assert_heard_live(ann, reads["ann"], "You too! <i>see you</i>", "talk_ben")
    say(ann, "Thanks")
    assert_heard_live(ben, reads["ben"], "Thanks", "talk_ann")
    say_phrase(ben, "Well played!")
    assert_heard_live(ann, reads["ann"], "Well played!", "talk_ben")
    shots(ann, "make-run-talk")
    close_talk(ann)
    assert_hand_uncovered(ann)


def test_a_line_typed_while_the_last_is_on_its_way_is_kept_and_sent_after(
    open_page: Callable[..., Any], live_url: str
) -> None:
    """The answer to a line is held: meanwhile Send and the quick phrases wait (a tap
    sends nothing twice, and is not taken and lost), and the next line typed stays in the
    box when the first's answer comes, to be sent after it."""
    with people(live_url, ("cal", "Cal"), ("dee", "Dee")) as (cal, dee):
        code = hearts_table(cal, dee)
        a = room_page(open_page, LAPTOP, cal, code)
        held: list[Any] = []

        def hold_the_first(route: Any) -> None:
            if route.request.method == "POST" and not held:
                held.append(route)
            else:
                route.continue_()

        a.route(lambda url: url.endswith("/chat"), hold_the_first)
        say(a, "First")
        box = talk(a).get_by_label("Message to the table")
        send = talk(a).get_by_role("button", name="Send")
        expect(send).to_be_disabled()
        expect(talk(a).get_by_role("group", name="Quick phrases").get_by_role("button").first).to_be_disabled()
        deadline = time.monotonic() + 30
        while not held and time.monotonic() < deadline:
            a.wait_for_timeout(50)
        assert held, "the first line's request was not made"
        box.fill("Second")
        held[0].continue_()
        expect(line(a, "First")).to_have_count(1)
        expect(send).to_be_enabled()
        expect(box).to_have_value("Second")
        send.click()
        expect(line(a, "Second")).to_have_count(1)
        expect(box).to_have_value("")
        expect(talk(a).locator(".talk-text")).to_have_text(["First", "Second"])
