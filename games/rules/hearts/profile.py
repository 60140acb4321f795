"""Hearts' profile for the conformance suite (games.rules.conformance): the option sets
it plays, what each seat may know, and the facts no generic check can state (every card
conserved, the hand's points, moon deals)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ..base import Applied
from ..cards import SUITS, deck
from ..conformance import Hand, Plan, Profile, Run, Tracker

HEARTS_DECK = frozenset(deck())

# Whole matches the tests play over the API with computers in the other seats (the
# registry-driven lists of tests/game_params.py). The short match ends in a few hands;
# the variants, by name, are the ones a client must be able to play to the end.
SHORT_MATCH: dict[str, Any] = {"target": 20}
MATCH_VARIANTS: dict[str, dict[str, Any]] = {
    "standard": {},
    "sweedo": {"preset": "sweedo", "fourth_hand": "funky"},
}
PASS_OFFSET = {"left": 1, "right": 3, "across": 2}

HEARTS_COMBOS: dict[str, dict[str, Any]] = {
    "standard": {},
    "short": {"preset": "short"},
    "sweedo": {"preset": "sweedo"},
    "sweedo_funky": {"preset": "sweedo", "fourth_hand": "funky", "target": 70},
    "funky": {"fourth_hand": "funky", "end_when": "exceeded"},
    "shooter_choice": {"moon": "shooter_choice", "target": 60},
    "lead_any_club": {"lead_any_club": True, "target": 40},
    "queen_breaks_hearts": {"queen_breaks_hearts": True, "target": 20, "end_when": "exceeded"},
    "everything": {
        "lead_any_club": True,
        "queen_breaks_hearts": True,
        "moon": "shooter_choice",
        "jack_of_diamonds": -7,
        "no_trick_bonus": -3,
        "fourth_hand": "funky",
        "target": 30,
    },
}


def hearts_moon_deal(rng: random.Random) -> list[list[str]]:
    """Each seat one whole suit: on a hold hand the club holder takes every trick (a moon in
    every mode); after a pass it is a lopsided deal that often ends near one."""
    suits = list(SUITS)
    rng.shuffle(suits)
    return [[r + s for r in "23456789TJQKA"] for s in suits]


def hearts_expected_sum(result: dict[str, Any], options: dict[str, Any]) -> int:
    """The hand's points: 26, adjusted for the jack, the no-trick bonus and the moon."""
    jack: int = options["jack_of_diamonds"]
    bonus: int = options["no_trick_bonus"]
    moon = result["moon"]
    if moon is None:
        return 26 + jack + bonus * len(result["no_trick"])
    return jack + (-26 if moon["choice"] == "minus_self" else 78)


class HeartsTracker(Tracker):
    """A seat knows the cards it was dealt and those passed to it; everyone knows the
    cards played. The 52 cards are all there, once each (hands, trick, taken piles)."""

    pieces = HEARTS_DECK

    def __init__(self, hand: Hand) -> None:
        super().__init__(hand)
        self.known = [set(h) for h in hand.state["hands"]]
        self.passes: dict[int, dict[str, Any]] = {}

    def learn(self, before: dict[str, Any], seat: int, action: dict[str, Any], applied: Applied[Any]) -> None:
        if action["type"] == "play":
            self.public.add(action["card"])
        elif action["type"] == "pass_cards":
            self.passes[seat] = action
            if applied.state["phase"] != "pass":
                self.deliver(before["pass_direction"])

    def deliver(self, direction: str) -> None:
        for giver, action in self.passes.items():
            if direction == "funky":
                to = action["to"]
                # cards[i] to seat to[i]; or, as v1 clients send it, a map of seat to card.
                pairs = to.items() if isinstance(to, dict) else zip(to, action["cards"], strict=True)
                for receiver, card in pairs:
                    self.known[int(receiver)].add(card)
            else:
                self.known[(giver + PASS_OFFSET[direction]) % 4] |= set(action["cards"])

    def check_state(self, state: dict[str, Any]) -> None:
        held = [c for h in state["hands"] for c in h]
        held += [p["card"] for p in state["trick"]]
        held += [c for pile in state["taken"] for c in pile]
        assert len(held) == 52 and set(held) == HEARTS_DECK


class HeartsProfile(Profile):
    """Over ten thousand hands: 9 option sets x 2 runs x 556 hands; one hand in 6 is dealt
    each seat a whole suit (moons). Checking everything at every step of all of them would
    take minutes: deep hands are one in 25, one view in turn every other step elsewhere."""

    tracker = HeartsTracker
    runs_per_combo = 2
    hands_per_run = 556
    moon_deal_every = 6
    deep_every = 25
    replay_every = 4
    view_stride = 2

    def runs(self) -> list[Run]:
        return [
            Run(f"{name}-{chunk}", options, self.hands_per_run)
            for name, options in HEARTS_COMBOS.items()
            for chunk in range(self.runs_per_combo)
        ]

    def plan(self, hand_number: int, rng: random.Random, options: dict[str, Any], seed: int, carry: Any) -> Plan:
        moon = hand_number % self.moon_deal_every == 0
        return Plan(hearts_moon_deal(rng) if moon else None)

    def check_result(self, hand: Hand, result: dict[str, Any]) -> None:
        state = hand.state
        assert sum(result["points"]) == hearts_expected_sum(result, state["options"])
        assert result["scores"] == [a + b for a, b in zip(hand.start_scores, result["points"], strict=True)]
        assert sum(state["tricks_taken"]) == 13 and result["tricks"] == state["tricks_taken"]
        if result["match_over"]:
            low = min(result["scores"])
            assert result["winners"] == [s for s, t in enumerate(result["scores"]) if t == low]

    def check_carry(self, hand: Hand, carry: dict[str, Any]) -> None:
        assert carry["dealer"] == (hand.state["dealer"] + 1) % 4 and set(carry) == {"round", "scores", "dealer"}

    def tally(self, stats: Counter[str], hand: Hand) -> None:
        result = hand.state["result"]
        stats["moons"] += result["moon"] is not None
        stats["co_winners"] += len(result["winners"]) > 1

    def check_stats(self, run: Run, stats: Counter[str]) -> None:
        assert stats["matches"] >= 3, stats
        assert stats["moons"] >= 5, stats
        if run.options.get("target", 100) <= 40:
            # Short matches end often enough that equal lowest totals come up with these seeds.
            assert stats["co_winners"] >= 1, stats


PROFILE = HeartsProfile
