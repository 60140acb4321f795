"""Two people at one table, live: each sees the other's moves pushed over the room's
socket, without reloading (the page never fell back to polling, which is the only other
way a change reaches it); and a guest sits down from the invite link with nothing but a
name. How fast a move reaches the others is measured by `make bench`, not here: a test
must not depend on the machine's speed."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import add_bots, create_room, sign_up, table

SUIT = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def card_text(code: str) -> str:
    return ("10" if code[0] == "T" else code[0]) + SUIT[code[1]]


def seat_of(page) -> int:
    return int(page.locator(".seat.me").get_attribute("data-seat"))


def mark_no_reload(*pages):
    """Mark each page's document, and record every status its live link shows from now
    on: a page that never polled heard every change on its socket."""
    for page in pages:
        page.evaluate(
            """() => {
              window.__sameDocument = true;
              window.__liveSeen = [];
              const watch = () => {
                const el = document.querySelector("[data-live]");
                if (el) window.__liveSeen.push(el.textContent);
              };
              const all = { subtree: true, childList: true, characterData: true };
              new MutationObserver(watch).observe(document.body, all);
              watch();
            }"""
        )


def assert_not_reloaded(*pages):
    for page in pages:
        assert page.evaluate("window.__sameDocument === true"), "the page was reloaded"


def assert_live_throughout(*pages):
    """The page never polled: it heard every change on its socket (a socket opening, as
    when the lobby becomes the table, says where the room is, and is not polling)."""
    for page in pages:
        seen = set(page.evaluate("window.__liveSeen"))
        assert not {s for s in seen if "polling" in s}, f"the page polled for a while: {seen}"


def test_two_players_see_each_others_plays_pushed_live(open_page, shots):
    alice = open_page(width=1280, height=900)
    bob = open_page()
    sign_up(alice, "alice")
    create_room(alice, "hearts")
    invite = alice.get_by_label("Invite link").input_value()
    sign_up(bob, "bob")
    bob.goto(invite)
    mark_no_reload(alice, bob)
    bob.locator("[data-action=join]").click()
    # Bob's arrival reaches Alice's lobby over the socket.
    expect(alice.locator(".lobby-seat", has_text="bob")).to_be_visible()
    add_bots(alice, 2)
    expect(alice.locator("[data-action=start]")).to_be_enabled()
    alice.locator("[data-action=start]").click()
    expect(table(bob)).to_have_attribute("data-phase", "pass")

    for page in (alice, bob):
        hand = page.locator(".hand button")
        for i in range(3):
            hand.nth(i).click()
        page.locator("[data-action=pass_cards]").click()
    # Both chose at about the same time: a stale version is retried while the pass is still legal.
    for page in (alice, bob):
        expect(table(page)).to_have_attribute("data-phase", "play")
    shots(alice, "alice-play")
    shots(bob, "bob-play")

    names = {id(alice): "alice", id(bob): "bob"}
    seen = 0
    played = {id(alice): 0, id(bob): 0}
    for _ in range(60):
        mover = next((p for p in (alice, bob) if table(p).get_attribute("data-my-turn") == "true"), None)
        if mover is None:
            alice.wait_for_timeout(50)
            continue
        other = bob if mover is alice else alice
        if table(mover).get_attribute("data-phase") != "play":
            break
        card = mover.locator(".hand button:not([disabled])").first
        code = card.get_attribute("data-code")
        card.click()
        expect(mover.locator(f".hand button[data-code='{code}']")).to_have_count(0)
        line = f"{names[id(mover)]} played {card_text(code)}."
        # Without a reload, over the socket: the other player's log and table have it.
        expect(other.locator(".log-lines li", has_text=line)).to_have_count(1)
        played[id(mover)] += 1
        left = 13 - played[id(mover)]
        expect(other.locator(f".seat[data-seat='{seat_of(mover)}'] .facts")).to_contain_text(
            re.compile(rf"(^|\D){left} cards")
        )
        seen += 1
        if seen == 8:
            break
    assert seen == 8
    shots(alice, "alice-after")
    shots(bob, "bob-after")
    assert_not_reloaded(alice, bob)
    assert_live_throughout(alice, bob)


def test_a_guest_joins_from_the_invite_link(open_page, shots):
    host = open_page(width=1280, height=900)
    sign_up(host, "hazel")
    code = create_room(host, "hearts")
    invite = host.get_by_label("Invite link").input_value()
    assert invite.endswith(f"/join/{code}")

    guest = open_page()
    guest.goto(invite)
    expect(guest.get_by_role("heading", name="You're invited to a table")).to_be_visible()
    # It says who invites to what before anyone signs in.
    expect(guest.locator(".invite-what")).to_have_text(f"hazel invites you to play Hearts (room {code}).")
    shots(guest, "invite")
    guest.get_by_label("Your name at the table").fill("Gina")
    guest.get_by_role("button", name="Play as guest").last.click()
    # The guest is seated at once, and the host sees it live.
    expect(guest.locator(".lobby-seat.me")).to_contain_text("Gina")
    expect(guest.locator("#account")).to_contain_text("Gina (guest)")
    expect(host.locator(".lobby-seat", has_text="Gina")).to_be_visible()
    shots(guest, "guest-seated")
    shots(host, "host-sees-guest")


def test_without_its_socket_the_page_polls_then_reconnects_and_catches_up(open_page, shots):
    host = open_page(width=1280, height=900)
    sign_up(host, "hana")
    create_room(host, "moon")
    invite = host.get_by_label("Invite link").input_value()

    player = open_page()
    socket_down = {"now": True}

    def drop_or_pass(ws):
        # While "down", every connection is closed at once, as a dying proxy would.
        if socket_down["now"]:
            ws.close(code=1011, reason="down")
        else:
            ws.connect_to_server()

    player.route_web_socket(re.compile(r"/ws/rooms/"), drop_or_pass)
    sign_up(player, "pia")
    player.goto(invite)
    player.locator("[data-action=join]").click()
    mark_no_reload(player)
    expect(player.locator("[data-live]")).to_have_text("reconnecting (polling)")

    # Polling (every 3 s) still brings the host's change. The host clicks once their page
    # shows the newcomer (its redraw would otherwise fall between press and release).
    expect(host.locator(".lobby-seat", has_text="pia")).to_be_visible()
    host.locator("[data-action=add-bot]").click()
    expect(host.locator(".lobby-seat", has_text="Computer")).to_be_visible()
    expect(player.locator(".lobby-seat", has_text="Computer")).to_be_visible(timeout=15_000)
    shots(player, "polling")

    # The socket comes back with the growing delay; its first notice is the current version.
    socket_down["now"] = False
    expect(player.locator("[data-live]")).to_have_text("live", timeout=30_000)
    host.locator("[data-action=start]").click()
    expect(player.locator("section.table")).to_be_visible()
    shots(player, "live-again")
    assert_not_reloaded(player)
