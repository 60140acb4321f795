"""Clients the site did not write, against a real daphne: a native client (no `Origin`
header at all) follows a room and its player's own socket, and a frontend served from
another origin — a page on a second port, in Chromium — signs in with a token, reads
the API across origins (CORS) and follows a move live over the room socket.

The server is daphne started with `CORS_ALLOWED_ORIGINS` naming the second port's
origin, as a deployment that allows one frontend would be."""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import aiohttp
import httpx
import pytest
from playwright.sync_api import sync_playwright

from tests.api.helpers import concrete
from tests.servers import daphne_argv, database_url, free_port, server_env, serving

from .conftest import ARTIFACTS, CHROMIUM, PASSWORD

pytestmark = pytest.mark.usefixtures("transactional_db")

# The third-party frontend: one page, no build step. Where the API is, the player's token
# and the room come in the fragment. It reads the room's view, opens the room socket (no
# trailing slash), shows each view it pushes (and reads the view again on a notice alone),
# and can post an action with an
# Idempotency-Key — each request across origins, with a preflight for its headers.
FRONTEND_PAGE = """<!doctype html>
<meta charset="utf-8">
<title>A frontend elsewhere</title>
<p>Version <output id="version">?</output></p>
<script type="module">
const params = new URLSearchParams(location.hash.slice(1));
const api = params.get("api"), token = params.get("token"), code = params.get("code");
const headers = { Authorization: `Token ${token}` };
const seen = (window.seen = { notices: [], views: [], closed: null, opened: false });

function show(view, how) {
  seen.views.push({ version: view.version, phase: view.phase, how });
  document.getElementById("version").textContent = String(view.version);
}

async function readView() {
  const answer = await fetch(`${api}/api/v1/rooms/${code}/state`, { headers });
  show(await answer.json(), "fetched");
}

let keys = 0;
window.act = async (version, action) => {
  keys += 1;
  const answer = await fetch(`${api}/api/v1/rooms/${code}/actions`, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json", "Idempotency-Key": `frontend-${keys}` },
    body: JSON.stringify({ version, action }),
  });
  return { status: answer.status, body: await answer.json() };
};

await readView();
const socket = new WebSocket(`${api.replace(/^http/, "ws")}/ws/rooms/${code}?token=${token}`);
socket.onopen = () => { seen.opened = true; };
socket.onmessage = async (message) => {
  const data = JSON.parse(message.data);
  seen.notices.push(data);
  // A change pushed with this reader's view needs no fetch; a notice alone does.
  if (data.type === "view") show(data.view, "pushed");
  else await readView();
};
socket.onclose = (event) => { seen.closed = event.code; };
</script>
"""


@dataclass(frozen=True)
class Deployment:
    api: str  # daphne, serving the API and the sockets
    frontend: str  # the page's origin, which the API allows
    log: Path


