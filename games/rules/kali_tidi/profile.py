"""Kali Tidi's profile for the conformance suite (games.rules.conformance): every
combination of its options, what each seat may know (hidden partners included), and the
facts no generic check can state (every card conserved, the sides' points)."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from typing import Any

from ..base import AnyGame, Applied
from ..cards import deck
from ..conformance import Hand, Profile, Run, Tracker
from .engine import callable_cards

# Whole matches the tests play over the API with computers in the other seats (the
# registry-driven lists of tests/game_params.py). The short match is one hand (target 5)
# with partners called by cards, so both action templates come up: cards removed and
# called. The variants, by name, are every team mode with one deck and two.
SHORT_MATCH: dict[str, Any] = {"players": 5, "team_mode": "cards", "target": 5}
MATCH_VARIANTS: dict[str, dict[str, Any]] = {
    "teams-1deck": {"players": 4, "team_mode": "teams"},
    "teams-2decks": {"players": 6, "team_mode": "teams", "decks": 2},
    "random-1deck": {"players": 3, "team_mode": "random"},
    "random-2decks": {"players": 5, "team_mode": "random", "decks": 2},
    "cards-1deck": {"players": 4, "team_mode": "cards"},
    "cards-2decks": {"players": 7, "team_mode": "cards", "decks": 2},
}


def kali_tidi_combos() -> list[dict[str, Any]]:
    """Every players x decks x team mode x trump card, and both partner rules where they apply."""
    out = []
    for players, decks, mode, trump_card in itertools.product(
        range(2, 8), (1, 2), ("teams", "random", "cards"), ("none", "three_of_spades")
    ):
        if players == 2 and mode != "teams":
            continue
        rules = ("first", "last") if mode == "cards" and decks == 2 else ("first",)
        for rule in rules:
            out.append(
                {"players": players, "decks": decks, "team_mode": mode, "trump_card": trump_card, "partner_rule": rule}
            )
    return out


KALI_TIDI_COMBOS = kali_tidi_combos()


class KaliTidiTracker(Tracker):
    """Before the deal nothing is hidden. Then a seat may see named its own hand, what was
    played, removed and called, 3♠ when the trump card option names it, and (the bidder,
    calling) the codes it may call: its list is worked out from its own hand and says
    nothing of who holds them. Every card is somewhere once (hands, the trick, tricks
    taken, removed)."""

    pieces = frozenset(deck())

    def __init__(self, hand: Hand) -> None:
        super().__init__(hand)
        self.taken: Counter[str] = Counter()
        self.rule = {"3S"} if hand.state["options"]["trump_card"] == "three_of_spades" else set()

    def leaked(self, viewer: int | None, seen: set[str]) -> set[str]:
        state = self.hand.state
        unknown = seen - self.public
        if not unknown or state["phase"] == "remove":
            # Before the deal (the remover choosing from the whole deck) no card is anybody's.
            return set()
        unknown -= set(state["removed"]) | set(state["called"]) | self.rule
        if unknown and viewer is not None:
            unknown -= set(state["hands"][viewer])
            if state["phase"] == "call" and viewer == state["bidder"]:
                unknown -= set(callable_cards(state, viewer))
        return unknown

    def learn(self, before: dict[str, Any], seat: int, action: dict[str, Any], applied: Applied[Any]) -> None:
        if action["type"] == "play":
            self.public.add(action["card"])
            if not applied.state["trick"]:
                self.taken.update([*(p["card"] for p in before["trick"]), action["card"]])

    def check_state(self, state: dict[str, Any]) -> None:
        if state["phase"] == "remove":
            # The deck is not dealt until the cards that do not deal evenly are out.
            assert not any(state["hands"]) and not state["removed"]
            return
        here = Counter(c for h in state["hands"] for c in h)
        here += Counter(p["card"] for p in state["trick"])
        here += self.taken + Counter(state["removed"])
        assert here == Counter(deck(state["options"]["decks"]))


def check_partners_hidden(game: AnyGame, state: dict[str, Any]) -> None:
    """An unrevealed partner's hand swapped with another non-bidder's (same size) changes
    nothing any third viewer sees, and the legal actions of the seat to act do not depend
    on the called cards."""
    if state["options"]["team_mode"] != "cards" or not state["called"]:
        return
    players, bidder = state["players"], state["bidder"]
    holders = [
        s
        for s in range(players)
        if s != bidder and s not in state["partners"] and any(c in state["called"] for c in state["hands"][s])
    ]
    for holder in holders:
        for other in range(players):
            if other in (holder, bidder) or len(state["hands"][other]) != len(state["hands"][holder]):
                continue
            swapped = json.loads(json.dumps(state))
            swapped["hands"][holder], swapped["hands"][other] = state["hands"][other], state["hands"][holder]
            for viewer in [*range(players), None]:
                if viewer in (holder, other):
                    continue
                same = game.view(state, viewer) == game.view(swapped, viewer)
                assert same, "a view depends on who holds a called card"
    to_act = game.to_act(state)
    if to_act and state["phase"] == "play":
        seat = to_act[0]
        blind = {**state, "called": [], "partners": list(state["partners"])}
        assert game.legal_actions(state, seat) == game.legal_actions(blind, seat)


class KaliTidiProfile(Profile):
    """74 option sets (players x decks x team mode x trump card x partner rule) x 20 hands.
    Half the moves are the computer player's, and so is every ready between hands. Every
    viewer's view at every step; in one hand in 4 the hidden-partner check at every step."""

    tracker = KaliTidiTracker
    hands_per_run = 20
    bot_share = 0.5
    deep_every = 8
    deep_offset = 1
    partners_every = 4
    replay_every = 4
    all_views_each_step = True

    def runs(self) -> list[Run]:
        return [
            Run("-".join(str(v) for v in options.values()), options, self.hands_per_run) for options in KALI_TIDI_COMBOS
        ]

    def bot_moves(self, state: dict[str, Any], rng: random.Random) -> bool:
        return state["phase"] == "round_over" or rng.random() < self.bot_share

    def after_step(self, hand: Hand, applied: Applied[Any]) -> None:
        if hand.number % self.partners_every == 0:
            check_partners_hidden(hand.game, hand.state)

    def check_result(self, hand: Hand, result: dict[str, Any]) -> None:
        decks = hand.state["options"]["decks"]
        assert sum(result["points"]) == 250 * decks
        assert result["bidding_points"] + result["other_points"] == 250 * decks
        assert result["made"] == (result["bidding_points"] >= result["bid"])
        for s in range(hand.players):
            won = result["bid"] if s in result["hand_winners"] else 0
            assert result["scores"][s] == hand.start_scores[s] + won
        if hand.state["options"]["team_mode"] == "cards":
            assert set(result["partners"]) <= set(result["bidding_side"])

    def tally(self, stats: Counter[str], hand: Hand) -> None:
        result = hand.state["result"]
        stats["made" if result["made"] else "set"] += 1
        stats["partners"] += len(result["partners"]) if hand.state["options"]["team_mode"] == "cards" else 0
        stats["removals"] += sum(action["type"] == "remove_cards" for _, action in hand.actions)

    def check_stats(self, run: Run, stats: Counter[str]) -> None:
        options = run.options
        assert stats["made"] + stats["set"] == run.hands
        if options["team_mode"] == "cards":
            assert stats["partners"] >= run.hands // 2, stats
        if (52 * options["decks"]) % options["players"]:
            assert stats["removals"] >= 1


PROFILE = KaliTidiProfile
