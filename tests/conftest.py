"""Shared fixtures. In CI (CI=true) a skipped test fails the run: nothing is skipped silently."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import pytest_asyncio

if TYPE_CHECKING:
    from tests.servers import MakeRun

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def pytest_configure(config: pytest.Config) -> None:
    from tests import database_emptying
    from tests.game_params import game_keys

    database_emptying.install()

    for key in game_keys():
        config.addinivalue_line("markers", f"{key}: a test of the game {key} (added from the test's id)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each game's tests carry its key as a marker, so that `pytest -m kali_tidi` (`make
    test-game GAME=kali_tidi`) runs one game's tests: those whose parameters' id starts
    with the key (`kali_tidi-teams-1deck`, the lists of tests/game_params.py) and those
    of a file named after the game (`test_kali_tidi.py`). A `-k` on the key would also
    catch any test whose name holds it (`three_of_spades` for a game `spades`)."""
    from tests.game_params import game_keys

    keys = set(game_keys())
    for item in items:
        callspec = getattr(item, "callspec", None)
        leading = callspec.id.split("-")[0] if callspec is not None else None
        module = item.path.stem.removeprefix("test_")
        for key in keys & {leading, module}:
            item.add_marker(key)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Any:
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, which is not allowed: {report.longrepr}"
    if report.failed:
        # A server the test used may have died under it: its log says why.
        from tests.servers import died_servers

        for title, tail in died_servers():
            report.sections.append((title, tail))
        if "make_run" in getattr(item, "fixturenames", ()):
            # The newcomer's server is shared by the process's tests: what it said last.
            log_path = make_run_log_path()
            if log_path.exists():
                tail = "\n".join(log_path.read_text(errors="replace").splitlines()[-100:])
                report.sections.append((f"{log_path} ends", tail))


def make_run_log_path() -> Path:
    from tests.servers import ROOT

    return ROOT / "var" / "e2e-artifacts" / f"make-run-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"


@pytest.fixture(scope="session")
def make_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MakeRun]:
    """One `make run` server per test process, shared by the browser tests of a
    newcomer's journey and the socket tests that read its closes."""
    from tests.servers import make_run_serving

    with make_run_serving(tmp_path_factory.mktemp("make-run-var"), make_run_log_path()) as server:
        yield server


@pytest.fixture(scope="session")
def documented_games(django_db_blocker: Any) -> list[str]:
    """The games of the served document, read once per process before any test registers
    a game of its own (Duel, a probe), which has no place in it."""
    from tests.strict_answers import served_document

    with django_db_blocker.unblock():
        document = served_document()
    games: list[str] = document["components"]["schemas"]["LobbyView"]["properties"]["game"]["anyOf"][0]["enum"]
    return games


@pytest.fixture(autouse=True)
def events_logged_as_documented(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every event a test logs in this process (the services' and the engines', whatever
    the test does to a room) is one the served document's `Event` allows, read strictly,
    as it is written: a service that logs a type or a field the document does not name
    fails the test that made it. Tests of the log's storage itself, which write made-up
    events, say so (`made_up_events`)."""
    if request.node.get_closest_marker("made_up_events"):
        return
    from games.store import Table
    from tests.strict_answers import EVENT_ENVELOPE, check_component

    games = request.getfixturevalue("documented_games")
    original = Table.log_events

    def log_events(self: Table, round_number: int | None, events: list[Any]) -> None:
        if self.room.game in games:
            for event in events:
                check_component("Event", {**EVENT_ENVELOPE, "round": round_number, **event.data})
        original(self, round_number, events)

    monkeypatch.setattr(Table, "log_events", log_events)


@pytest.fixture
def make_user(db: Any) -> Callable[..., Any]:
    from accounts.models import User

    counter = {"n": 0}

    def make(username: str | None = None, **extra: Any) -> Any:
        counter["n"] += 1
        name = username or f"player{counter['n']}"
        return User.objects.create_user(username=name, password="correct-horse-9", display_name=name.title(), **extra)

    return make


@pytest.fixture
def api_client() -> Callable[..., Any]:
    """A DRF test client, authenticated with the given user's token when one is given."""
    from rest_framework.test import APIClient

    from tests.tokens import account_token

    def make(user: Any = None) -> APIClient:
        client = APIClient()
        if user is not None:
            client.credentials(HTTP_AUTHORIZATION=f"Token {account_token(user)}")
        return client

    return make


@pytest.fixture
def moderators_group(db: Any) -> Any:
    """The "Moderators" group that moderation's migration makes. A transactional test
    empties every table after it, migration data included: then it is made again here,
    from the migration's own list of permissions."""
    from importlib import import_module

    from django.contrib.auth.models import Group, Permission

    migrations = [
        import_module(f"moderation.migrations.{name}")
        for name in ("0003_moderators_group", "0005_moderators_revoke_apps", "0007_moderators_work_reports")
    ]
    group, made = Group.objects.get_or_create(name=migrations[0].GROUP)
    if made:
        for migration in migrations:
            for app, codename in migration.PERMISSIONS:
                group.permissions.add(Permission.objects.get(content_type__app_label=app, codename=codename))
    return group


@pytest.fixture(autouse=True)
def fresh_channel_layer() -> Any:
    """Each test its own channel layer. channels_redis binds a layer's receive lock to the
    event loop that first receives on it and drops it when the last receiver is done; a
    consumer still waiting when its test's loop closes would leave the next test (on a new
    loop) that lock, and every socket there would fail ("bound to a different event loop")."""
    from channels.layers import channel_layers

    yield
    channel_layers.backends.clear()


@pytest_asyncio.fixture
async def close_thread_connections() -> Any:
    """For async tests: database_sync_to_async runs in a worker thread whose connection
    outlives the test, as do the threads serving moves sent on sockets; closed here, or
    the test database cannot be dropped at the end."""
    from channels.db import database_sync_to_async
    from django.db import connections

    from api import db_async, socket_moves

    yield
    await database_sync_to_async(connections.close_all)()
    await database_sync_to_async(socket_moves.close_connections)()
    await database_sync_to_async(db_async.close_connections)()
