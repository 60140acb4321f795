"""The Moon computer player: simple, deterministic domino sense.

It sees only what its seat may know (the hand, the tiles on the table and those already
played, and for the bidder the tile it set aside), never another hand. Bidding counts
the tricks a hand should take with its best trump: trumps from the top are sure, long
trumps and doubles (each the highest of its suit) likely. In play it wins as cheaply
as it can, keeps its trumps for tricks worth them, draws trumps when it holds the
highest, and lets an ally's sure trick go by.

With three players the two opponents of the bidder are allies for the hand: a set
scores each of them the bid, worth more than a trick of their own, so neither spends a
good tile to take a trick the other already holds against the bidder.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .. import dominoes
from ..dominoes import PIPS, is_double, is_trump, rank_in

MOON = 21
MIN_BID = 4
TRICKS = 7


@dataclass
class Table:
    seat: int
    players: int
    hand: list[str]
    legal: list[str]
    trump: int
    bidder: int
    trick: list[tuple[int, str]]  # (seat, tile) in play order
    played: set[str] = field(default_factory=set)  # tiles of finished tricks
    aside: set[str] = field(default_factory=set)  # out of play and known to this seat
    deck: list[str] = field(default_factory=list)  # every tile dealt this hand

    def partner(self, seat: int) -> int | None:
        return (seat + 2) % 4 if self.players == 4 else None

    def ally(self, seat: int) -> int | None:
        """Whose trick `seat` is glad to let stand: the partner with four players; with
        three, the other opponent of the bidder (the bidder has no ally)."""
        if self.players == 4:
            return self.partner(seat)
        if seat == self.bidder:
            return None
        return next(s for s in range(self.players) if s not in (seat, self.bidder))

    def unseen(self) -> set[str]:
        """Tiles that may be in another hand (or, for all this seat knows, the widow)."""
        known = set(self.hand) | self.played | self.aside | {t for _, t in self.trick}
        return set(self.deck) - known


# -- judging a hand --------------------------------------------------------------------------


def trumps_of(tiles: Sequence[str], trump: int) -> list[str]:
    """The trumps among `tiles`, highest first."""
    return sorted((t for t in tiles if is_trump(t, trump)), key=lambda t: -rank_in(t, trump))


def sure_trumps(hand: Sequence[str], trump: int, deck: Sequence[str]) -> int:
    """How many trumps the hand holds from the very top down, without a gap."""
    mine = set(hand)
    count = 0
    for t in trumps_of(deck, trump):
        if t not in mine:
            break
        count += 1
    return count


def estimate(hand: Sequence[str], trump: int, deck: Sequence[str]) -> float:
    """Tricks the hand should take with `trump` as trumps."""
    trumps = trumps_of(hand, trump)
    sure = sure_trumps(hand, trump, deck)
    outside = len(trumps_of(deck, trump)) - len(trumps)
    # Beyond the top run, a trump wins once the others' trumps are drawn, which is likelier
    # the more of them we hold.
    long_value = 0.75 if len(trumps) > outside else 0.45
    value = sure + long_value * (len(trumps) - sure)
    for t in hand:
        if is_trump(t, trump):
            continue
        if is_double(t):
            value += 0.8
        elif dominoes.tile(int(t[0]), int(t[0])) in hand:
            # Second in a suit whose double we hold.
            value += 0.35
    return min(value, float(TRICKS))


def moon_hand(hand: Sequence[str], trump: int, deck: Sequence[str]) -> bool:
    """Every tile a winner: trumps all from the top and more than everyone else holds,
    everything else a double."""
    trumps = trumps_of(hand, trump)
    outside = len(trumps_of(deck, trump)) - len(trumps)
    others = [t for t in hand if not is_trump(t, trump)]
    return sure_trumps(hand, trump, deck) == len(trumps) and len(trumps) >= outside and all(map(is_double, others))


def best_trump(hand: Sequence[str], deck: Sequence[str]) -> tuple[int, float]:
    """The trump number that makes the hand strongest, and its estimate."""
    scored = [(estimate(hand, n, deck), len(trumps_of(hand, n)), n) for n in PIPS]
    value, _, number = max(scored)
    return number, value


# -- the auction, trumps and the widow -----------------------------------------------------------


def choose_bid(
    hand: Sequence[str], deck: Sequence[str], values: Sequence[int], *, partner_high: bool = False
) -> int | None:
    """A bid among `values` (the bids allowed now), or None to pass."""
    trump, value = best_trump(hand, deck)
    if MOON in values and moon_hand(hand, trump, deck):
        return MOON
    # The widow and the lead may still help the bidder; with four, the partner's hand helps.
    # (Margins tuned on bot-against-bot matches: a bot bidding with less margin, or more,
    # won fewer matches against these.)
    target = int(value + (1.0 if len(deck) < 28 else 1.2))
    if moon_hand(hand, trump, deck):
        target = TRICKS  # moon may not be bid yet: a 7 is the most the hand can say
    allowed = [v for v in values if v != MOON and v <= target]
    if not allowed or target < MIN_BID:
        return None
    if partner_high:
        # The partner's contract is ours too: raise it only with tricks to spare, and no further.
        return min(allowed) if min(allowed) < target else None
    # A made bid scores the tricks taken whatever the bid, but the high bidder names trumps:
    # bid all the hand is worth, so that a lower bid does not hand the trumps to someone else.
    return max(allowed)


def choose_trump(hand: Sequence[str], deck: Sequence[str]) -> int:
    return best_trump(hand, deck)[0]


def choose_discard(hand: Sequence[str], widow: str, trump: int, deck: Sequence[str]) -> str:
    """The tile of hand + widow whose loss hurts least (it may be the widow itself)."""
    pool = [*hand, widow]

    def after(discard: str) -> tuple[float, int]:
        rest = [t for t in pool if t != discard]
        return estimate(rest, trump, deck), -_cost(discard, trump)

    return max(dominoes.sorted_hand(pool), key=after)


# -- play --------------------------------------------------------------------------------------


def _cost(t: str, trump: int) -> int:
    """How much we would rather keep `t`: trumps most, then doubles, then high tiles."""
    hi, lo = dominoes.pips(t)
    if is_trump(t, trump):
        return 100 + rank_in(t, trump)
    if hi == lo:
        return 50 + hi
    return hi + lo


def _winner(trick: Sequence[tuple[int, str]], trump: int) -> int:
    """Index of the play now winning `trick`."""
    return dominoes.winning_index([t for _, t in trick], trump)


def _beats(trick: Sequence[tuple[int, str]], tile: str, trump: int) -> bool:
    """Would `tile`, played now, be winning the trick?"""
    return _winner([*trick, (-1, tile)], trump) == len(trick)


def _safe(table: Table, plays: Sequence[tuple[int, str]]) -> bool:
    """Nobody still to play after `plays` could beat the play winning them, as far as this
    seat knows (any unseen tile might be behind us)."""
    if len(plays) >= table.players:
        return True
    return not any(_beats(plays, u, table.trump) for u in table.unseen())


def _top_of_suit(table: Table, t: str) -> bool:
    """No unseen non-trump tile beats `t` led: only a trump could take it."""
    trump = table.trump
    return not any(_beats([(table.seat, t)], u, trump) for u in table.unseen() if not is_trump(u, trump))


def choose_play(table: Table) -> str:
    legal = table.legal
    if len(legal) == 1:
        return legal[0]
    if not table.trick:
        return _lead(table)
    return _follow(table)


def _lead(table: Table) -> str:
    trump = table.trump
    legal = table.legal
    unseen = table.unseen()
    trumps = trumps_of(legal, trump)
    trumps_out = [u for u in unseen if is_trump(u, trump)]
    if trumps and trumps_out and all(rank_in(trumps[0], trump) > rank_in(u, trump) for u in trumps_out):
        # We hold the highest trump left: drawing the others' trumps makes our tiles safe.
        return trumps[0]
    plain = [t for t in legal if not is_trump(t, trump)]
    # A tile nobody can beat first; else the top of a suit, which only a trump takes.
    bosses = [t for t in plain if _safe(table, [(table.seat, t)])] or [t for t in plain if _top_of_suit(table, t)]
    if bosses:
        return min(bosses, key=lambda t: (_cost(t, trump), t))
    if trumps and len(trumps) == len(legal):
        return trumps[-1]
    return min(plain or legal, key=lambda t: (_cost(t, trump), t))


def _follow(table: Table) -> str:
    trump = table.trump
    legal = table.legal
    trick = table.trick
    seat = table.seat
    cheapest = min(legal, key=lambda t: (_cost(t, trump), t))
    ally = table.ally(seat)
    if ally is not None:
        plays = [*trick, (seat, cheapest)]
        if plays[_winner(plays, trump)][0] in (ally, seat) and _safe(table, plays):
            # The partner (or the fellow opponent of the bidder) has this trick: keep the
            # better tiles.
            return cheapest
    winners = [t for t in legal if _beats(trick, t, trump)]
    if not winners:
        return cheapest
    safe = [t for t in winners if _safe(table, [*trick, (seat, t)])]
    return min(safe or winners, key=lambda t: (_cost(t, trump), t))
