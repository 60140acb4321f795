"""Every page of the web client, at a phone's size and on a desktop, checked by axe-core
(the accessibility engine browsers' own audits use), run in the page as a person sees it:
no serious or critical violation of WCAG 2.x A and AA anywhere.
It runs on the production-like server and on the README's own `make run`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from .axe import AXE, assert_none, check
from .conftest import (
    DESKTOP,
    PASSWORD,
    PHONE,
    add_bots,
    create_room,
    new_match,
    orm,
    play_by_api,
    sign_up,
    table,
    token_of,
)
from .test_table_slips import idle_past_limit, pass_by_api, started_room
from .test_turns import person


def first_evening(make_page: Callable[[], Any], url: str, name: str, found: dict[str, list[dict[str, Any]]]) -> Any:
    """The pages of a person's first evening, each checked as it is shown: home signed out
    and in, a lobby, the invite, a table of each game, the settings, a player's page, the
    leaderboard and the confirmation page. The host's page, for more."""
    visitor = make_page()
    visitor.goto("/")
    expect(visitor.get_by_role("tab", name="Log in")).to_be_visible()
    check(visitor, "home, signed out", found)

    host = make_page()
    sign_up(host, name)
    check(host, "home", found)
    code = create_room(host, "kali_tidi")
    expect(host.locator(".lobby")).to_be_visible()
    check(host, "lobby", found)

    visitor.goto(f"/join/{code}")
    expect(visitor.get_by_role("heading", name="You're invited to a table")).to_be_visible()
    check(visitor, "invite", found)

    add_bots(host, 3)
    host.locator("[data-action=start]").click()
    table(host).wait_for(timeout=30_000)
    check(host, "Kali Tidi table", found)

    token = token_of(host)
    for game, options, bots in (("hearts", {"target": 30}, 3), ("moon", {}, 2)):
        played = new_match(url, token, game, options, bots=bots)
        host.goto(f"/rooms/{played}")
        table(host).wait_for(timeout=30_000)
        check(host, f"{game} table", found)

    for path, ready, where in (
        ("/notifications", ".settings", "settings"),
        (f"/players/{name}", ".match-counts", "player page"),
        ("/leaderboard?game=hearts", ".leaderboard", "leaderboard"),
        ("/confirm-email", "main h1", "confirm e-mail"),
    ):
        host.goto(path)
        host.locator(ready).first.wait_for()
        check(host, where, found)
    return host


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_no_page_has_a_serious_accessibility_violation(open_page, live_url, size):
    assert AXE.exists(), "npm ci installs axe-core (package.json)"
    found: dict[str, list[dict[str, Any]]] = {}
    host = first_evening(lambda: open_page(**size), live_url, f"ally{size['width']}", found)
    # A hand's result and a finished match's replay (the computer players move at once here).
    token = token_of(host)
    hearts = new_match(live_url, token, "hearts", {"target": 30}, bots=3)
    play_by_api(live_url, token, hearts, lambda v: v["phase"] in ("round_over", "match_over"))
    host.goto(f"/rooms/{hearts}")
    expect(host.locator(".results")).to_be_visible()
    check(host, "a hand's result", found)
    play_by_api(live_url, token, hearts, lambda v: v["status"] == "finished")
    host.goto(f"/replay/{hearts}")
    host.locator("section.replay").wait_for()
    check(host, "replay", found)
    more_pages(lambda: open_page(**size), live_url, host, f"ally{size['width']}", hearts, found)
    assert_none(found)


