"""Slips at the table and around it, each in the browser at the size it was seen at: a
room closed before it began, the notices about one's own seat, a new table from an
automatic-rated one, toasts while offline, the profile's counts and rating words, the
clocks past their deadline, the turn line while a computer player keeps the seat, an
invite to a Kali Tidi room with teams, the form's word for Hearts' fourth hand, the rules
line as a screen reader reads it, and the signed-in home page's heading.

The test server queues no deadline tasks: a clock that runs out stays run out until the
test has the server act (games.services.due), so a page can be read past a deadline
without racing the server. Nothing waits for a fixed time."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from .axe import AXE
from .conftest import deal_hand, orm, play_by_api, sign_up, table, token_of
from .test_idle_table import DEAL
from .test_table_layout import sign_up_as
from .test_turns import Person, person

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1280, "height": 800}
SIZES = pytest.mark.parametrize("size", [PHONE, WIDE], ids=["phone", "desktop"])
# Long clocks: nothing runs out unless a test makes it.
LONG = {"turn_seconds": 600, "abandon_seconds": 600}
# The rating's letters and signs, as the pages write them.
MU, SIGMA, MINUS, TIMES = "\u03bc", "\u03c3", "\u2212", "\u00d7"


def started_room(host: Person, *guests: Person, bots: int, **options: Any) -> str:
    """A started Hearts room: the host, the guests, then computer players."""
    code = host.room("hearts", "Slips", **options)
    for guest in guests:
        guest.call("POST", f"rooms/{code}/join", json={})
    host.bots(code, bots)
    host.call("POST", f"rooms/{code}/start")
    return code


def pass_by_api(someone: Person, code: str) -> None:
    """Someone passes the first three cards offered: the table no longer waits for them."""
    view = someone.call("GET", f"rooms/{code}/state")
    cards = view["you"]["legal_actions"][0]["choices"][:3]
    someone.call(
        "POST",
        f"rooms/{code}/actions",
        json={"version": view["version"], "action": {"type": "pass_cards", "cards": cards}},
    )


def idle_past_limit(code: str, seat: int) -> None:
    """The person in `seat` has kept the table waiting past abandon_seconds, and the
    server's own due-time pass acts on it, as its sweeper would."""
    from games.models import Seat
    from games.services import due

    def work() -> None:
        Seat.objects.filter(room__code=code, index=seat).update(turn_since=timezone.now() - timedelta(hours=1))
        assert due.due_actions_apply(code=code, now=timezone.now())

    orm(work)


def visible_text(page: Any) -> str:
    return page.evaluate("document.body.innerText")


# 1. A room a moderator closed in the lobby: a panel that says so, not a table.


@SIZES
def test_a_room_closed_in_the_lobby_says_so_and_draws_no_table(open_page, live_url, shots, size):
    from accounts.models import User
    from games.models import Room
    from moderation import services

    page = open_page(**size)
    sign_up_as(page, "ann", "Ann")
    with person(live_url, token_of(page)) as ann:
        code = ann.room("hearts", "Never played")
        ann.bots(code, 1)
        page.goto(f"/join/{code}")
        expect(page.locator(".lobby")).to_be_visible()

        def close() -> None:
            mia = User.objects.create_user("mia", password="a-long-secret-9", is_staff=True)
            services.room_close(moderator=mia, room=Room.objects.get(code=code), reason="Spam in the room name")

        orm(close)
        room = ann.call("GET", f"rooms/{code}/")
    assert room["status"] == "closed" and room["started_at"] is None, room

    # Live on the page that had the lobby open, and the same on a page opened afresh.
    for shown in (page, open_page(**size)):
        if shown is not page:
            shown.goto("/")
            shown.evaluate(f"localStorage.setItem('tt.token', '{token_of(page)}')")
            shown.goto(f"/join/{code}")
        panel = shown.locator(".unstarted-room")
        expect(panel.get_by_role("heading", level=1)).to_have_text("This table was closed before it began")
        expect(panel.locator(".status-reason")).to_have_text("Closed by a moderator: Spam in the room name")
        expect(panel.get_by_role("link", name="Back to your tables")).to_be_visible()
        expect(shown.locator("section.table, .lobby, .fair-deal")).to_have_count(0)
        assert "undefined" not in visible_text(shown)
        assert "Hearts not broken" not in visible_text(shown).replace("\n", " ")
        shots(shown, "closed-before-it-began")
        assert shown.evaluate("document.documentElement.scrollWidth") <= size["width"]
    page.locator(".unstarted-room").get_by_role("link", name="Back to your tables").click()
    expect(page.get_by_role("button", name="Create the room")).to_be_visible()


