"""What each card is worth in Kali Tidi: the rules count it, the computer player weighs it."""

from __future__ import annotations

THREE_OF_SPADES = "3S"


def card_points(card: str) -> int:
    """3♠ 30, each ace, king, queen, jack and ten 10, each five 5, the rest 0 (250 a deck)."""
    if card == THREE_OF_SPADES:
        return 30
    if card[0] in "AKQJT":
        return 10
    if card[0] == "5":
        return 5
    return 0
