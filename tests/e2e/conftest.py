"""End-to-end tests: the web client in real headless Chromium (Debian's package, driven by
Playwright) against a live server — daphne serving HTTP and the room WebSockets from the
ASGI application — on this xdist worker's PostgreSQL test database and Redis channel layer.

The server commits what the browser does, so every test is transactional (the database is
emptied after it). Playwright's sync API keeps an event loop in this thread while it is
running, which Django's ORM refuses to share: Playwright is therefore started per test and
stopped before the database is emptied. Chromium itself is started once per process, by
Playwright's own browser server (`playwright launch-server`, with the options `launch`
would take), and each test connects to it: its contexts are its own, closed with it.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.db import connections
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import sync_playwright

from tests.api.helpers import concrete
from tests.servers import MakeRun, daphne_argv, database_url, free_port, server_env, serving

from . import csp

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = ROOT / "var" / "e2e-artifacts"
PASSWORD = "a-long-secret-9"


@pytest.fixture(scope="session")
def live_url(django_db_setup: Any, django_db_blocker: Any) -> Iterator[str]:
    """A daphne process on the test database; torn down before the database is dropped."""
    port = free_port()
    with django_db_blocker.unblock():
        env = server_env(database_url())
    # Its own address, for the links mails carry (without it the server mails nobody).
    env["PUBLIC_BASE_URL"] = f"http://127.0.0.1:{port}"
    argv = daphne_argv(port)
    log_path = ARTIFACTS / f"server-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    with serving("daphne", argv, port=port, env=env, log_path=log_path) as url:
        yield url


@pytest.fixture
def make_run_page(make_run: MakeRun, browser_server: str) -> Iterator[Callable[..., Any]]:
    """Pages of their own (own storage) at a given size, on the `make run` server unless
    `base_url` names it otherwise (passkeys need it by name: `http://localhost:<port>`);
    `options` go to the browser context as they are (a locale...). Any script error or
    Content-Security-Policy violation fails the test."""
    errors: list[str] = []
    violations: list[Any] = []
    with sync_playwright() as pw:
        browser = connected_browser(pw, browser_server)

        def make(width: int, height: int, base_url: str | None = None, **options: Any) -> Any:
            context = browser.new_context(
                viewport={"width": width, "height": height}, base_url=base_url or make_run.url, **options
            )
            violations.append(csp.watch(context))
            page = context.new_page()
            page.set_default_timeout(15_000)
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            return page

        yield make
        browser.close()
    assert not errors, f"script errors in the page: {errors}"
    csp.assert_none([v for each in violations for v in each])


# The plays' second suite (scripts/test.sh runs it after the whole one): the same browser
# tests on a machine kept busy, where a redraw lands between a finger's press and its
# release and every answer is late. E2E_LOAD busy processes per xdist worker, each at
# the tests' own priority, for the whole session.
LOAD = int(os.environ.get("E2E_LOAD") or 0)


@pytest.fixture(scope="session", autouse=True)
def machine_load() -> Iterator[int]:
    burners = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"], stdin=subprocess.DEVNULL) for _ in range(LOAD)
    ]
    try:
        yield LOAD
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


@pytest.fixture(scope="session")
def browser_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Chromium for the process's browser tests, behind Playwright's browser server; its
    WebSocket endpoint."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium (scripts/test.sh does)")
    config = tmp_path_factory.mktemp("browser-server") / "launch.json"
    config.write_text(json.dumps({"executablePath": CHROMIUM, "headless": True}))
    argv = [sys.executable, "-m", "playwright", "launch-server", "--browser", "chromium", "--config", str(config)]
    # A session of its own: the server is Playwright's node driver under this Python, with
    # Chromium under it, and all of them go together.
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        assert proc.stdout is not None
        said = []
        for line in proc.stdout:
            said.append(line)
            found = re.search(r"ws://\S+", line)
            if found:
                break
        else:
            raise RuntimeError(f"Playwright's browser server did not start: {''.join(said)}")
        # Its later words are read, so that a full pipe never stops it.
        threading.Thread(target=proc.stdout.read, daemon=True).start()
        yield found.group(0)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(30)


def connected_browser(pw: Any, endpoint: str) -> Any:
    """The process's Chromium (browser_server), for one test."""
    return pw.chromium.connect(endpoint)


@pytest.fixture
def browser(transactional_db: Any, live_url: str, browser_server: str) -> Iterator[Any]:
    # Depends on transactional_db so that it is stopped before the database is emptied (see above).
    pw = sync_playwright().start()
    try:
        browser = connected_browser(pw, browser_server)
        try:
            yield browser
        finally:
            browser.close()
    finally:
        pw.stop()


