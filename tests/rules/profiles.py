"""Each game's profile for the conformance suite (tests/rules/conformance.py): the option
sets it plays, what each seat may know, and the facts of the game's own that no generic
check can state (cards or tiles conserved, scoring, moon deals, hidden partners)."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from typing import Any

from games.rules import Applied, Game, dominoes, get
from games.rules.base import MATCH_OVER
from games.rules.cards import SUITS, deck
from games.rules.kali_tidi import callable_cards
from games.rules.moon import deck_for, first_dealer
from tests.rules.conformance import Hand, Plan, Profile, Run, Tracker
from tests.rules.support import pieces_in

# -- Hearts -------------------------------------------------------------------------------------

HEARTS_DECK = frozenset(deck())
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
    jack = options["jack_of_diamonds"]
    moon = result["moon"]
    if moon is None:
        return 26 + jack + options["no_trick_bonus"] * len(result["no_trick"])
    return jack + (-26 if moon["choice"] == "minus_self" else 78)


class HeartsTracker(Tracker):
    """A seat knows the cards it was dealt and those passed to it; everyone knows the
    cards played. The 52 cards are all there, once each (hands, trick, taken piles)."""

    pieces = HEARTS_DECK

    def __init__(self, hand: Hand) -> None:
        super().__init__(hand)
        self.known = [set(h) for h in hand.state["hands"]]
        self.passes: dict[int, dict[str, Any]] = {}

    def learn(self, before: dict[str, Any], seat: int, action: dict[str, Any], applied: Applied) -> None:
        if action["type"] == "play":
            self.public.add(action["card"])
        elif action["type"] == "pass_cards":
            self.passes[seat] = action
            if applied.state["phase"] != "pass":
                self.deliver(before["pass_direction"])

    def deliver(self, direction: str) -> None:
        for giver, action in self.passes.items():
            if direction == "funky":
                for receiver, card in action["to"].items():
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


# -- Moon ---------------------------------------------------------------------------------------

ALL_TILES = frozenset(dominoes.full_set())
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

    def learn(self, before: dict[str, Any], seat: int, action: dict[str, Any], applied: Applied) -> None:
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


# -- Kali Tidi ----------------------------------------------------------------------------------


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

    pieces = HEARTS_DECK

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

    def learn(self, before: dict[str, Any], seat: int, action: dict[str, Any], applied: Applied) -> None:
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


def check_partners_hidden(game: Game, state: dict[str, Any]) -> None:
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

    def after_step(self, hand: Hand, applied: Applied) -> None:
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


PROFILES: dict[str, type[Profile]] = {
    "hearts": HeartsProfile,
    "moon": MoonProfile,
    "kali_tidi": KaliTidiProfile,
}


def profile_for(game: Game) -> Profile:
    """The game's profile; a game without one gets the generic base."""
    return PROFILES.get(game.key, Profile)(game)


def profile_of(key: str) -> Profile:
    return profile_for(get(key))
