"""A game is one folder: Duel's files (tests/duel), dropped into games/rules of a copy of
this checkout and nothing else edited, make a fourth game that the linters, the type
checks and the import contracts hold like the others, whose API types `make schema`
adds to the document, and that every registry-driven test plays (`pytest -m duel`, the
per-game marker) beside the project's own checks of the game list.

The copy runs its checks in processes of its own, on a database of its own; this
checkout is never touched. The browser and SDK tests are left to the games of the
repository: they need a browser and an SDK build, minutes each, and read the same
registry as the tests run here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.servers import ROOT

DUEL = ROOT / "tests" / "duel"
# The files of a game's folder, as docs/adding-a-game.md lists them; its tests stay behind.
GAME_FILES = ("engine.py", "state.py", "schema.py", "profile.py", "bot.py", "web.js")
# What a game's folder's __init__ does (as games/rules/hearts/__init__.py): register it.
INIT = '''"""Duel: a game of one folder."""

from __future__ import annotations

from ..registry import register
from .engine import Duel
from .schema import SCHEMA

GAME = register(Duel(), SCHEMA)
'''
# Besides every test marked `duel`: the tests that read the whole game list at once.
WHOLE_FILES = (
    "tests/test_project_config.py",
    "tests/web/test_pages.py",
    "tests/web/test_renderer_contract.py",
    "tests/api/test_schema.py",
    "tests/api/test_openapi_file.py",
    "tests/api/test_component_names.py",
)
# Every registry-driven test but the browser's (tests/e2e) and the SDKs'.
REGISTRY_DRIVEN = ("tests", "--ignore=tests/e2e", "--ignore=tests/sdk")
# A child process of this one must not pass for an xdist worker (its database's name) nor
# take this run's options (a junit file, durations).
PARENT_ONLY = ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID", "PYTEST_ADDOPTS")


def _copy_of_checkout(to: Path) -> None:
    """The checkout's files as git sees them (tracked, and new ones it does not ignore),
    with this checkout's virtualenv and Node modules linked in."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            target = to / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    for linked in (".venv", "node_modules"):
        (to / linked).symlink_to(ROOT / linked)


def _drop_in_duel(checkout: Path) -> Path:
    folder = checkout / "games" / "rules" / "duel"
    folder.mkdir()
    for name in GAME_FILES:
        shutil.copy2(DUEL / name, folder / name)
    (folder / "__init__.py").write_text(INIT, encoding="utf-8")
    shutil.rmtree(checkout / "tests" / "duel")
    return folder


def _env(database: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in PARENT_ONLY}
    base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/gameserver").rsplit("/", 1)[0]
    return {**env, "DATABASE_URL": f"{base}/{database}", "DEBUG": "1"}


def _run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float = 600) -> str:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{' '.join(argv)} failed:\n{output[-6000:]}"
    return output


@pytest.mark.slow
def test_a_game_folder_dropped_into_games_rules_is_checked_and_played_everywhere(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    _copy_of_checkout(checkout)
    folder = _drop_in_duel(checkout)
    env = _env(f"gameserver_dropin_{os.getpid()}")
    python = sys.executable
    tool = Path(python).parent

    _run([str(tool / "ruff"), "check", str(folder)], checkout, env)
    _run([str(tool / "ruff"), "format", "--check", str(folder)], checkout, env)
    # The engines' strict settings reach the new folder by their pattern (games.rules.*).
    _run([python, "-m", "mypy", "--no-incremental", "games/rules/duel"], checkout, env)
    contracts = _run([str(tool / "lint-imports"), "--no-cache"], checkout, env)
    assert "broken" not in contracts.lower().replace("0 broken", ""), contracts
    _run([str(ROOT / "node_modules" / ".bin" / "tsc"), "--project", "jsconfig.json"], checkout, env)

    # `make schema`: the document gains Duel's types, and the list of component names grows.
    for step in (
        ["manage.py", "spectacular", "--skip-checks", "--validate", "--file", "api/openapi.yaml"],
        ["-m", "tests.api.test_component_names"],
        ["manage.py", "asyncapi", "--skip-checks", "--file", "api/asyncapi.yaml"],
    ):
        _run([python, *step], checkout, env)
    document = (checkout / "api" / "openapi.yaml").read_text(encoding="utf-8")
    assert "DuelView" in document and "DuelView" not in (ROOT / "api" / "openapi.yaml").read_text(encoding="utf-8")

    collected = _run(
        [python, "-m", "pytest", "-p", "no:xdist", "--collect-only", "-q", "-m", "duel", *REGISTRY_DRIVEN],
        checkout,
        env,
    )
    duel_tests = [line for line in collected.splitlines() if "::" in line]
    # Each kind of registry-driven test took the new game in (a whole match over HTTP, its
    # schema, strict answers, replay, conformance, ratings, notices, the generated client).
    for kind in (
        "test_strict_answers.py",
        "test_game_schemas.py",
        "test_replay_all_games.py",
        "test_conformance.py",
        "test_standings.py",
        "test_turn_notices.py",
        "test_generated_client.py",
        "test_game_contracts.py",
    ):
        assert any(kind in line for line in duel_tests), f"no test of {kind} runs for the new game"
    _run(
        [python, "-m", "pytest", "-p", "no:xdist", "-q", "-m", "duel", *REGISTRY_DRIVEN],
        checkout,
        env,
        timeout=1500,
    )
    _run([python, "-m", "pytest", "-p", "no:xdist", "-q", *WHOLE_FILES], checkout, env, timeout=900)
