"""Random play-outs: thousands of Moon hands, both table sizes, every option combination.

Each chunk plays whole matches (hands chained through carry()) under one option set with
fixed seeds. Most moves are random legal actions, some are the computer player's (so
hands also look like real ones), and every few hands one seat is dealt a moon hand that
the auction and the computer player take to a made moon. Checks, by cost:

- every step: the tiles are all there, once each (hands, trick, tricks taken, the widow
  or the discard); exactly the seats to act have legal actions; nobody acts only once
  the match is over; the chosen action (random or the bot's) is a legal one and is
  accepted; no event shows a tile to a viewer who may not know it; one viewer's view (in
  turn) is walked for tiles that viewer may not know;
- every step of one hand in DEEP_EVERY ("deep" hands): besides, the state survives a
  JSON round trip, every viewer's view is walked, every legal action of the seat to act
  is accepted, and applying them leaves the input state unchanged;
- the end of every hand: points follow the rules (recomputed here), totals and winners
  are right, the state survives JSON and every view is walked; one hand in REPLAY_EVERY
  (and every deep hand) is rebuilt from new_round(seed) and its actions, redeals and all,
  and must equal the final state.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from games.rules import dominoes
from games.rules.base import COMPLETE, MATCH_OVER
from games.rules.moon import deck_for, first_dealer
from tests.rules.support import TrackedHand, pieces_in

from .test_moon_rules import G

pytestmark = pytest.mark.slow

ALL_TILES = frozenset(dominoes.full_set())
MOON_HAND = ["6-6", "6-5", "6-4", "6-3", "5-5", "4-4", "3-3"]

COMBOS: list[dict[str, Any]] = [
    {"players": p, "moon_any_time": m, "widow": w, "trump_instead_of_follow": t}
    for p, m, w, t in itertools.product((3, 4), (False, True), ("optional", "compulsory"), (False, True))
]
HANDS_PER_COMBO = 400  # 16 option sets x 400 = 6,400 hands
BOT_SHARE = 0.35
MOON_DEAL_EVERY = 9
PASS_OUT_EVERY = 7
DEEP_EVERY = 10
REPLAY_EVERY = 2


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


def expected_points(result: dict[str, Any], players: int) -> list[int]:
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


def expected_winners(result: dict[str, Any], players: int) -> list[int]:
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


class Hand(TrackedHand):
    """One hand under test, with what each seat may know tracked apart from the engine: its
    own tiles (from the latest deal), the widow for the bidder once it decides on it, and
    every tile played so far."""

    game = G
    pieces = ALL_TILES

    def __init__(
        self, options: dict[str, Any], seed: int, carry: dict[str, Any] | None, deal: Any, *, deep: bool
    ) -> None:
        self.players = options["players"]
        self.viewers = (*range(self.players), None)
        self.args = {"options": options, "players": self.players, "seed": seed, "carry": carry, "deal": deal}
        self.state = G.new_round(**self.args)
        self.deep = deep
        self.actions: list[tuple[int, dict[str, Any]]] = []
        self.deck = sorted(deck_for(self.players))
        self.dealt()

    def dealt(self) -> None:
        self.known = [set(h) for h in self.state["hands"]]
        self.played = set()

    # -- invariants of one state --------------------------------------------------------------

    def check_tiles(self) -> tuple[list[int], list[list[dict[str, Any]]]]:
        state = self.state
        held = [t for h in state["hands"] for t in h]
        held += [p["tile"] for p in state["trick"]]
        held += [t for pile in state["taken"] for t in pile]
        if self.players == 3:
            held.append(state["discard"] if state["widow_taken"] else state["widow"])
        else:
            assert state["widow"] is None and state["discard"] is None
        assert sorted(held) == self.deck
        return self.check_turns()

    # -- one step -------------------------------------------------------------------------------

    def step(self, rng: random.Random, chosen: dict[str, Any] | None = None, *, bot: bool = False) -> None:
        to_act, legal = self.check_tiles()
        mover = rng.choice(to_act)
        if chosen is None and (bot or rng.random() < BOT_SHARE):
            chosen = G.bot_action(self.state, mover)
        if chosen is not None:
            assert chosen in legal[mover], (chosen, legal[mover])
        if self.deep:
            snapshot = self.check_whole(to_act)
            outcomes = [(action, G.apply(self.state, mover, action)) for action in legal[mover]]
            assert self.state == snapshot, "apply changed its input"
            if chosen is None:
                action, applied = rng.choice(outcomes)
            else:
                action, applied = next(o for o in outcomes if o[0] == chosen)
        else:
            self.check_view(self.viewers[len(self.actions) % len(self.viewers)], to_act)
            action = chosen if chosen is not None else dict(rng.choice(legal[mover]))
            applied = G.apply(self.state, mover, action)
        before = self.state
        self.state = applied.state
        self.actions.append((mover, action))
        self.learn(before, action)
        self.check_events(applied.events)

    def learn(self, before: dict[str, Any], action: dict[str, Any]) -> None:
        state = self.state
        if action["type"] == "play":
            self.played.add(action["tile"])
        elif state["redeals"] != before["redeals"]:
            self.dealt()
        elif action["type"] == "trump" and state["phase"] == "widow":
            # The bidder now decides on the widow, and sees it.
            self.known[state["bidder"]].add(state["widow"])

    # -- the end of the hand ----------------------------------------------------------------------

    def check_end(self, before: list[int]) -> dict[str, Any]:
        to_act, _ = self.check_tiles()
        self.check_whole(to_act)
        state = self.state
        result = G.result(state)
        assert result is not None and not pieces_in(result, ALL_TILES)
        assert sum(result["tricks"]) == 7 and result["tricks"] == state["tricks_taken"]
        assert result["points"] == expected_points(result, self.players)
        assert result["scores"] == [a + b for a, b in zip(before, result["points"], strict=True)]
        assert result["winners"] == expected_winners(result, self.players)
        assert result["match_over"] == bool(result["winners"]) == (state["phase"] == MATCH_OVER)
        if self.players == 4:
            s = result["scores"]
            assert s[0] == s[2] and s[1] == s[3]
        return result


def play_hand(hand: Hand, rng: random.Random, *, moon_seat: int | None, pass_out: bool) -> None:
    if pass_out:
        # A lap of passes: the next dealer redeals, and the hand goes on from there.
        for _ in range(hand.players):
            hand.step(rng, {"type": "pass"})
        assert hand.state["redeals"] == 1 and hand.state["phase"] == "bid"
    if moon_seat is not None:
        # The first bidder opens 7 so that moon may be bid; the moon hand shoots it.
        first = G.to_act(hand.state)[0]
        if first != moon_seat:
            hand.step(rng, {"type": "bid", "value": 7})
        hand.step(rng, {"type": "bid", "value": 21})
    while hand.state["phase"] not in (COMPLETE, MATCH_OVER):
        if hand.state["result"] is not None and hand.state["ready"] == []:
            # Scored, nobody ready yet: the between-hands phase has just begun.
            hand.check_end(hand.args["carry"]["scores"] if hand.args["carry"] else [0] * hand.players)
        hand.step(rng, bot=moon_seat is not None)


def play_combo(options: dict[str, Any]) -> dict[str, int]:
    name = "-".join(str(v) for v in options.values())
    rng = random.Random(f"moon-{name}")
    players = options["players"]
    stats = {
        "hands": 0,
        "matches": 0,
        "redeals": 0,
        "moons_made": 0,
        "moons_failed": 0,
        "sets": 0,
        "takes": 0,
        "pass_outs": 0,
    }
    carry: dict[str, Any] | None = None
    while stats["hands"] < HANDS_PER_COMBO:
        number = stats["hands"]
        seed = rng.randrange(2**62)
        deal = moon_seat = None
        if number % MOON_DEAL_EVERY == MOON_DEAL_EVERY - 1:
            dealer = carry["dealer"] if carry else first_dealer(seed, players)
            moon_seat = (dealer + 2) % players
            deal = moon_deal(rng, players, moon_seat)
        hand = Hand(options, seed, carry, deal, deep=number % DEEP_EVERY == 1)
        pass_out = moon_seat is None and number % PASS_OUT_EVERY == 3
        play_hand(hand, rng, moon_seat=moon_seat, pass_out=pass_out)
        state = hand.state
        if state["phase"] == MATCH_OVER:
            hand.check_end(carry["scores"] if carry else [0] * players)
        if hand.deep or number % REPLAY_EVERY == 0:
            hand.check_replay()
        result = G.result(state)
        stats["hands"] += 1
        stats["redeals"] += state["redeals"]
        stats["pass_outs"] += pass_out
        stats["takes"] += bool(result["widow_taken"])
        if result["bid"] == 21:
            stats["moons_made" if result["made"] else "moons_failed"] += 1
        elif not result["made"]:
            stats["sets"] += 1
        if moon_seat is not None:
            assert result["made"] and result["bidder"] == moon_seat and state["phase"] == MATCH_OVER
        if state["phase"] == MATCH_OVER:
            stats["matches"] += 1
            carry = None
        else:
            carry = G.carry(state)
            assert carry == {
                "round": state["round"] + 1,
                "scores": result["scores"],
                "dealer": (state["dealer"] + 1) % players,
            }
    return stats


@pytest.mark.parametrize("options", COMBOS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_random_playout(options):
    stats = play_combo(options)
    assert stats["hands"] == HANDS_PER_COMBO
    assert stats["matches"] >= 40, stats
    assert stats["pass_outs"] >= 50 and stats["redeals"] >= stats["pass_outs"], stats
    assert stats["moons_made"] >= HANDS_PER_COMBO // MOON_DEAL_EVERY, stats
    assert stats["moons_failed"] >= 5 and stats["sets"] >= 20, stats
    if options["players"] == 3:
        assert stats["takes"] >= 20, stats