# 2 and 7. A computer player plays the seat of a player who was away: the notice above the
# table is readable (axe's contrast rule), and the turn line says what is going on.

CONTRAST = """async (selector) => {
    const result = await axe.run(selector, { runOnly: { type: "rule", values: ["color-contrast"] } });
    return { violations: result.violations.length, passes: result.passes.flatMap((r) => r.nodes).length };
}"""


def contrast(page: Any, selector: str) -> dict[str, int]:
    if page.evaluate("typeof window.axe") == "undefined":
        page.add_script_tag(path=str(AXE))
    return page.evaluate(CONTRAST, selector)


def test_the_seat_a_computer_player_keeps_is_said_legibly_and_in_the_turn_line(open_page, live_url, shots):
    ann = open_page(**PHONE)
    sign_up_as(ann, "ann", "Ann")
    bob = open_page(**WIDE)
    sign_up_as(bob, "bob", "Bob")
    with person(live_url, token_of(ann)) as host, person(live_url, token_of(bob)) as guest:
        code = started_room(host, guest, bots=2, on_abandon="bot", **LONG)
        ann.goto(f"/join/{code}")
        expect(table(ann)).to_have_attribute("data-phase", "pass")
        pass_by_api(guest, code)
        idle_past_limit(code, 0)
        assert host.call("GET", f"rooms/{code}/state")["seats"][0]["is_bot"]

    notice = ann.locator("p.away")
    expect(notice).to_contain_text("a computer player plays your seat until you come back")
    expect(ann.locator(".turn-line .turn-text")).to_have_text(
        "A computer player is playing for you: take your seat back to play."
    )
    checked = contrast(ann, "p.away")
    assert checked["violations"] == 0 and checked["passes"] > 0, checked
    shots(ann, "a-computer-keeps-the-seat")

    notice.get_by_role("button", name="Take my seat back").click()
    expect(ann.locator("p.away")).to_have_count(0)
    expect(ann.locator(".turn-line .turn-text")).not_to_contain_text("A computer player")


# 2. A moderator gave the seat away for good: a tab opened afterwards says so, even once
# the hand-over is older than the events the page keeps.


def test_a_moderators_hand_over_is_said_in_a_tab_opened_later(open_page, live_url, shots):
    from games.services import table_moderation

    ann = open_page(**PHONE)
    sign_up_as(ann, "ann", "Ann")
    bob = open_page(**WIDE)
    sign_up_as(bob, "bob", "Bob")
    with person(live_url, token_of(ann)) as host, person(live_url, token_of(bob)) as guest:
        code = started_room(host, guest, bots=2, target=500, **LONG)
        ann.goto(f"/join/{code}")
        expect(table(ann).locator(".hand button")).to_have_count(13)
        orm(lambda: table_moderation.seat_give_to_bot(code=code, index=0, reason="Abuse in the table talk"))
        said = "A moderator gave your seat to a computer player: Abuse in the table talk."
        expect(ann.locator("p.handed-over")).to_contain_text(said)
        tabs = ann.context
        ann.close()

        # Bob plays on with the computer players: hands of them, more events than a page
        # keeps (200), come after the hand-over.
        play_by_api(live_url, token_of(bob), code, lambda v: v["round"] >= 4)
        events = host.call("GET", f"rooms/{code}/events")
    handed = next(e["seq"] for e in events if e["type"] == "seat_to_bot")
    assert sum(1 for e in events if e["seq"] > handed) > 200

    fresh = tabs.new_page()
    errors: list[str] = []
    fresh.on("pageerror", lambda exc: errors.append(str(exc)))
    fresh.goto(f"/join/{code}")
    expect(table(fresh)).to_be_visible()
    expect(fresh.locator("p.handed-over")).to_contain_text(said)
    expect(fresh.locator(".spectating")).to_be_visible()
    checked = contrast(fresh, "p.handed-over")
    assert checked["violations"] == 0 and checked["passes"] > 0, checked
    shots(fresh, "handed-over-new-tab")
    assert not errors, errors


# 3. A new table like an automatic-rated one that computer players made unrated.


def test_a_new_table_keeps_rated_automatic(open_page, live_url, shots):
    page = open_page(**WIDE)
    sign_up_as(page, "ann", "Ann")
    with person(live_url, token_of(page)) as ann:
        code = started_room(ann, bots=3, **LONG)
        old = ann.call("GET", f"rooms/{code}/")
        assert old["options"]["rated"] is False and old["asked_options"]["rated"] is None, old
        page.goto(f"/join/{code}")
        expect(table(page)).to_have_attribute("data-status", "playing")
        idle_past_limit(code, 0)
        banner = page.locator(".banner.match-ended")
        banner.get_by_role("button", name="New table with the same settings").click()
        expect(page.locator(".lobby")).to_be_visible()
        new_code = page.url.rstrip("/").rsplit("/", 1)[1]
        assert new_code != code
        new = ann.call("GET", f"rooms/{new_code}/")
    assert new["options"] == old["asked_options"], (new["options"], old["asked_options"])
    assert new["options"]["rated"] is None
    expect(page.locator(".rated-note")).to_have_text("Rated if every seat is a person when the match starts.")
    shots(page, "new-table-rated-automatic")


