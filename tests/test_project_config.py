"""A game added as a folder of games/rules is checked like the others without an edit of
the project's configuration (pyproject.toml), and its profile names the matches the
registry-driven tests play (tests/game_params.py). Each failure names what is missing."""

from __future__ import annotations

import pkgutil
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from games import rules
from tests.game_params import GAMES_PACKAGE, folder_of, game_keys, profile_module, registered_games

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
GAME_FOLDERS = sorted(folder_of(game) for game in registered_games())


def _mypy_matches(pattern: str, module: str) -> bool:
    """mypy's per-module pattern: `*` stands for one name or more, dotted (`a.*` is `a.b`
    and `a.b.c`; `a.*.c` is `a.b.c`); anything else is the module's exact name."""
    regex = re.escape(pattern).replace(r"\*", r"[^.]+(\.[^.]+)*")
    return re.fullmatch(regex, module) is not None


def _mypy_setting(module: str, setting: str) -> Any:
    """The setting's value for `module`: an exact name outranks a pattern, as in mypy; of
    two patterns, the one listed last (pyproject.toml sets nothing two ways by pattern)."""
    exact, pattern = None, None
    for override in CONFIG["tool"]["mypy"].get("overrides", []):
        if setting not in override:
            continue
        names = override["module"] if isinstance(override["module"], list) else [override["module"]]
        for name in names:
            if name == module:
                exact = override[setting]
            elif "*" in name and _mypy_matches(name, module):
                pattern = override[setting]
    return exact if exact is not None else pattern


def test_every_folder_of_games_rules_registers_a_game() -> None:
    folders = sorted(f"{GAMES_PACKAGE}.{m.name}" for m in pkgutil.iter_modules(rules.__path__) if m.ispkg)
    assert folders == GAME_FOLDERS, "each folder of games/rules registers its game in its __init__"
    assert len(GAME_FOLDERS) >= 3


def test_the_games_independence_contract_reads_the_folders_from_the_graph() -> None:
    """Every game folder, a new one too, is kept apart from the others by the contract of
    tools/import_contracts.py, which finds the folders in the import graph (nothing lists
    them); an import from one game's folder into another's breaks it."""
    importlinter = CONFIG["tool"]["importlinter"]
    assert "game_folders: tools.import_contracts.GameFoldersIndependence" in importlinter["contract_types"]
    (config,) = [c for c in importlinter["contracts"] if c["type"] == "game_folders"]
    assert config["container"] == GAMES_PACKAGE and "modules" not in config
    # In a process of its own: import-linter reads its contracts' fields with dir(), which
    # trips over what the test process has loaded (zope.interface's class descriptors).
    found = subprocess.run(
        [sys.executable, "-c", CHECK_GAME_FOLDERS, config["name"], config["container"], *GAME_FOLDERS[:2]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert found.returncode == 0, found.stderr
    assert found.stdout.split() == [*GAME_FOLDERS, "kept", "broken"]


# The contract on the project's graph, then with one game's engine importing another's.
CHECK_GAME_FOLDERS = """
import sys
import grimp
from tools.import_contracts import GameFoldersIndependence
name, container, first, second = sys.argv[1:]
graph = grimp.build_graph("games", cache_dir=None)
contract = GameFoldersIndependence(name=name, session_options={}, contract_options={"container": container})
kept = contract.check(graph, verbose=False).kept
print(*sorted(str(m) for m in contract.modules))
graph.add_import(importer=first + ".engine", imported=second + ".engine", line_number=1, line_contents="")
print("kept" if kept else "broken", "kept" if contract.check(graph, verbose=False).kept else "broken")
"""


@pytest.mark.parametrize("game", game_keys())
def test_mypy_holds_every_game_to_the_engines_strict_settings(game: str) -> None:
    folder = folder_of(rules.get(game))
    for module in (folder, f"{folder}.engine", f"{folder}.profile"):
        for setting in ("disallow_untyped_defs", "disallow_any_generics", "warn_return_any", "warn_unreachable"):
            assert _mypy_setting(module, setting) is True, f"mypy's {setting} does not cover {module}"
    # The state types hold no Any; nor does a computer player unless named as an exception.
    assert _mypy_setting(f"{folder}.state", "disallow_any_explicit") is True, f"{folder}.state"
    bot = f"{folder}.bot"
    exempt = {"games.rules.hearts.bot"}
    assert _mypy_setting(bot, "disallow_any_explicit") is (bot not in exempt), bot


def test_the_mypy_pattern_reading_is_mypys() -> None:
    assert _mypy_matches("games.rules.*", "games.rules.moon")
    assert _mypy_matches("games.rules.*", "games.rules.moon.bot")
    assert _mypy_matches("games.rules.*.bot", "games.rules.moon.bot")
    assert not _mypy_matches("games.rules.*.bot", "games.rules.moon.engine")
    assert not _mypy_matches("games.rules.*", "games.rules")
    assert _mypy_setting("games.rules.moon.engine", "disallow_any_explicit") is None


@pytest.mark.parametrize("game", game_keys())
def test_every_game_profile_names_its_whole_matches(game: str) -> None:
    """`SHORT_MATCH` and `MATCH_VARIANTS` in the game's profile.py: options its engine
    accepts, for a table the computers fill."""
    rules_game = rules.get(game)
    profile = profile_module(rules_game)
    assert profile is not None, f"{folder_of(rules_game)}.profile is missing"
    for name in ("SHORT_MATCH", "MATCH_VARIANTS"):
        assert hasattr(profile, name), f"{folder_of(rules_game)}.profile names no {name}"
    variants: dict[str, dict[str, Any]] = profile.MATCH_VARIANTS
    assert variants, "at least one variant"
    for options in (profile.SHORT_MATCH, *variants.values()):
        validated = rules_game.validate_options(options)
        assert rules_game.seat_count(validated) >= 2, options
    assert all(re.fullmatch(r"[a-z0-9_-]+", name) for name in variants), "names are test ids"
