"""The Hearts computer player: simple, deterministic card sense.

It sees only what its seat may know (the `Table` the engine builds: own hand, cards on
the table and cards already played), never another hand. The choices follow common
advice: get rid of Q♠, A♠, K♠ and high hearts, aim for a void, duck under the card
that is winning, dump the dangerous cards when void, lead low from suits where someone
else is bound to play higher.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..cards import RANKS, SUITS, rank
from .points import JACK, QUEEN, card_points

HIGH_SPADES = ("AS", "KS")
MINUS_SELF = "minus_self"
PLUS_OTHERS = "plus_others"


@dataclass
class Table:
    seat: int
    hand: list[str]
    legal: list[str]
    trick: list[tuple[int, str]]  # (seat, card) in play order
    played: set[str] = field(default_factory=set)  # cards of finished tricks
    jack: int = 0  # J♦'s value; negative means it is worth winning

    @property
    def queen_out(self) -> bool:
        """Q♠ is still in someone else's hand, so high spades may catch it."""
        return QUEEN not in self.played and QUEEN not in self.hand and all(c != QUEEN for _, c in self.trick)


# -- passing ---------------------------------------------------------------------------


def pass_danger(card: str, suit_counts: Counter[str], jack: int) -> int:
    """How much we want rid of `card`; the three highest are passed."""
    suit, r = card[1], rank(card)
    if card == QUEEN:
        return 100
    if card in HIGH_SPADES:
        return 80 + r
    if card == JACK and jack < 0:
        return -100
    if suit == "H":
        return 10 + 4 * r
    danger = 2 * r
    if suit in "CD" and suit_counts[suit] <= 3:
        # Emptying a short side suit early lets us discard points on it later.
        danger += 14 - 3 * suit_counts[suit]
    return danger


def choose_pass(
    *,
    hand: list[str],
    to: list[int] | None,
    scores: list[int],
    jack: int,
) -> dict[str, Any]:
    counts = Counter(c[1] for c in hand)
    ranked = sorted(hand, key=lambda c: (-pass_danger(c, counts, jack), c))
    picked = ranked[:3]
    if to is None:
        return {"type": "pass_cards", "cards": picked}
    # The worst card goes to whoever leads the match: they are the one to catch.
    targets = sorted(to, key=lambda s: (scores[s], s))
    return {"type": "pass_cards", "cards": picked, "to": targets}


# -- playing ---------------------------------------------------------------------------


def choose_play(table: Table) -> str:
    legal = table.legal
    if len(legal) == 1:
        return legal[0]
    if not table.trick:
        return _lead(table)
    led = table.trick[0][1][1]
    if legal[0][1] == led:
        return _follow(table, led)
    return _discard(table)


def _unseen(table: Table) -> set[str]:
    known = set(table.hand) | table.played | {c for _, c in table.trick}
    return {r + s for s in SUITS for r in RANKS} - known


def _lead(table: Table) -> str:
    legal = table.legal
    unseen = _unseen(table)
    pool = [c for c in legal if c[1] != "H"] or legal
    avoid = {QUEEN}
    if table.queen_out:
        avoid |= set(HIGH_SPADES)
    if table.jack < 0:
        avoid.add(JACK)
    pool = [c for c in pool if c not in avoid] or pool

    def risk(card: str) -> tuple[int, int, int]:
        others = [u for u in unseen if u[1] == card[1]]
        if not others:
            # Nobody else can follow: we would win and eat whatever they discard.
            return (99, rank(card), 0)
        lower = sum(1 for u in others if rank(u) < rank(card))
        # Fewer cards of the suit in hand first: that suit is the nearest void.
        return (lower, rank(card), sum(1 for c in table.hand if c[1] == card[1]))

    return min(pool, key=lambda c: (risk(c), c))


def _follow(table: Table, led: str) -> str:
    legal = table.legal
    on_table = [c for _, c in table.trick]
    winning = max((c for c in on_table if c[1] == led), key=rank)
    trick_points = sum(card_points(c, table.jack) for c in on_table)
    last = len(table.trick) == 3
    if last and table.jack < 0:
        # J♦ is worth taking when nothing worse comes with it.
        winners = [c for c in legal if rank(c) > rank(winning) and c != QUEEN]
        if JACK in winners and trick_points <= 0:
            return JACK
        if winners and trick_points < 0:
            return max(winners, key=rank)
    under = [c for c in legal if rank(c) < rank(winning)]
    if under:
        if QUEEN in under:
            return QUEEN
        return max(under, key=rank)
    safe = [c for c in legal if c != QUEEN] or legal
    if last:
        # We take it anyway: spend the highest card we would rather not keep.
        return max(safe, key=rank)
    if led == "H" or (led == "S" and table.queen_out):
        # Someone after us may still go higher: stay as low as possible.
        return min(safe, key=rank)
    return max(safe, key=rank)


def _discard(table: Table) -> str:
    legal = table.legal
    if QUEEN in legal:
        return QUEEN
    if table.queen_out:
        high = [c for c in legal if c in HIGH_SPADES]
        if high:
            return max(high, key=rank)
    hearts = [c for c in legal if c[1] == "H"]
    if hearts and rank(max(hearts, key=rank)) >= rank("8H"):
        return max(hearts, key=rank)
    keep = {JACK} if table.jack < 0 else set()
    pool = [c for c in legal if c not in keep] or legal
    return max(pool, key=lambda c: (rank(c), c[1] == "H", c))


# -- the moon ----------------------------------------------------------------------------


def choose_moon(shooter: int, outcomes: dict[str, tuple[list[int], bool]]) -> str:
    """Pick the moon scoring that serves the shooter best.

    `outcomes` maps each choice to (match totals after the hand, whether the match ends).
    Both choices gain 26 on everyone; the difference is whether the match comes closer
    to its end, which is good only for whoever is ahead.
    """

    def value(choice: str) -> tuple[int, int]:
        totals, over = outcomes[choice]
        low = min(totals)
        mine = totals[shooter]
        others = [t for s, t in enumerate(totals) if s != shooter]
        if over:
            if mine == low:
                return (3 if mine < min(others) else 2, 0)
            return (0, 0)
        ahead = mine <= min(others)
        prefer = PLUS_OTHERS if ahead else MINUS_SELF
        return (1, 1 if choice == prefer else 0)

    return max((MINUS_SELF, PLUS_OTHERS), key=lambda c: (value(c), c == MINUS_SELF))
