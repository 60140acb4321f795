"""Why a room socket closed, as the browser sees it, and what the page does about it.

The server accepts a socket it cannot serve and then closes it with 4401 (no valid
credentials) or 4404 (no such room), so that a browser reads the reason instead of the
1006 of a failed handshake. The client's live link stops for good on those codes (no
reconnecting, no polling); on 4401 it sends the person to sign in again."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import create_room, sign_up, token_of

# Opens a socket to the live server and answers how it ended: whether it opened, what it
# heard, and the close code and reason the page was given.
RAW_SOCKET = """
async ([path]) => new Promise((resolve) => {
    const ws = new WebSocket(`ws://${location.host}/${path}`);
    const seen = { opened: false, messages: [] };
    ws.onopen = () => { seen.opened = true; };
    ws.onmessage = (m) => {
        seen.messages.push(JSON.parse(m.data));
        ws.close(1000);
    };
    ws.onclose = (e) => resolve({ ...seen, code: e.code, reason: e.reason });
})
"""

# Starts the client's own live link (live.js) on a room, counting every WebSocket it opens.
START_LINK = """
async ([code]) => {
    const { RoomLive } = await import("/static/web/live.js");
    if (!window.__sockets) {
        window.__sockets = 0;
        const Real = window.WebSocket;
        window.WebSocket = class extends Real {
            constructor(...args) {
                super(...args);
                window.__sockets += 1;
            }
        };
    }
    window.__sockets = 0;
    window.__statuses = [];
    window.__changes = 0;
    window.__link = new RoomLive(code, () => { window.__changes += 1; }, (s) => window.__statuses.push(s)).start();
}
"""

LINK_STATE = """() => ({
    statuses: window.__statuses,
    sockets: window.__sockets,
    changes: window.__changes,
    stopped: window.__link.stopped,
    retrying: window.__link.socket.retrying,
    polling: window.__link.pollTimer !== null && window.__link.pollTimer !== undefined,
    closeCode: window.__link.closeCode,
})"""


def test_the_browser_reads_why_a_room_socket_was_closed(open_page):
    page = open_page(width=1280, height=900)
    sign_up(page, "sasha")
    code = create_room(page, "hearts")
    token = token_of(page)

    no_token = page.evaluate(RAW_SOCKET, [f"ws/rooms/{code}/"])
    bad_token = page.evaluate(RAW_SOCKET, [f"ws/rooms/{code}/?token=not-a-token"])
    no_room = page.evaluate(RAW_SOCKET, [f"ws/rooms/NOPE99/?token={token}"])
    for seen in (no_token, bad_token):
        assert seen["opened"] and seen["code"] == 4401, seen  # a handshake, then the reason
        assert seen["messages"] == [], seen
    assert no_room["opened"] and no_room["code"] == 4404, no_room
    assert no_room["messages"] == [], no_room

    # A good socket opens with the room's version and is closed by the page itself.
    fine = page.evaluate(RAW_SOCKET, [f"ws/rooms/{code}/?token={token}"])
    assert fine["opened"] and fine["code"] == 1000, fine
    assert fine["messages"][0]["type"] == "changed"


def test_the_live_link_stops_for_good_on_4404_and_4401(open_page):
    page = open_page(width=1280, height=900)
    sign_up(page, "soren")
    code = create_room(page, "hearts")

    # No such room: one socket, closed with 4404; no retry and no polling after it.
    page.evaluate(START_LINK, ["NOPE99"])
    page.wait_for_function("() => window.__statuses.includes('gone')")
    state = page.evaluate(LINK_STATE)
    assert state["statuses"] == ["connecting", "gone"], state
    assert state["closeCode"] == 4404
    assert state["sockets"] == 1 and state["stopped"], state
    assert not state["retrying"] and not state["polling"] and state["changes"] == 0, state

    # Signed out (the token no longer works): the same, with 4401.
    page.evaluate("localStorage.setItem('tt.token', 'revoked-token')")
    page.evaluate(START_LINK, [code])
    page.wait_for_function("() => window.__statuses.includes('unauthorized')")
    state = page.evaluate(LINK_STATE)
    assert state["statuses"] == ["connecting", "unauthorized"], state
    assert state["closeCode"] == 4401
    assert state["sockets"] == 1 and state["stopped"], state
    assert not state["retrying"] and not state["polling"] and state["changes"] == 0, state


def _live_room(open_page, name: str):
    """A person in a new Hearts room whose room socket the test holds (to close it at will)."""
    page = open_page(width=1280, height=900)
    sockets = []

    def keep(ws):
        sockets.append(ws)
        ws.connect_to_server()

    page.route_web_socket(re.compile(r"/ws/rooms/"), keep)
    sign_up(page, name)
    code = create_room(page, "hearts")
    expect(page.locator("[data-live]")).to_have_text("live")
    return page, sockets, code


def test_a_socket_closed_with_4401_sends_the_person_to_sign_in(open_page, shots):
    page, sockets, _ = _live_room(open_page, "selma")
    # The sign-in ends on the server (logged out elsewhere); the socket then says 4401.
    status = page.evaluate(
        """async () => (await fetch('/api/v1/auth/logout', {
            method: 'POST', headers: { Authorization: `Token ${localStorage.getItem('tt.token')}` },
        })).status"""
    )
    assert status == 204
    sockets[-1].close(code=4401, reason="unauthenticated")
    # The page asks the API, which no longer knows the token: back to signing in, for this room.
    expect(page.get_by_role("heading", name="You're invited to a table")).to_be_visible()
    expect(page.get_by_role("tab", name="Log in")).to_be_visible()
    expect(page.locator(".toast")).to_contain_text("signed out")
    assert page.evaluate("localStorage.getItem('tt.token')") is None
    shots(page, "signed-out")
    assert len(sockets) == 1, "the page must not reconnect after 4401"


def test_a_socket_closed_with_4401_while_the_api_still_answers_keeps_polling(open_page):
    page, sockets, _ = _live_room(open_page, "sven")
    sockets[-1].close(code=4401, reason="unauthenticated")
    # The token still works over HTTP: the page stays, polling, and never reconnects.
    expect(page.locator("[data-live]")).to_have_text("reconnecting (polling)")
    expect(page.locator(".lobby")).to_be_visible()
    page.locator("[data-action=add-bot]").click()
    # The move's answer, or the next poll, shows it: on a loaded machine either may take
    # longer than the default wait, and neither depends on the closed socket.
    expect(page.locator(".lobby-seat .badge", has_text="computer")).to_have_count(1, timeout=20_000)
    assert len(sockets) == 1


def test_a_socket_closed_with_4404_says_the_room_is_gone(open_page, shots):
    page, sockets, code = _live_room(open_page, "sofia")
    sockets[-1].close(code=4404, reason="no such room")
    expect(page.get_by_role("heading", name="No such room")).to_be_visible()
    expect(page.locator(".missing-room")).to_contain_text(f"There is no room {code}.")
    shots(page, "room-gone")
    assert len(sockets) == 1
