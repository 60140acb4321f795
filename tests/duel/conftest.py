from __future__ import annotations

from collections.abc import Iterator

import pytest

from games import rules

from .engine import Duel
from .schema import SCHEMA


@pytest.fixture(autouse=True)
def duel() -> Iterator[rules.Game]:
    """Duel on the catalogue for one test of this folder, and off it afterwards, so that
    nothing else (the checked-in API document above all) ever sees it."""
    game = rules.register(Duel(), SCHEMA)
    yield game
    rules.unregister(game.key)