class _FrontendHandler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = FRONTEND_PAGE.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the test's output is the server's log."""


@pytest.fixture(scope="module")
def deployment(django_db_setup: Any, django_db_blocker: Any) -> Iterator[Deployment]:
    page_port = free_port()
    # Another address and port than the API's, and not among its ALLOWED_HOSTS: a site of
    # its own, which only CORS_ALLOWED_ORIGINS lets in.
    frontend = f"http://127.0.0.2:{page_port}"
    page_server = ThreadingHTTPServer(("127.0.0.2", page_port), _FrontendHandler)
    threading.Thread(target=page_server.serve_forever, daemon=True).start()
    port = free_port()
    with django_db_blocker.unblock():
        env = server_env(database_url(), CORS_ALLOWED_ORIGINS=frontend)
    argv = daphne_argv(port)
    log = ARTIFACTS / f"other-origin-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    try:
        with serving("daphne", argv, port=port, env=env, log_path=log) as url:
            yield Deployment(api=url, frontend=frontend, log=log)
    finally:
        page_server.shutdown()
        page_server.server_close()


def room_of_new_player(api: str, username: str, bots: int) -> tuple[str, str]:
    """A new player's token and a Hearts room of theirs with `bots` computer players."""
    with httpx.Client(base_url=f"{api}/api/v1/", timeout=30) as client:
        answer = client.post("auth/register", json={"username": username, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        token = answer.json()["token"]
        client.headers["Authorization"] = f"Token {token}"
        answer = client.post("rooms/", json={"game": "hearts"})
        assert answer.status_code == 201, answer.text
        code = answer.json()["code"]
        for _ in range(bots):
            assert client.post(f"rooms/{code}/bots").status_code == 201
    return token, code


def call(api: str, token: str, method: str, path: str) -> dict[str, Any]:
    answer = httpx.request(method, f"{api}/api/v1/{path}", headers={"Authorization": f"Token {token}"}, timeout=30)
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


async def _next_json(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    message = await asyncio.wait_for(ws.receive(), timeout=10)
    assert message.type == aiohttp.WSMsgType.TEXT, message
    return json.loads(message.data)


async def _close_code(http: aiohttp.ClientSession, url: str) -> int | None:
    """The code a socket to `url` is closed with (daphne sends no reason with it)."""
    async with http.ws_connect(url) as ws:
        message = await asyncio.wait_for(ws.receive(), timeout=10)
        assert message.type == aiohttp.WSMsgType.CLOSE, message
        return ws.close_code


def test_a_native_client_without_origin_follows_a_room_and_its_turns(deployment):
    token, code = room_of_new_player(deployment.api, "native", bots=2)
    ws_base = deployment.api.replace("http", "ws", 1)

    async def scenario() -> None:
        # aiohttp sends an Origin header only when asked to, as native clients do not.
        async with aiohttp.ClientSession() as http:
            async with (
                http.ws_connect(f"{ws_base}/ws/rooms/{code}/?token={token}") as room,
                http.ws_connect(f"{ws_base}/ws/me?token={token}") as me,
            ):
                assert await _next_json(room) == {"type": "changed", "version": 2, "seq": 3}
                await asyncio.to_thread(call, deployment.api, token, "POST", f"rooms/{code}/bots")
                # Each change with the player's own view, which is what GET state answers.
                added = await _next_json(room)
                assert (added["type"], added["version"], added["seq"]) == ("view", 3, 4)
                state = await asyncio.to_thread(call, deployment.api, token, "GET", f"rooms/{code}/state")
                assert added["view"] == state
                await asyncio.to_thread(call, deployment.api, token, "POST", f"rooms/{code}/start")
                assert (await _next_json(room))["type"] == "view"
                turn = await _next_json(me)
                assert (turn["type"], turn["room"]) == ("your_turn", code)
                await room.send_json({"type": "ping"})
                pong = await _next_json(room)
                while pong["type"] == "view":  # the computer players' passes, if they came apart
                    pong = await _next_json(room)
                assert pong["type"] == "pong" and pong["version"] > 3
            assert await _close_code(http, f"{ws_base}/ws/rooms/{code}/?token=not-a-token") == 4401
            assert await _close_code(http, f"{ws_base}/ws/rooms/NOPE99?token={token}") == 4404
            assert await _close_code(http, f"{ws_base}/ws/nothing/here?token={token}") == 4404

    asyncio.run(scenario())
    log = deployment.log.read_text(errors="replace")
    assert "Traceback" not in log and "No route found" not in log, f"see {deployment.log}"


def test_a_frontend_on_another_origin_follows_a_move_live(deployment):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium (scripts/test.sh does)")
    token, code = room_of_new_player(deployment.api, "elsewhere", bots=3)
    errors: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM)
        try:
            page = browser.new_page()
            page.set_default_timeout(10_000)
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"{deployment.frontend}/#api={deployment.api}&token={token}&code={code}")
            assert page.evaluate("location.origin") == deployment.frontend
            page.wait_for_function("() => window.seen && window.seen.opened && window.seen.notices.length >= 1")
            assert page.evaluate("window.seen.notices[0]") == {"type": "changed", "version": 3, "seq": 4}

            # Someone else's change (the host starting from another client) reaches the page.
            started = call(deployment.api, token, "POST", f"rooms/{code}/start")
            page.locator("#version", has_text=str(started["version"])).wait_for()

            # The page acts across origins (a preflight for Authorization, Content-Type and
            # Idempotency-Key), and hears its own move over the socket like any other.
            view = call(deployment.api, token, "GET", f"rooms/{code}/state")
            answer = page.evaluate(
                "([version, action]) => window.act(version, action)",
                [view["version"], concrete(view["you"]["legal_actions"][0])],
            )
            assert answer["status"] == 200, answer
            moved = answer["body"]["version"]
            assert moved > view["version"]
            page.locator("#version", has_text=str(moved)).wait_for()
            seen = page.evaluate("window.seen")
            assert seen["closed"] is None, seen
            # Every change after the first notice came with the page's own view, across origins.
            assert [n["type"] for n in seen["notices"]] == ["changed"] + ["view"] * (len(seen["notices"]) - 1)
            assert seen["notices"][-1]["version"] == moved
            assert seen["views"][-1] == {"version": moved, "phase": answer["body"]["phase"], "how": "pushed"}
        finally:
            browser.close()
    assert not errors, f"script errors in the page: {errors}"
