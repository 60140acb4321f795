"""End-to-end tests: the web client in real headless Chromium (Debian's package, driven by
Playwright) against a live server — daphne serving HTTP and the room WebSockets from the
ASGI application — on this xdist worker's PostgreSQL test database and Redis channel layer.

The server commits what the browser does, so every test is transactional (the database is
emptied after it). Playwright's sync API keeps an event loop in this thread while it is
running, which Django's ORM refuses to share; the browser is therefore started per test
and stopped before the database is flushed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.db import connections
from playwright.sync_api import sync_playwright

from tests.api.helpers import concrete
from tests.servers import database_url, free_port, server_env, serving

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
    argv = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"]
    log_path = ARTIFACTS / f"server-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    with serving("daphne", argv, port=port, env=env, log_path=log_path) as url:
        yield url


# Only what a newcomer's shell has: none of the test suite's settings (PostgreSQL, Redis,
# test settings, throttles, bot delay) may leak into the `make run` server.
NEWCOMER_ENV = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "USER", "TZ")


@dataclass(frozen=True)
class MakeRun:
    url: str
    env: dict[str, str]  # the server's environment, for manage.py on the same database

    def shell(self, code: str) -> str:
        """`manage.py shell -c code` as run.sh runs manage.py (it exports DEBUG=1), on the
        same database; what it printed."""
        done = subprocess.run(
            [sys.executable, "manage.py", "shell", "--verbosity", "0", "-c", code],
            cwd=ROOT,
            env={**self.env, "DEBUG": "1"},
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout


@pytest.fixture(scope="session")
def make_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MakeRun]:
    """The server exactly as `make run` starts it once the virtualenv exists
    (scripts/run.sh: SQLite, the filesystem broker, the in-memory channel layer, the
    default bot delay, migrations at start), on a fresh var/ folder."""
    port = free_port()
    var = tmp_path_factory.mktemp("make-run-var")
    env = {k: os.environ[k] for k in NEWCOMER_ENV if k in os.environ}
    env.update(VENV=sys.prefix, VAR_DIR=str(var), PORT=str(port))
    log_path = ARTIFACTS / f"make-run-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    argv = ["bash", str(ROOT / "scripts" / "run.sh")]
    with serving("make run", argv, port=port, env=env, log_path=log_path, start_seconds=120) as url:
        yield MakeRun(url=url, env=env)
    assert "database is locked" not in log_path.read_text(), f"SQLite refused a writer; see {log_path}"


@pytest.fixture
def make_run_page(make_run: MakeRun) -> Iterator[Callable[..., Any]]:
    """Pages of their own (own storage) at a given size, on the `make run` server unless
    `base_url` names it otherwise (passkeys need it by name: `http://localhost:<port>`);
    any script error fails the test."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium (scripts/test.sh does)")
    errors: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM)

        def make(width: int, height: int, base_url: str | None = None) -> Any:
            context = browser.new_context(
                viewport={"width": width, "height": height}, base_url=base_url or make_run.url
            )
            page = context.new_page()
            page.set_default_timeout(15_000)
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            return page

        yield make
        browser.close()
    assert not errors, f"script errors in the page: {errors}"


@pytest.fixture
def browser(transactional_db: Any, live_url: str) -> Iterator[Any]:
    # Depends on transactional_db so that it is stopped before the flush (see above).
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium (scripts/test.sh does)")
    pw = sync_playwright().start()
    try:
        browser = pw.chromium.launch(executable_path=CHROMIUM)
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

    Any script error in any page fails the test."""
    errors: list[str] = []
    contexts = []

    def make(width: int = 390, height: int = 844, base_url: str | None = None, **options: Any) -> Any:
        # `options` go to the browser context as they are (a time zone, permissions...).
        context = browser.new_context(
            viewport={"width": width, "height": height}, base_url=base_url or live_url, **options
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"script errors in the page: {errors}"


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


def wait_my_turn(page: Any, phases: tuple[str, ...] | None = None, timeout: float = 20_000) -> str:
    """Wait until the page shows that this player may act (in one of `phases`); the phase."""
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


def token_of(page: Any) -> str:
    """The signed-in person's API token, as the web client keeps it."""
    return page.evaluate("localStorage.getItem('tt.token')")


def play_by_api(live_url: str, token: str, code: str, until: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Act for a person through the public API, as any client could (their first legal
    action each time), until `until(view)` holds; returns that view. Their page follows
    over its socket like any other change."""
    headers = {"Authorization": f"Token {token}"}
    with httpx.Client(base_url=f"{live_url}/api/v1/", headers=headers, timeout=30) as client:
        for _ in range(1000):
            view = client.get(f"rooms/{code}/state").json()
            if until(view):
                return view
            legal = view["you"]["legal_actions"]
            assert legal, f"nothing to do in {view['phase']} (to act: {view['to_act']})"
            body = {"version": view["version"], "action": concrete(legal[0])}
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
