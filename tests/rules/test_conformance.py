"""The conformance suite: every registered game, through the same random play-outs.

Each game's option sets are played as whole matches of random legal moves (some the
computer player's); the checks are listed in games/rules/conformance.py, and what is a
game's own (option sets, what each seat may know, scoring, special deals) is its profile,
in its folder (`profile.py`). A game added to the registry is played here at once; this
file fails until it has a profile that says what its seats may know.

Every view walked (as the server serves it), legal action, action applied and scored
hand is held to the API's document, read strictly (tests/strict_answers.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from games import rules
from games.rules.conformance import Profile, Run, play_run, profile_for
from tests.strict_answers import engine_checker

CASES = [(profile, run) for game in rules.all_games() for profile in [profile_for(game)] for run in profile.runs()]


@pytest.mark.slow
@pytest.mark.parametrize(("profile", "run"), CASES, ids=[f"{p.game.key}-{r.id}" for p, r in CASES])
def test_random_playout(profile: Profile, run: Run) -> None:
    stats = play_run(profile, run, check=engine_checker(profile.game.key))
    assert stats["hands"] == run.hands
    profile.check_stats(run, stats)


@pytest.mark.parametrize("game", rules.all_games(), ids=lambda g: g.key)
def test_every_game_has_a_profile(game: Any) -> None:
    """Without one the play-outs still run, but cannot tell what a seat may know."""
    profile = profile_for(game)
    assert type(profile) is not Profile, f"write {game.key}'s profile in its folder's profile.py"
    assert profile.tracker.pieces, "the profile's tracker names every card or tile of the game"


def test_every_game_plays_every_choice_of_its_options() -> None:
    """Each game's runs use every choice of every option with choices, and both values of
    every yes/no option."""
    for game in rules.all_games():
        played = [game.validate_options(run.options) for run in profile_for(game).runs()]
        for option in game.option_set.options:
            choices = option.choices or ((False, True) if option.kind == "boolean" else ())
            if not choices:
                continue
            used = {options[option.name] for options in played}
            for choice in choices:
                assert choice in used, (game.key, option.name, choice)
