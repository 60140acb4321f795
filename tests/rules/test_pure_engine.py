"""The engines are plain Python: games.rules and every module under it import, and every
registered game plays a hand, in a fresh interpreter where Django cannot be imported."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent(
    """
    import importlib.abc
    import pkgutil
    import random
    import sys


    class NoDjango(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "django" or name.startswith("django."):
                raise ImportError(f"games.rules imported {name}")
            return None


    sys.meta_path.insert(0, NoDjango())
    assert not any(m == "django" or m.startswith("django.") for m in sys.modules)

    import games.rules

    modules = [m.name for m in pkgutil.walk_packages(games.rules.__path__, "games.rules.")]
    for name in modules:
        importlib.import_module(name)

    rng = random.Random(7)
    played = []
    for game in games.rules.all_games():
        options = game.validate_options({})
        players = game.seat_count(options)
        state = game.new_round(options=options, players=players, seed=1, carry=None)
        for _ in range(5000):
            to_act = game.to_act(state)
            if not to_act or state["phase"] == "round_over":
                break
            seat = rng.choice(to_act)
            state = game.apply(state, seat, game.bot_action(state, seat)).state
        assert game.result(state) is not None, game.key
        played.append(game.key)

    assert not any(m == "django" or m.startswith("django.") for m in sys.modules)
    print(" ".join(modules))
    print(" ".join(played))
    """
)


def test_games_rules_import_and_play_without_django() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    modules, played = done.stdout.splitlines()
    # The walk found the engines' modules, and every game in the registry played a hand.
    assert {"games.rules.base", "games.rules.hearts", "games.rules.moon", "games.rules.kali_tidi"} <= set(
        modules.split()
    )
    assert set(played.split()) >= {"hearts", "moon", "kali_tidi"}
