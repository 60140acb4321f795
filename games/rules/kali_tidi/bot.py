"""The Kali Tidi computer player: bids from its hand's points, calls the high cards it
lacks, names its strongest suit, and plays to take points for its side and give away
as few as it can. It sees only what its seat may know (kali_tidi.KaliTidi._table)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from .. import cards
from .points import card_points as points


def choose_removal(choices: list[str], count: int) -> list[str]:
    """The lowest zero-point cards: they matter least to anyone."""
    return sorted(choices, key=lambda c: (cards.rank(c), cards.SUITS.index(c[1])))[:count]


@dataclass(frozen=True)
class BidContext:
    players: int
    side_size: int  # how many players the bidder's side will have (itself included)
    total_points: int  # 250 a deck


def hand_strength(hand: list[str]) -> float:
    """Card points this hand can expect its side to win, before partners: its own
    points held in high cards, plus tricks its aces and long suits should take."""
    by_suit = Counter(c[1] for c in hand)
    strength = 0.0
    for card in hand:
        if card[0] == "A" or card == "3S":
            strength += points(card) + 12  # a sure winner also collects others' points
        elif card[0] == "K":
            strength += points(card) * 0.7 + 4
        else:
            strength += points(card) * 0.4
    longest = max(by_suit.values(), default=0)
    return strength + 4 * max(0, longest - 3)


def choose_bid(hand: list[str], values: list[int], context: BidContext) -> int | None:
    """The lowest allowed bid if the hand (with its expected partners) can make it."""
    if not values:
        return None
    share = context.total_points * (context.side_size - 1) / max(1, context.players)
    worth = hand_strength(hand) + share * 0.6
    low = values[0]
    return low if low <= worth else None


def choose_calls(hand: list[str], choices: list[str], count: int) -> list[str]:
    """The best cards it lacks: 3♠ and aces first, then the points of its long suits."""
    mine = Counter(c[1] for c in hand)

    def value(card: str) -> tuple[int, int, int]:
        return (points(card) + (20 if card[0] == "A" else 0), mine[card[1]], cards.rank(card))

    return sorted(choices, key=value, reverse=True)[:count]


def choose_trump(hand: list[str]) -> str:
    """The suit with the most cards, high cards breaking ties."""
    return max(
        cards.SUITS,
        key=lambda s: (sum(1 for c in hand if c[1] == s), sum(cards.rank(c) for c in hand if c[1] == s)),
    )


@dataclass
class Table:
    seat: int
    hand: list[str]
    legal: list[str]
    trick: list[tuple[int, str]]
    trump: str | None
    friends: set[int]
    players: int
    suit_of: Callable[[str], str] = field(default=lambda c: c[1])
    rank_of: Callable[[str], int] = field(default=cards.rank)


def _beats(table: Table, card: str, best: str, led: str) -> bool:
    s, b = table.suit_of(card), table.suit_of(best)
    if s == b:
        return table.rank_of(card) >= table.rank_of(best)  # a later identical card wins
    return s == table.trump


def choose_play(table: Table) -> str:
    legal = table.legal
    cheap = sorted(legal, key=lambda c: (points(c), table.suit_of(c) == table.trump, table.rank_of(c)))
    if not table.trick:
        # Lead an ace (it should win), else the lowest card of no value.
        aces = [c for c in legal if c[0] == "A" and table.suit_of(c) != table.trump]
        return aces[0] if aces else cheap[0]
    led = table.suit_of(table.trick[0][1])
    winner_seat, best = table.trick[0]
    for seat, card in table.trick[1:]:
        if _beats(table, card, best, led):
            winner_seat, best = seat, card
    last_to_play = len(table.trick) == table.players - 1
    if winner_seat in table.friends:
        # A friend is winning: add points if that is safe (we play last), else stay cheap.
        generous = sorted(legal, key=lambda c: (-points(c), table.rank_of(c)))
        return generous[0] if last_to_play and points(generous[0]) else cheap[0]
    winners = [c for c in legal if _beats(table, c, best, led)]
    on_table = sum(points(c) for _, c in table.trick)
    if winners and (on_table > 0 or last_to_play):
        return min(winners, key=lambda c: (points(c), table.rank_of(c)))
    return cheap[0]
