"""Moderating in the browser, as a member of the "Moderators" group (staff, no
superuser), on a phone and on a desktop: sign in to /admin/, find a player, ban them with
a reason, give a seat to a computer player, shut a room down, read a hand and the log;
and what the people concerned see at their tables and when they sign in.

The last test runs the admin under `make run` itself (scripts/run.sh: SQLite, DEBUG=1,
runserver and a Celery worker, migrations applied at start), on a fresh database.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect, sync_playwright

from . import csp
from .conftest import ARTIFACTS, CHROMIUM, Shots, orm

PASSWORD = "correct-horse-9"  # make_user's
VIEWPORTS = {"phone": (390, 844), "desktop": (1280, 900)}
# Near the longest a reason may be (170): the log must still show all of it.
LONG_REASON = (
    "A test table left running since the last release: nobody has sat at it for weeks, "
    "and its computer players keep the worker busy."
)


def started(users: list[Any], bots: int) -> Any:
    from games.services import lobby

    room = lobby.room_create(host=users[0], game="hearts", options={})
    for user in users[1:]:
        lobby.room_join(code=room.code, user=user)
    for _ in range(bots):
        lobby.room_add_bot(code=room.code, user=users[0])
    lobby.room_start(code=room.code, user=users[0])
    return room


@pytest.fixture
def scene(transactional_db: Any, make_user: Any, moderators_group: Any) -> dict[str, Any]:
    """People and rooms, made before the browser starts (the ORM runs here)."""
    from games.services import lobby

    mia = make_user("mia", is_staff=True)
    mia.groups.add(moderators_group)
    carl, olga, lena, pete = (make_user(n) for n in ("carl", "olga", "lena", "pete"))
    playing = started([carl, olga], bots=2)  # carl is banned: a computer plays on for him
    waiting = lobby.room_create(host=olga, game="hearts", options={})
    lobby.room_join(code=waiting.code, user=carl)  # ... and his lobby seat is freed
    shared = started([lena, pete], bots=2)  # lena's seat goes to a computer player
    doomed = started([pete], bots=3)  # shut down
    return {
        "carl": carl,
        "playing": playing,
        "lobby": waiting,
        "shared": shared,
        "doomed": doomed,
        "round": shared.rounds.get().id,
    }


def sign_in_web(page: Any, username: str) -> None:
    page.goto("/")
    page.get_by_role("tab", name="Log in").click()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").last.click()
    page.get_by_role("button", name="Create the room").wait_for()


def sign_in_admin(page: Any, username: str, password: str = PASSWORD) -> None:
    page.goto("/admin/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Site administration")).to_be_visible()
    expect(page.locator("body")).not_to_contain_text("permission to view or edit anything")


def in_first_screen(page: Any, locator: Any) -> bool:
    """Whether the element is seen without scrolling."""
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


def assert_readable(cell: Any, whole: bool) -> None:
    """A column of the log is readable: not a sliver, and (on a desktop) seen in full,
    neither clipped by the list's scrolling box nor past the window's edge."""
    box = cell.evaluate(
        """el => {
            const r = el.getBoundingClientRect(), c = el.closest('.results').getBoundingClientRect();
            return {width: r.width, right: r.right, edge: Math.min(c.right, window.innerWidth)};
        }"""
    )
    assert box["width"] >= 200, box
    if whole:
        assert box["right"] <= box["edge"] + 1, box


def give_reason(page: Any, reason: str, submit: str) -> None:
    page.get_by_label("Reason").fill(reason)
    page.get_by_role("button", name=submit, exact=True).click()


def guest_answer(page: Any) -> list[Any]:
    """What `POST auth/guest` answers the page's browser (its cookies included): the status
    and the error code."""
    return page.evaluate(
        """async () => {
            const res = await fetch("/api/v1/auth/guest", {
                method: "POST",
                headers: { "Content-Type": "application/json" },
                body: JSON.stringify({ display_name: "Someone Else" }),
            });
            return [res.status, (await res.json()).errors[0].code];
        }"""
    )


def ban(page: Any, username: str, reason: str, shots: Shots) -> None:
    """Find the player from the list of users and ban them from the top of their page."""
    page.get_by_role("link", name="Users", exact=True).first.click()
    page.locator("#searchbar").fill(username)
    page.locator("#searchbar").press("Enter")
    page.get_by_role("link", name=username, exact=True).click()
    button = page.get_by_role("link", name="Ban…")
    assert in_first_screen(page, button), "Ban is not at the top of the user's page"
    shots(page, f"user-{username}")
    button.click()
    give_reason(page, reason, "Ban")
    # The admin's style capitalises messages; the words are what count.
    expect(page.locator(".messagelist")).to_contain_text(re.compile(f"{username} is banned", re.IGNORECASE))
    expect(page.locator("#moderation")).to_contain_text(f"Reason: {reason}")


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_moderator_bans_gives_a_seat_away_shuts_a_room_and_reads_the_log(scene, open_page, shots, size):
    width, height = VIEWPORTS[size]
    carl = open_page(width, height)
    sign_in_web(carl, "carl")
    carl.goto(f"/join/{scene['playing'].code}")
    carl.locator("section.table").wait_for()
    lena = open_page(width, height)
    sign_in_web(lena, "lena")
    lena.goto(f"/join/{scene['shared'].code}")
    lena.locator("section.table").wait_for()

    mia = open_page(width, height)
    sign_in_admin(mia, "mia")
    for section in ("Users", "Rooms", "Rounds", "Actions", "Events", "Moderation log"):
        expect(mia.get_by_role("link", name=section, exact=True).first).to_be_visible()
    expect(mia.get_by_role("link", name="Groups", exact=True)).to_have_count(0)
    shots(mia, "admin-index")

    # The ban, found from the list of users, and what it did at carl's tables.
    ban(mia, "carl", "card sharing with olga", shots)
    shots(mia, "banned")
    notice = carl.locator(".signed-out-notice")
    expect(notice).to_contain_text("This account is banned. The moderator's reason: card sharing with olga")
    shots(carl, "carl-signed-out")
    carl.get_by_role("tab", name="Log in").click()
    carl.get_by_label("Username").fill("carl")
    carl.get_by_label("Password").fill(PASSWORD)
    carl.get_by_role("button", name="Log in").last.click()
    expect(carl.locator("form .form-error")).to_have_text(
        "This account is banned. The moderator's reason: card sharing with olga"
    )
    shots(carl, "carl-sign-in-refused")
    # No door beside it: guest play is not offered, and this browser cannot start a guest
    # session (its ban answers marked it), even by asking the API itself.
    expect(carl.get_by_role("tab", name="Play as guest")).to_have_count(0)
    carl.goto(f"/join/{scene['playing'].code}")
    expect(carl.get_by_role("tab", name="Log in")).to_be_visible()
    expect(carl.get_by_role("tab", name="Play as guest")).to_have_count(0)
    assert guest_answer(carl) == [401, "banned"]

    def seats_after_ban() -> tuple[Any, ...]:
        playing = scene["playing"]
        return (
            playing.seats.get(index=0).is_bot,
            scene["lobby"].seats.filter(user=scene["carl"]).exists(),
            list(playing.events.values_list("data__type", flat=True)),
        )

    bot_now, still_in_lobby, events = orm(seats_after_ban)
    assert bot_now and not still_in_lobby and "seat_to_bot" in events

    # A seat given to a computer player: lena, watching, reads why.
    shared = scene["shared"]
    mia.goto(f"/admin/games/room/?q={shared.code}")
    mia.get_by_role("link", name=shared.code, exact=True).click()
    give = mia.get_by_role("link", name="Give Seat 1 (Lena) to a computer player…")
    assert in_first_screen(mia, give)
    expect(mia.get_by_text("Seat 0")).to_have_count(0)
    shots(mia, "room")
    give.click()
    give_reason(mia, "left the table for an hour", "Give the seat to a computer player")
    expect(mia.locator(".messagelist")).to_contain_text("Seat 1 is played by a computer now.")
    line = "A moderator gave Lena's seat to a computer player: left the table for an hour"
    # It reaches her page through the room's socket and a fetch of the log: on two busy
    # cores that can take longer than the default five seconds.
    expect(lena.get_by_text(line)).to_be_visible(timeout=15_000)
    # And at the top of her page, at once: why, and that the seat is not hers to take back.
    banner = lena.locator(".handed-over")
    expect(banner).to_contain_text("A moderator gave your seat to a computer player: left the table for an hour.")
    expect(banner).to_contain_text("It is not yours to take back")
    shots(lena, "lena-seat-taken")

    # Shutting a room down: the button is at the top, not beside the form's grey Close.
    doomed = scene["doomed"]
    mia.goto(f"/admin/games/room/?q={doomed.code}")
    mia.get_by_role("link", name=doomed.code, exact=True).click()
    shut = mia.get_by_role("link", name="Shut down this room…")
    assert in_first_screen(mia, shut)
    close = mia.locator(".submit-row .closelink")
    assert shut.bounding_box()["y"] + 200 < close.bounding_box()["y"]
    shut.click()
    give_reason(mia, LONG_REASON, "Shut down the room")
    expect(mia.locator(".messagelist")).to_contain_text(f"Room {doomed.code} is shut down.")
    expect(mia.locator("#moderation")).to_contain_text("This room is closed")

    # A hand reads as tables; the replay check is a look, not a logged action.
    mia.goto(f"/admin/games/round/{scene['round']}/change/")
    expect(mia.locator("table.game-state").first).to_contain_text("Seat 2 (Pete)")
    expect(mia.locator("table.game-state th", has_text="phase")).to_be_visible()
    shots(mia, "hand")
    mia.get_by_role("link", name="Replay from the seed and compare with the stored state").click()
    expect(mia.locator("#replay-verdict")).to_contain_text("Consistent:")

    # The log: three entries, each reason readable in full.
    mia.goto("/admin/moderation/moderationentry/")
    reasons = mia.locator("td.field-reason_text")
    expect(reasons).to_have_count(3)
    for reason in ("card sharing with olga", "left the table for an hour", LONG_REASON):
        expect(reasons.filter(has_text=reason)).to_have_count(1)
    for i in range(3):
        assert_readable(reasons.nth(i), whole=size == "desktop")
    expect(reasons.locator(".moderation-detail").filter(has_text="given to a computer player")).to_have_count(1)
    shots(mia, "log")


# -- under `make run` --------------------------------------------------------------


def test_the_moderators_group_works_under_make_run(make_run):
    url = make_run.url
    # The group comes from the migrations that run.sh applied to the fresh database.
    make_run.shell(
        "from django.contrib.auth.models import Group; from accounts.models import User;"
        f"u = User.objects.create_user('mia', password='{PASSWORD}', is_staff=True);"
        "u.groups.add(Group.objects.get(name='Moderators'));"
        f"User.objects.create_superuser('root', password='{PASSWORD}')",
    )
    with httpx.Client(base_url=url + "/api/v1/", timeout=30) as api:
        tokens = {}
        for name in ("carl", "olga"):
            res = api.post("auth/register", json={"username": name, "password": PASSWORD})
            assert res.status_code == 201, res.text
            tokens[name] = {"Authorization": f"Token {res.json()['token']}"}
        code = api.post("rooms/", json={"game": "hearts", "options": {}}, headers=tokens["olga"]).json()["code"]
        assert api.post(f"rooms/{code}/join", headers=tokens["carl"]).status_code == 201
    shots = Shots(ARTIFACTS / "make_run_moderation")
    pw = sync_playwright().start()
    try:
        browser = pw.chromium.launch(executable_path=CHROMIUM)
        try:
            for size, (width, height) in VIEWPORTS.items():
                context = browser.new_context(viewport={"width": width, "height": height}, base_url=url)
                blocked = csp.watch(context)
                page = context.new_page()
                page.set_default_timeout(15_000)
                errors: list[str] = []
                page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
                if size == "phone":
                    sign_in_admin(page, "mia")
                    # The admin's own styles are served: the header has its colour, not bare HTML's.
                    header = page.evaluate("getComputedStyle(document.querySelector('#header')).backgroundColor")
                    assert header not in ("rgba(0, 0, 0, 0)", "transparent"), header
                    ban(page, "carl", "threats in the lobby", shots)
                    page.goto(f"/admin/games/room/?q={code}")
                    page.get_by_role("link", name=code, exact=True).click()
                    expect(page.locator(".field-status_reason, #moderation").first).to_be_visible()
                    shots(page, "lobby-room-after-ban")
                    page.goto("/admin/moderation/moderationentry/")
                    cell = page.locator("td.field-reason_text")
                    expect(cell).to_contain_text("threats in the lobby")
                    expect(cell.locator(".moderation-detail")).to_have_text(f"{code} seat 2 freed")
                    assert_readable(cell, whole=False)
                    shots(page, "phone-log")
                else:
                    # A superuser: no way to delete or switch off an account or delete a room.
                    sign_in_admin(page, "root")
                    page.get_by_role("link", name="Users", exact=True).first.click()
                    page.get_by_role("link", name="olga", exact=True).click()
                    expect(page.locator("input[name=is_active]")).to_have_count(0)
                    expect(page.locator(".deletelink")).to_have_count(0)
                    expect(page.get_by_role("link", name="Ban…")).to_be_visible()
                    shots(page, "superuser-user")
                    page.goto("/admin/moderation/moderationentry/")
                    cell = page.locator("td.field-reason_text")
                    expect(cell).to_contain_text("threats in the lobby")
                    assert_readable(cell, whole=True)
                    shots(page, "desktop-log")
                assert not errors, errors
                csp.assert_none(blocked)
                context.close()
        finally:
            browser.close()
    finally:
        pw.stop()
    with httpx.Client(base_url=url + "/api/v1/", timeout=30) as api:
        events = api.get(f"rooms/{code}/events", headers=tokens["olga"]).json()
        res = api.post("auth/token", json={"username": "carl", "password": PASSWORD})
    assert next(e for e in events if e["type"] == "removed")["reason"] == "threats in the lobby"
    assert res.status_code == 401 and res.json()["errors"][0]["code"] == "banned"
    assert re.search("threats in the lobby", res.json()["errors"][0]["detail"])


@pytest.mark.parametrize("size", VIEWPORTS, ids=list(VIEWPORTS))
def test_a_ban_and_a_hand_over_hold_under_make_run(make_run, make_run_page, size):
    """On the README's own `make run`: the banned person's browser is offered no guest play
    and cannot start a guest session, even through the API; the person whose seat a
    moderator gives to a computer player reads why at the top of their page at once."""
    width, height = VIEWPORTS[size]
    moderator, banned, moved = f"mod{width}", f"ben{width}", f"hana{width}"
    make_run.shell(
        "from django.contrib.auth.models import Group; from accounts.models import User;"
        f"u = User.objects.create_user('{moderator}', password='{PASSWORD}', is_staff=True);"
        "u.groups.add(Group.objects.get(name='Moderators'))"
    )
    tokens = {}
    with httpx.Client(base_url=make_run.url + "/api/v1/", timeout=30) as api:
        for name in (moved, banned):
            res = api.post("auth/register", json={"username": name, "password": PASSWORD})
            assert res.status_code == 201, res.text
            tokens[name] = res.json()["token"]
        host = {"Authorization": f"Token {tokens[moved]}"}
        code = api.post("rooms/", json={"game": "hearts", "options": {}}, headers=host).json()["code"]
        assert api.post(f"rooms/{code}/join", headers={"Authorization": f"Token {tokens[banned]}"}).status_code == 201
        for _ in range(2):
            assert api.post(f"rooms/{code}/bots", json={}, headers=host).status_code == 201
        assert api.post(f"rooms/{code}/start", headers=host).status_code == 200

    pages = {}
    for name in (banned, moved):
        page = make_run_page(width, height)
        page.add_init_script(f"localStorage.setItem('tt.token', {tokens[name]!r})")
        page.goto(f"/rooms/{code}")
        page.locator("section.table").wait_for()
        pages[name] = page
    shots = Shots(ARTIFACTS / f"make_run_ban_{size}")
    mod = make_run_page(width, height)
    sign_in_admin(mod, moderator)

    ban(mod, banned, "card sharing at the table", shots)
    ben = pages[banned]
    expect(ben.locator(".signed-out-notice")).to_contain_text(
        "This account is banned. The moderator's reason: card sharing at the table", timeout=15_000
    )
    expect(ben.get_by_role("tab", name="Log in")).to_be_visible()
    expect(ben.get_by_role("tab", name="Play as guest")).to_have_count(0)
    # Opened anew with the banned token still in storage (the init script puts it back at
    # every load, as a second tab might hold it): the sign-in form with the reason, no error.
    ben.goto(f"/join/{code}")
    expect(ben.get_by_role("tab", name="Log in")).to_be_visible()
    expect(ben.locator(".signed-out-notice")).to_contain_text("The moderator's reason: card sharing at the table")
    expect(ben.get_by_role("tab", name="Play as guest")).to_have_count(0)
    assert guest_answer(ben) == [401, "banned"]
    shots(ben, "banned-browser")

    mod.goto(f"/admin/games/room/?q={code}")
    mod.get_by_role("link", name=code, exact=True).click()
    mod.get_by_role("link", name=re.compile(r"^Give Seat 1 \(.+\) to a computer player…$")).click()
    give_reason(mod, "left the table for an hour", "Give the seat to a computer player")
    expect(mod.locator(".messagelist")).to_contain_text("Seat 1 is played by a computer now.")
    banner = pages[moved].locator(".handed-over")
    expect(banner).to_contain_text(
        "A moderator gave your seat to a computer player: left the table for an hour.", timeout=15_000
    )
    expect(banner).to_contain_text("It is not yours to take back")
    shots(pages[moved], "handed-over")
