"""Trick-taking pieces any card or domino game can share: who wins a trick, what may follow.

The helpers take the game's own notion of suit and rank as functions, so a domino game
(whose "suit" depends on the led number and the trumps) can use them as well as a card
game. Pieces are codes (strings), cards and tiles alike; the defaults are for the
two-character card codes of `cards.py`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Literal

from . import cards
from .errors import RuleError, gettext_noop


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


def check_deal(
    deal: object,
    *,
    players: int,
    stock: Iterable[str],
    is_piece: Callable[[object], bool],
    hand_size: int | None = None,
    whole: bool = True,
    pieces: Literal["cards", "tiles"] = "cards",
) -> list[list[str]]:
    """The hands of a deal forced on a hand (`new_round`'s `deal`: a test's, or a
    position set up on purpose), checked: `players` lists of pieces, each `hand_size`
    long (or, without one, all as long), drawn from `stock`: every piece of it when
    `whole`, else each at most as often as it holds it (what is left stays undealt: a
    widow). Else a RuleError saying what a deal is. The hands are as given: unsorted."""
    said = DEAL_DETAILS[pieces]
    if (
        not isinstance(deal, list)
        or len(deal) != players
        or not all(isinstance(hand, list) for hand in deal)
        or len({len(hand) for hand in deal} | ({hand_size} if hand_size is not None else set())) != 1
    ):
        if hand_size is None:
            raise RuleError("invalid", said["shape"], "deal", players=players)
        raise RuleError("invalid", said["sized"], "deal", players=players, size=hand_size)
    hands: list[list[object]] = [list(hand) for hand in deal]
    if not all(is_piece(piece) for hand in hands for piece in hand):
        raise RuleError("invalid", said["pieces"], "deal")
    dealt = [[str(piece) for piece in hand] for hand in hands]
    held, deck = Counter(piece for hand in dealt for piece in hand), Counter(stock)
    if (held != deck) if whole else bool(held - deck):
        raise RuleError("invalid", said["whole" if whole else "part"], "deal")
    return dealt


# What a deal is, said of cards and of tiles: the refusals of `check_deal`.
DEAL_DETAILS: dict[str, dict[str, str]] = {
    "cards": {
        "shape": gettext_noop("A deal is %(players)s lists of cards, as many in each."),
        "sized": gettext_noop("A deal is %(players)s lists of %(size)s cards."),
        "pieces": gettext_noop("A deal holds the deck's cards."),
        "whole": gettext_noop("A deal holds the deck's cards: all of them, each as often as the deck has it."),
        "part": gettext_noop("A deal holds the deck's cards: each at most as often as the deck has it."),
    },
    "tiles": {
        "shape": gettext_noop("A deal is %(players)s lists of tiles, as many in each."),
        "sized": gettext_noop("A deal is %(players)s lists of %(size)s tiles."),
        "pieces": gettext_noop("A deal holds the deck's tiles."),
        "whole": gettext_noop("A deal holds the deck's tiles: all of them, each as often as the deck has it."),
        "part": gettext_noop("A deal holds the deck's tiles: each at most as often as the deck has it."),
    },
}


def trick_view(
    trick: Sequence[Mapping[str, object]], last_trick: Mapping[str, object] | None
) -> dict[str, list[dict[str, object]] | dict[str, object] | None]:
    """The view's `trick` (the plays on the table, in order) and `last_trick` (the trick
    just taken, its plays under its own key, `cards` or `tiles`, and whatever else the
    game keeps with it: the winner, its points), as copies a view may hand out."""
    last: dict[str, object] | None = None
    if last_trick is not None:
        last = {
            key: [dict(play) for play in value] if isinstance(value, list) else value
            for key, value in last_trick.items()
        }
    return {"trick": [dict(play) for play in trick], "last_trick": last}
