"""What each card is worth in Hearts: the rules score it, the computer player weighs it."""

from __future__ import annotations

QUEEN = "QS"
JACK = "JD"
HEARTS = "H"


def card_points(card: str, jack: int) -> int:
    """A heart 1, Q♠ 13, J♦ `jack` (0 unless the option gives it a value), the rest 0."""
    if card[1] == HEARTS:
        return 1
    if card == QUEEN:
        return 13
    if card == JACK:
        return jack
    return 0