def more_pages(
    make_page: Callable[[], Any], url: str, host: Any, name: str, finished: str, found: dict[str, list[dict[str, Any]]]
) -> None:
    """The pages the first evening does not reach: signed out, the site's own page on fair
    deals, an app's sign-in, the sign-up and password forms, the offline page, and the
    pages for the signed in only (a player's page, the leaderboard, a finished match's
    replay, the settings), which say so; signed in, the fair deals again, the
    two-step sign-in being set up, a room closed before it began, the notices of a seat a
    computer player keeps (away) or was given (by a moderator: then the table is watched),
    and a table watched by someone without a seat. `finished` is a finished match of
    `host`'s, named `name`."""
    out = make_page()
    for path, ready, where in (
        ("/fair-deals", "main h1", "fair deals, signed out"),
        ("/offline", "h1", "offline page"),
        ("/oauth/login/", "main h1", "sign-in page of an app's authorization"),
        ("/reset-password", "main h2", "password reset without its link"),
    ):
        out.goto(path)
        out.locator(ready).first.wait_for()
        check(out, where, found)
    # The pages for the signed in only say so, with the forms to log in or sign up.
    for path, title in (
        (f"/players/{name}", "Players"),
        ("/leaderboard?game=hearts", "Leaderboard"),
        (f"/replay/{finished}", "Replay"),
        ("/notifications", "Settings"),
    ):
        out.goto(path)
        expect(out.locator(".home .intro h1")).to_have_text(title)
        check(out, f"{title.lower()}, signed out", found)
    # A link's key after '#', as the mailed link carries it: the form for the new password.
    out.goto("/")
    out.goto("/reset-password#not-a-real-key")
    expect(out.get_by_role("button", name="Save my new password")).to_be_visible()
    check(out, "password reset form", found)

    out.goto("/")
    out.get_by_role("tab", name="Sign up").click()
    expect(out.get_by_role("button", name="Sign up").last).to_be_visible()
    check(out, "sign up", found)
    out.get_by_role("tab", name="Log in").click()
    out.get_by_role("button", name="Forgot your password?").click()
    expect(out.get_by_role("heading", name="Forgot your password?")).to_be_visible()
    check(out, "forgot password", found)

    host.goto("/fair-deals")
    host.locator("main h1").wait_for()
    check(host, "fair deals", found)

    # The two-step sign-in being set up: the app's key, as a QR code and typed.
    host.goto("/notifications")
    panel = host.locator("section.two-factor")
    panel.get_by_role("button", name="Turn on").click()
    panel.get_by_label("Your password").fill(PASSWORD)
    panel.get_by_role("button", name="Continue").click()
    expect(panel.get_by_role("heading", name="Add this site to your authenticator app")).to_be_visible()
    check(host, "settings, two-step sign-in set-up", found)

    token = token_of(host)
    with person(url, token) as me:
        # A room a moderator closed in its lobby.
        closed = me.room("hearts", "Never played")
        me.bots(closed, 1)
    close_in_lobby(closed)
    host.goto(f"/join/{closed}")
    host.locator(".unstarted-room").wait_for()
    check(host, "a room closed before it began", found)

    # Away too long: a computer player keeps the seat until its person comes back (with
    # another person at the table; alone, the match would be abandoned).
    with person(url, token) as me, person(url, register=f"{name}g") as guest:
        away = started_room(me, guest, bots=2, on_abandon="bot", turn_seconds=600, abandon_seconds=600)
        host.goto(f"/join/{away}")
        expect(table(host)).to_have_attribute("data-phase", "pass")
        pass_by_api(guest, away)
        idle_past_limit(away, 0)
    expect(host.locator("p.away")).to_be_visible()
    check(host, "table, a computer keeps my seat", found)

    # A moderator gave the seat away for good: the table is watched (with another person
    # at it: a table of computer players alone plays on at once on the test server).
    with person(url, token) as me, person(url, register=f"{name}h") as guest:
        given = started_room(me, guest, bots=2, target=500)
    host.goto(f"/join/{given}")
    expect(table(host).locator(".hand button")).to_have_count(13)
    seat_to_bot(given)
    expect(host.locator("p.handed-over")).to_be_visible()
    expect(host.locator(".spectating")).to_be_visible()
    check(host, "table, seat handed over", found)

    # Someone signed in without a seat watches a table being played.
    sign_up(out, f"{name}w")
    out.goto(f"/join/{given}")
    table(out).wait_for()
    expect(out.locator(".spectating")).to_be_visible()
    check(out, "table, spectating", found)


def close_in_lobby(code: str) -> None:
    from accounts.models import User
    from games.models import Room
    from moderation import services

    def work() -> None:
        mod, _ = User.objects.get_or_create(username="moda11y", defaults={"is_staff": True})
        services.room_close(moderator=mod, room=Room.objects.get(code=code), reason="Spam in the room name")

    orm(work)


def seat_to_bot(code: str) -> None:
    from games.services import table_moderation

    orm(lambda: table_moderation.seat_give_to_bot(code=code, index=0, reason="Abuse in the table talk"))


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_no_page_has_a_serious_accessibility_violation_under_make_run(make_run_page, make_run, size):
    """The same pages on the README's own `make run` (SQLite, its own static files, the
    one-second computer players); a result and a replay are checked there after two
    people's match (test_players.py), where no computer player makes it slow."""
    assert AXE.exists(), "npm ci installs axe-core (package.json)"
    found: dict[str, list[dict[str, Any]]] = {}
    first_evening(lambda: make_run_page(size["width"], size["height"]), make_run.url, f"axel{size['width']}", found)
    assert_none(found)
