"""Moon's profile for the conformance suite (games.rules.conformance): the option sets it
plays, what each seat may know, and the facts no generic check can state (every tile
conserved, the bid's points, moon deals)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

from .. import dominoes
from ..base import MATCH_OVER, Applied
from ..conformance import Hand, Plan, Profile, Run, Tracker, pieces_in
from .engine import deck_for, first_dealer

ALL_TILES = frozenset(dominoes.full_set())

# Whole matches the tests play over the API with computers in the other seats (the
# registry-driven lists of tests/game_params.py): three players is the shortest match;
# the variants, by name, are the ones a client must be able to play to the end.
SHORT_MATCH: dict[str, Any] = {"players": 3}
MATCH_VARIANTS: dict[str, dict[str, Any]] = {
    "3": {"players": 3},
    "4": {"players": 4},
}
MOON_HAND = ["6-6", "6-5", "6-4", "6-3", "5-5", "4-4", "3-3"]
MOON_COMBOS: list[dict[str, Any]] = [
    {"players": p, "moon_any_time": m, "widow": w, "trump_instead_of_follow": t}
    for p, m, w, t in itertools.product((3, 4), (False, True), ("optional", "compulsory"), (False, True))
]


def moon_deal(rng: random.Random, players: int, seat: int) -> list[list[str]]:
    """`seat` holds the top four trumps of 6 and the doubles 5, 4, 3: a moon with 6 as trumps."""
    rest = [t for t in deck_for(players) if t not in MOON_HAND]
    rng.shuffle(rest)
    hands = []
    for s in range(players):
        if s == seat:
            hands.append(list(MOON_HAND))
        else:
            hands.append(rest[:7])
            rest = rest[7:]
    return hands


def moon_expected_points(result: dict[str, Any], players: int) -> list[int]:
    """RULES §2.2 / §2.3, written out again from the result's own facts."""

    def side(seat: int) -> int:
        return seat % 2 if players == 4 else seat

    tricks = result["tricks"]
    bidder = result["bidder"]
    moon = result["bid"] == 21
    need = 7 if moon else result["bid"]
    side_tricks = {side(s): sum(tricks[o] for o in range(players) if side(o) == side(s)) for s in range(players)}
    made = side_tricks[side(bidder)] >= need
    assert made == result["made"]
    points = []
    for seat in range(players):
        own = side_tricks[side(seat)]
        if side(seat) == side(bidder):
            points.append((21 if moon else own) if made else (-21 if moon else 0))
        else:
            points.append(own if made else own + need)
    return points


def moon_expected_winners(result: dict[str, Any], players: int) -> list[int]:
    scores = result["scores"]
    bidder = result["bidder"]
    team = [bidder] if players == 3 else [s for s in range(players) if s % 2 == bidder % 2]
    if result["bid"] == 21 and result["made"]:
        return team
    reached = [s for s in range(players) if scores[s] >= 21]
    if not reached:
        return []
    if bidder in reached:
        return team
    top = max(scores[s] for s in reached)
    best = [s for s in reached if scores[s] == top]
    if players == 4 or len(best) == 1:
        return [s for s in range(players) if scores[s] == top]
    return []


class MoonTracker(Tracker):
    """A seat knows its tiles from the latest deal, the bidder the widow once it decides on
    it; everyone the tiles played. Every tile is somewhere once (hands, trick, tricks taken,
    the widow or the discard)."""

    pieces = ALL_TILES

    def __init__(self, hand: Hand) -> None:
        super().__init__(hand)
        self.deck = sorted(deck_for(hand.players))
        self.dealt(hand.state)

    def dealt(self, state: dict[str, Any]) -> None:
        self.known = [set(h) for h in state["hands"]]
        self.public = set()

    def learn(self, before: dict[str, Any], seat: int, action: dict[str, Any], applied: Applied[Any]) -> None:
        state = applied.state
        if action["type"] == "play":
            self.public.add(action["tile"])
        elif state["redeals"] != before["redeals"]:
            self.dealt(state)
        elif action["type"] == "trump" and state["phase"] == "widow":
            # The bidder now decides on the widow, and sees it.
            self.known[state["bidder"]].add(state["widow"])

    def check_state(self, state: dict[str, Any]) -> None:
        held = [t for h in state["hands"] for t in h]
        held += [p["tile"] for p in state["trick"]]
        held += [t for pile in state["taken"] for t in pile]
        if state["players"] == 3:
            held.append(state["discard"] if state["widow_taken"] else state["widow"])
        else:
            assert state["widow"] is None and state["discard"] is None
        assert sorted(held) == self.deck