class Shots:
    """Screenshots of each phase, kept as artifacts: var/e2e-artifacts/<test>/NN-<what>.png."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.n = 0
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.png"):
            old.unlink()

    def __call__(self, page: Any, what: str) -> None:
        self.n += 1
        # From the top: a whole-page shot of a scrolled page draws the sticky turn line
        # where the scroll left it, over whatever is there.
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(self.folder / f"{self.n:02d}-{what}.png"), full_page=True)


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Shots:
    return Shots(ARTIFACTS / re.sub(r"[^\w.-]+", "_", request.node.name))


@pytest.fixture
def open_page(browser: Any, live_url: str, shots: Shots) -> Iterator[Callable[..., Any]]:
    """A new browser context (its own storage: its own signed-in user) with one page, on
    the live server unless `base_url` names another.

    Any script error or Content-Security-Policy violation in any page fails the test."""
    errors: list[str] = []
    contexts = []
    violations: list[Any] = []

    def make(width: int = 390, height: int = 844, base_url: str | None = None, **options: Any) -> Any:
        # `options` go to the browser context as they are (a time zone, permissions...).
        context = browser.new_context(
            viewport={"width": width, "height": height}, base_url=base_url or live_url, **options
        )
        contexts.append(context)
        violations.append(csp.watch(context))
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"script errors in the page: {errors}"
    csp.assert_none([v for each in violations for v in each])


def sign_up(page: Any, username: str) -> None:
    page.goto("/")
    page.get_by_role("tab", name="Sign up").click()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").last.click()
    page.get_by_role("button", name="Create the room").wait_for()


def create_room(page: Any, game: str, options: Callable[[Any], None] | None = None) -> str:
    """Create a room from the home page's form; returns its code (the page is in the lobby)."""
    page.get_by_label("Game", exact=True).select_option(game)
    if options is not None:
        options(page)
    page.get_by_role("button", name="Create the room").click()
    page.locator(".lobby").wait_for()
    return page.url.rstrip("/").rsplit("/", 1)[1]


def add_bots(page: Any, count: int) -> None:
    for i in range(count):
        button = page.locator("[data-action=add-bot]:not([disabled])").first
        button.click()
        page.locator(".lobby-seat .badge", has_text="computer").nth(i).wait_for()


def table(page: Any) -> Any:
    return page.locator("section.table")


def wait_my_turn(page: Any, phases: tuple[str, ...] | None = None, timeout: float = 30_000) -> str:
    """Wait until the page shows that this player may act (in one of `phases`); the phase
    (30 s at most: the others' moves take their time on a loaded machine)."""
    selector = "section.table[data-my-turn=true]"
    if phases:
        selector = ", ".join(f"{selector}[data-phase={p}]" for p in phases)
    page.locator(selector).wait_for(timeout=timeout)
    return table(page).get_attribute("data-phase")


def click_and_wait(page: Any, target: Any) -> None:
    """Click something that acts, then wait until the table shows a newer version (30 s
    at most: on a loaded machine the move, its notice and the page's fetch take a while)."""
    version = table(page).get_attribute("data-version")
    target.click()
    page.wait_for_function(
        "v => document.querySelector('section.table')?.dataset.version !== v", arg=version, timeout=30_000
    )


def hand_codes(page: Any) -> list[str]:
    """The codes of the pieces in the player's hand, as shown."""
    return page.locator(".hand button").evaluate_all("els => els.map(e => e.dataset.code)")


# Waits for the player's hand to differ from `want` (its codes, sorted), or, if `raised`,
# for the piece `code` to be raised with the move's button under the hand (a tap that only
# asked first); returns what the page shows then.
HAND_MOVED = """([code, want, raised]) => {
    const hand = [...document.querySelectorAll('.hand .piece')].map(e => e.dataset.code);
    const up = Boolean(document.querySelector(`.hand .piece[data-code="${code}"][aria-pressed=true]`)
        && document.querySelector('.hand-area [data-action=confirm-move]'));
    const moved = JSON.stringify([...hand].sort()) !== JSON.stringify(want);
    return moved || (raised && up) ? { hand, moved } : null;
}"""


