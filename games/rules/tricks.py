"""Trick-taking pieces any card or domino game can share: who wins a trick, what may follow.

The helpers take the game's own notion of suit and rank as functions, so a domino game
(whose "suit" depends on the led number and the trumps) can use them as well as a card
game. Pieces are codes (strings), cards and tiles alike; the defaults are for the
two-character card codes of `cards.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from . import cards


def winning_index(
    plays: Sequence[str],
    *,
    suit_of: Callable[[str], str] = cards.suit,
    rank_of: Callable[[str], int] = cards.rank,
    led: str | None = None,
    trump: str | None = None,
    later_wins_ties: bool = False,
) -> int:
    """Index in `plays` of the winning play.

    The highest trump wins if any was played, else the highest play of the led suit
    (the first play's suit unless `led` is given). With two decks two plays can be
    identical; `later_wins_ties` says whether the later copy beats the earlier.
    """
    if not plays:
        raise ValueError("an empty trick has no winner")
    led_suit = suit_of(plays[0]) if led is None else led
    best = -1
    best_key: tuple[int, int] | None = None
    for i, play in enumerate(plays):
        suit = suit_of(play)
        if trump is not None and suit == trump:
            tier = 2
        elif suit == led_suit:
            tier = 1
        else:
            continue
        key = (tier, rank_of(play))
        if best_key is None or key > best_key or (later_wins_ties and key == best_key):
            best, best_key = i, key
    # Reachable only with an explicit `led` nobody followed and no trump: the leader keeps it.
    return max(best, 0)


def follow_suit(hand: Sequence[str], led: str, *, suit_of: Callable[[str], str] = cards.suit) -> list[str]:
    """The cards of `hand` that follow `led`, or the whole hand when it holds none."""
    if suit_of is cards.suit:
        # Card codes: skip a call per card, this runs for every legal-move question.
        following = [c for c in hand if c[1] == led]
    else:
        following = [c for c in hand if suit_of(c) == led]
    return following if following else list(hand)


def holds_suit(hand: Sequence[str], wanted: str, *, suit_of: Callable[[str], str] = cards.suit) -> bool:
    if suit_of is cards.suit:
        return any(c[1] == wanted for c in hand)
    return any(suit_of(c) == wanted for c in hand)