class MoonProfile(Profile):
    """16 option sets (both table sizes, every option) x 400 hands. About a third of the
    moves are the computer player's; one hand in 9 deals a seat a moon hand that the
    auction and the computer player take to a made moon; one in 7 opens with a lap of
    passes (a redeal)."""

    tracker = MoonTracker
    hands_per_run = 400
    bot_share = 0.35
    moon_deal_every = 9
    pass_out_every = 7
    deep_every = 10
    replay_every = 2

    def runs(self) -> list[Run]:
        return [
            Run("-".join(f"{k}={v}" for k, v in options.items()), options, self.hands_per_run)
            for options in MOON_COMBOS
        ]

    def plan(self, hand_number: int, rng: random.Random, options: dict[str, Any], seed: int, carry: Any) -> Plan:
        players = options["players"]
        if hand_number % self.moon_deal_every == self.moon_deal_every - 1:
            dealer = carry["dealer"] if carry else first_dealer(seed, players)
            seat = (dealer + 2) % players
            return Plan(moon_deal(rng, players, seat), {"moon_seat": seat})
        return Plan(None, {"pass_out": hand_number % self.pass_out_every == 3})

    def play(self, hand: Hand, rng: random.Random) -> None:
        moon_seat = hand.plan.notes.get("moon_seat")
        if hand.plan.notes.get("pass_out"):
            # A lap of passes: the next dealer redeals, and the hand goes on from there.
            for _ in range(hand.players):
                hand.step(rng, {"type": "pass"})
            assert hand.state["redeals"] == 1 and hand.state["phase"] == "bid"
        if moon_seat is not None:
            # The first bidder opens 7 so that moon may be bid; the moon hand shoots it.
            if hand.game.to_act(hand.state)[0] != moon_seat:
                hand.step(rng, {"type": "bid", "value": 7})
            hand.step(rng, {"type": "bid", "value": 21})
        hand.play_out(rng, bot=moon_seat is not None)

    def check_result(self, hand: Hand, result: dict[str, Any]) -> None:
        state, players = hand.state, hand.players
        assert not pieces_in(result, ALL_TILES)
        assert sum(result["tricks"]) == 7 and result["tricks"] == state["tricks_taken"]
        assert result["points"] == moon_expected_points(result, players)
        assert result["scores"] == [a + b for a, b in zip(hand.start_scores, result["points"], strict=True)]
        assert result["winners"] == moon_expected_winners(result, players)
        if players == 4:
            s = result["scores"]
            assert s[0] == s[2] and s[1] == s[3]

    def check_carry(self, hand: Hand, carry: dict[str, Any]) -> None:
        state = hand.state
        assert carry["dealer"] == (state["dealer"] + 1) % hand.players and set(carry) == {"round", "scores", "dealer"}

    def tally(self, stats: Counter[str], hand: Hand) -> None:
        state = hand.state
        result = state["result"]
        stats["redeals"] += state["redeals"]
        stats["pass_outs"] += bool(hand.plan.notes.get("pass_out"))
        stats["takes"] += bool(result["widow_taken"])
        if result["bid"] == 21:
            stats["moons_made" if result["made"] else "moons_failed"] += 1
        elif not result["made"]:
            stats["sets"] += 1
        moon_seat = hand.plan.notes.get("moon_seat")
        if moon_seat is not None:
            assert result["made"] and result["bidder"] == moon_seat and state["phase"] == MATCH_OVER

    def check_stats(self, run: Run, stats: Counter[str]) -> None:
        assert stats["matches"] >= 40, stats
        assert stats["pass_outs"] >= 50 and stats["redeals"] >= stats["pass_outs"], stats
        assert stats["moons_made"] >= self.hands_per_run // self.moon_deal_every, stats
        assert stats["moons_failed"] >= 5 and stats["sets"] >= 20, stats
        if run.options["players"] == 3:
            assert stats["takes"] >= 20, stats


PROFILE = MoonProfile