# 4. Offline: one toast, in people's words, however often the page tries again.


def test_offline_says_so_once_in_words(open_page, live_url, shots):
    page = open_page(**PHONE)
    sign_up_as(page, "ann", "Ann")
    with person(live_url, token_of(page)) as ann:
        code = started_room(ann, bots=3, **LONG)
    page.goto(f"/join/{code}")
    expect(table(page)).to_be_visible()
    expect(page.locator("[data-live]")).to_have_text("live")
    page.context.set_offline(True)
    toast = page.locator(".toast.error")
    expect(toast.first).to_have_text("You seem to be offline; retrying…", timeout=30_000)
    # The page polls while its socket is down, and each poll fails: after three more
    # failures the one toast is still the only one.
    for _ in range(3):
        page.wait_for_event("requestfailed", predicate=lambda r: f"/api/v1/rooms/{code}/" in r.url, timeout=30_000)
    expect(toast).to_have_count(1)
    # A move tried meanwhile fails in the same words, not the browser's.
    for card in page.locator(".hand button").all()[:3]:
        card.click()
    page.get_by_role("button", name=re.compile(r"^Pass ")).click()
    expect(
        page.locator(".toast.error", has_text="You seem to be offline: the server cannot be reached.")
    ).to_have_count(1)
    expect(page.locator(".toast.error", has_text="You seem to be offline; retrying…")).to_have_count(1)
    assert "Failed to fetch" not in visible_text(page)
    shots(page, "offline")
    page.context.set_offline(False)
    expect(page.locator("[data-live]")).to_have_text("live", timeout=60_000)


# 5. The profile's counts add up, and the rating's parts are said in words.


