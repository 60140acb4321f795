"""Playing cards as two-character codes: rank then suit ("QS", "TH", "2C").

Strings keep the state JSON-native and identical to the API's notation; these helpers
give them order and meaning.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TypedDict

RANKS = "23456789TJQKA"
SUITS = "CDHS"


def deck(copies: int = 1) -> list[str]:
    return [r + s for _ in range(copies) for s in SUITS for r in RANKS]


def is_card(code: object) -> bool:
    return isinstance(code, str) and len(code) == 2 and code[0] in RANKS and code[1] in SUITS


def suit(card: str) -> str:
    return card[1]


def rank(card: str) -> int:
    """0 for a two, 12 for an ace."""
    return RANKS.index(card[0])


def sort_key(card: str) -> tuple[int, int]:
    return SUITS.index(card[1]), RANKS.index(card[0])


def sorted_hand(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=sort_key)


def shuffled(cards: list[str], rng: random.Random) -> list[str]:
    out = list(cards)
    rng.shuffle(out)
    return out


def deal(cards: list[str], players: int) -> list[list[str]]:
    """Deal one at a time round the table, as people do."""
    hands: list[list[str]] = [[] for _ in range(players)]
    for i, card in enumerate(cards):
        hands[i % players].append(card)
    return [sorted_hand(h) for h in hands]


class CardPlay(TypedDict):
    """A card played to a trick, as a round's state keeps it."""

    seat: int
    card: str


class CardTrick(TypedDict):
    """The trick just won, as a round's state keeps it: its cards in order, its winner."""

    cards: list[CardPlay]
    winner: int