def play_piece(page: Any, code: str, tap: Callable[[Any], None] | None = None, timeout: float = 30_000) -> None:
    """Play the hand's piece `code` by tapping it (`tap(piece)` taps it otherwise: a key),
    confirming with the move's button where the tap only raised it ("Confirm each move",
    Moon's widow), then wait until that piece has left the hand: exactly one of `code`
    fewer and nothing else changed (30 s at most; a new hand dealt at once after the last
    piece stands for an empty one). Fails if the tap was lost, or if a second piece left
    the hand by the time the page has no move on its way (a doubled tap).

    Unlike `click_and_wait`, another player's move cannot pass for this one."""
    before = hand_codes(page)
    assert code in before, f"{code} is not in the hand {before}"
    piece = page.locator(f".hand button[data-code='{code}']:not([disabled])").first
    (tap or (lambda p: p.click()))(piece)
    want = sorted(before)
    try:
        now = page.wait_for_function(HAND_MOVED, arg=[code, want, True], timeout=timeout).json_value()
        if not now["moved"]:
            # Asked first: the piece is raised and nothing was sent; its button sends it.
            page.locator(".hand-area [data-action=confirm-move]").click()
            now = page.wait_for_function(HAND_MOVED, arg=[code, want, False], timeout=timeout).json_value()
    except PlaywrightTimeoutError:
        raise AssertionError(
            f"the tap on {code} was lost: after {timeout / 1000:.0f} s the hand still holds {hand_codes(page)}"
            f" (phase {table(page).get_attribute('data-phase')}, version {table(page).get_attribute('data-version')})"
        ) from None
    left = _taken(before, now["hand"])
    if len(before) == 1 and now["hand"] != before:
        return  # the hand's last piece: the hand is empty, or the next one was dealt
    assert left == [code] and len(now["hand"]) == len(before) - 1, (
        f"playing {code} took {left} from the hand: {before} -> {now['hand']}"
    )
    # No second move may follow this one: once nothing is on its way, the hand is as it was.
    page.wait_for_function("() => !document.querySelector('main.busy')", timeout=timeout)
    settled = hand_codes(page)
    assert settled == now["hand"], (
        f"after {code}, {_taken(now['hand'], settled)} left the hand as well: {before} -> {settled}"
    )


def _taken(before: list[str], after: list[str]) -> list[str]:
    """The codes in `before` that `after` no longer holds (as many times as they left)."""
    rest = list(after)
    taken = []
    for code in before:
        if code in rest:
            rest.remove(code)
        else:
            taken.append(code)
    return taken


def token_of(page: Any) -> str:
    """The signed-in person's API token, as the web client keeps it."""
    return page.evaluate("localStorage.getItem('tt.token')")


def play_by_api(
    live_url: str,
    token: str,
    code: str,
    until: Callable[[dict[str, Any]], bool],
    choose: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Act for a person through the public API, as any client could (`choose(view)`, else
    their first legal action each time), until `until(view)` holds; returns that view.
    Their page follows over its socket like any other change."""
    headers = {"Authorization": f"Token {token}"}
    with httpx.Client(base_url=f"{live_url}/api/v1/", headers=headers, timeout=30) as client:
        for _ in range(1000):
            view = client.get(f"rooms/{code}/state").json()
            if until(view):
                return view
            legal = view["you"]["legal_actions"]
            assert legal, f"nothing to do in {view['phase']} (to act: {view['to_act']})"
            action = choose(view) if choose is not None else concrete(legal[0])
            body = {"version": view["version"], "action": action}
            res = client.post(f"rooms/{code}/actions", json=body)
            assert res.status_code == 200 or res.json()["errors"][0]["code"] == "stale_version", res.text
    raise AssertionError("play_by_api did not get there in 1000 moves")


def deal_hand(code: str, deal: list[list[str]], dealer: int | None = None) -> None:
    """Replace the hand being played in room `code` by a fresh one dealt as `deal` (the
    engine's own fixed-deal support; the public API has no way to ask for one), and tell
    the room's listeners. Moves already made in that hand are dropped with it. `dealer`
    chooses who deals (and so who acts first), where the game carries one.

    Runs in a thread of its own: Django's ORM refuses the thread in which Playwright's
    event loop runs."""
    from games import rules, store
    from games.models import Action

    def work() -> None:
        # Through the table's store, as any change: its sockets are pushed the new views.
        with store.locked(code) as table:
            round_ = table.round
            game = rules.get(table.room.game)
            carry = dict(round_.carry or {})
            if dealer is not None:
                carry["dealer"] = dealer
            round_.state = game.new_round(
                options=table.room.options, players=len(deal), seed=round_.seed, carry=carry, deal=deal
            )
            table.mark(round_, ["state"])
            Action.objects.filter(round=round_).delete()
            table.touch()

    orm(work)


def orm(work: Callable[[], Any]) -> Any:
    """Run ORM work in a thread of its own (Playwright's event loop holds this one, and
    Django's ORM refuses to share it), closing that thread's connection after."""

    def run() -> Any:
        try:
            return work()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def new_match(live_url: str, token: str, game: str, options: dict[str, Any], bots: int) -> str:
    """A started room of `game` for the token's player and `bots` computer players."""
    headers = {"Authorization": f"Token {token}"}
    with httpx.Client(base_url=f"{live_url}/api/v1/", headers=headers, timeout=30) as client:
        code = client.post("rooms/", json={"game": game, "options": options}).json()["code"]
        for _ in range(bots):
            assert client.post(f"rooms/{code}/bots", json={}).status_code == 201
        assert client.post(f"rooms/{code}/start").status_code == 200
    return code