@SIZES
def test_the_profile_counts_add_up_and_the_rating_is_in_words(open_page, live_url, shots, size):
    from .test_players import rate

    page = open_page(**size)
    sign_up(page, "pia")
    rate([("pia", "Pia", 21.5, 6), ("quinn", "Quinn", 30.25, 12), ("ruth", "Ruth", 10.0, 7)])

    # The counts as reported: 4 finished matches, 2 of them won, and 3 abandoned apart.
    def counted(route: Any) -> None:
        answer = route.fetch()
        profile = answer.json()
        profile["matches"] = {"played": 4, "won": 2, "abandoned": 3}
        route.fulfill(response=answer, json=profile)

    page.route("**/api/v1/players/pia", counted)
    page.goto("/players/pia")
    expect(page.locator(".match-counts")).to_have_text(
        "4 matches finished, 2 of them won; 3 more left unfinished (abandoned)."
    )
    ratings = page.get_by_role("table", name="Ratings")
    heads = ratings.locator("thead th")
    expect(heads).to_have_text(["Game", "Rating", "Skill", "Rated matches"])
    expect(heads.nth(2)).to_have_attribute("title", re.compile(rf"^{MU} ± {SIGMA}: the best estimate"))
    expect(ratings.locator("tr[data-game=hearts] td")).to_have_text(["21.5", "27.5 ± 2.0", "6"])
    note = f"The rating is skill {MINUS} 3 {TIMES} {SIGMA}"
    expect(page.locator(".rating-note")).to_contain_text(note)
    assert MU not in ratings.inner_text() and SIGMA not in ratings.inner_text()
    shots(page, "profile")
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]

    page.goto("/leaderboard?game=hearts")
    rows = page.locator(".board tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.first.locator("td").nth(1)).to_have_attribute("title", f"Skill 36.3 ± 2.0 ({MU} ± {SIGMA})")
    expect(page.locator(".rating-note")).to_contain_text(note)
    shots(page, "leaderboard")


# 6. Clocks past their deadline, before the server has acted: words, not a frozen 0:00.


def run_out_soon(code: str) -> None:
    """Seat 0's own waiting time runs out in two seconds, and the turn two seconds later
    (the idle clock, running out first, is shown): the room's listeners hear of it."""
    from games import store

    def work() -> None:
        with store.locked(code) as t:
            now = timezone.now()
            seat = t.seat_at(0)
            assert seat is not None and seat.turn_since is not None and t.round is not None
            waited = (now - seat.turn_since).total_seconds()
            seat.idle_seconds = LONG["abandon_seconds"] - waited - 2
            t.mark(seat, ["idle_seconds"])
            t.round.deadline_at = now + timedelta(seconds=4)
            t.mark(t.round, ["deadline_at"])
            t.touch()

    orm(work)


def test_clocks_past_their_deadline_say_any_moment_now(open_page, live_url, shots):
    page = open_page(**PHONE)
    sign_up_as(page, "ann", "Ann")
    with person(live_url, token_of(page)) as ann:
        code = started_room(ann, bots=3, **LONG)
    deal_hand(code, DEAL)
    page.goto(f"/join/{code}")
    line = page.locator(".turn-line")
    expect(line.locator("[data-countdown]")).to_have_text(re.compile(r"^\d+:\d\d$"))
    run_out_soon(code)
    # Both clocks run, then run out; the server has not acted (nothing sweeps here).
    expect(line.locator(".idle-clock")).to_have_text("The match is abandoned any moment now", timeout=20_000)
    expect(line.locator(".clock")).to_have_text(
        " · time is up: the server plays for you any moment now", timeout=20_000
    )
    expect(line.locator("[data-countdown], [data-idle-countdown]")).to_have_count(0)
    assert "0:00" not in line.inner_text()
    assert table(page).get_attribute("data-status") == "playing"
    shots(page, "clocks-run-out")

    # Drawn afresh past the deadlines, the words are there from the first draw.
    page.reload()
    expect(line.locator(".idle-clock")).to_have_text("The match is abandoned any moment now")
    expect(line.locator(".clock")).to_contain_text("time is up")
    expect(line.locator("[data-countdown], [data-idle-countdown]")).to_have_count(0)


# 8. An invite to a Kali Tidi room with teams keeps its promise of a seat.


def test_a_guest_from_an_invite_to_a_team_room_is_seated(open_page, live_url, shots):
    host = open_page(**WIDE)
    sign_up(host, "tara")
    with person(live_url, token_of(host)) as tara:
        code = tara.room("kali_tidi", "Teams", players=4, team_mode="teams", team_sizes=[2, 2])
    host.goto(f"/join/{code}")
    sizes = host.locator(".team-sizes")
    expect(sizes).to_have_text("Team A: 1 of 2 · Team B: 0 of 2")
    invite = host.get_by_label("Invite link").input_value()

    guest = open_page(**PHONE)
    guest.goto(invite)
    guest.get_by_label("Your name at the table").fill("Gus")
    guest.get_by_role("button", name="Play as guest").last.click()
    # Seated in the team with room, and free to switch while the other has room too.
    expect(guest.locator(".lobby-seat.me")).to_contain_text("Team B")
    expect(sizes).to_have_text("Team A: 1 of 2 · Team B: 1 of 2")
    expect(guest.locator("[data-action=switch-team]")).to_have_text("Switch to Team A")
    shots(guest, "seated-from-the-invite")


# 9, 10 and 11. The signed-in home page's heading, the form's word for Hearts' fourth hand
# as the table says it, and the rules line read once as a screen reader reads it.


@SIZES
def test_home_heading_form_words_and_rules_line(open_page, live_url, shots, size):
    page = open_page(**size)
    sign_up_as(page, "ann", "Ann")
    heading = page.locator("h1")
    expect(heading).to_be_visible()
    expect(heading).to_have_text("Hearts, Moon and Kali Tidi")
    expect(page.get_by_role("heading", level=1)).to_have_count(1)
    checked = contrast(page, "h1")
    assert checked["violations"] == 0 and checked["passes"] > 0, checked
    shots(page, "home")

    fourth = page.get_by_label("Every fourth hand")
    expect(fourth.locator("option")).to_have_text(["No pass", "Funky pass"])
    page.get_by_role("button", name="Create the room").click()
    expect(page.locator(".lobby")).to_be_visible()
    summary = page.locator(".options-summary")
    summary.locator("summary").click()
    expect(summary.locator(".info-item", has_text="Every fourth hand").locator("dd")).to_have_text("No pass")
    page.locator("[data-action=add-bot]").click()
    page.locator("[data-action=add-bot]").click()
    page.locator("[data-action=add-bot]:not([disabled])").click()
    page.locator("[data-action=start]:not([disabled])").click()
    expect(table(page)).to_be_visible()

    rules = page.get_by_role("region", name="Rules in force")
    expect(rules).to_contain_text("4th hand: no pass")
    expect(rules).to_match_aria_snapshot(
        '- region "Rules in force":\n'
        '  - heading "Rules in force" [level=2]\n'
        "  - paragraph: /^moon. \\+26 to each other player · 4th hand. no pass · /\n"
    )
    shots(page, "table-rules")
