"""Duel's profile for the conformance suite: every option set it has, what each seat may
know (its own cards and those played), and its scoring."""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.rules.base import Applied
from games.rules.conformance import Hand, Profile, Run, Tracker

from .engine import DECK


class DuelTracker(Tracker):
    pieces = frozenset(DECK)

    def __init__(self, hand: Hand) -> None:
        super().__init__(hand)
        self.known = [set(h) for h in hand.state["hands"]]

    def learn(self, before: dict[str, Any], seat: int, action: dict[str, Any], applied: Applied[Any]) -> None:
        if action["type"] == "play":
            self.public.add(action["card"])

    def check_state(self, state: dict[str, Any]) -> None:
        held = [c for h in state["hands"] for c in h] + [p["card"] for p in state["trick"]]
        held += [c for pile in state["taken"] for c in pile]
        assert sorted(held) == sorted(DECK)


class DuelProfile(Profile):
    tracker = DuelTracker
    hands_per_run = 30
    bot_share = 0.5

    def runs(self) -> list[Run]:
        return [
            Run(f"{players}-players-{hands}-hands", {"players": players, "hands": hands}, self.hands_per_run)
            for players in (2, 3)
            for hands in (1, 2)
        ]

    def check_result(self, hand: Hand, result: dict[str, Any]) -> None:
        assert sum(result["points"]) == len(DECK) // hand.players
        assert result["scores"] == [a + b for a, b in zip(hand.start_scores, result["points"], strict=True)]
        if result["match_over"]:
            assert result["winners"] == [s for s, t in enumerate(result["scores"]) if t == min(result["scores"])]

    def check_stats(self, run: Run, stats: Counter[str]) -> None:
        assert stats["matches"] >= run.hands // run.options["hands"] - 1, stats


PROFILE = DuelProfile

# The matches the registry-driven tests play with computers in the other seats: one hand
# is the shortest match; each count of players is a table a client must handle.
SHORT_MATCH = {"hands": 1}
MATCH_VARIANTS = {"two": {"players": 2}, "three": {"players": 3}}
