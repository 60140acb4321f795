"""Domino tiles as "H-L" strings (higher pip first: "6-4", "5-5", "0-0"), and how they
behave in a trick game with a trump number.

Strings keep the state JSON-native and identical to the API's notation; these helpers
give them order and meaning. A tile's "suit" in a trick depends on the trumps and on
what was led, so the suit helpers take both.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from . import tricks

HIGH = 6
PIPS = range(HIGH + 1)
# What trumps are called when a tile's suit is asked for: no pip number can be mistaken for it.
TRUMP = "T"
NONE = "-"


def tile(a: int, b: int) -> str:
    hi, lo = (a, b) if a >= b else (b, a)
    return f"{hi}-{lo}"


def full_set() -> list[str]:
    """The 28 tiles of a double-six set, highest first."""
    return [tile(hi, lo) for hi in reversed(PIPS) for lo in reversed(range(hi + 1))]


def cut_deck() -> list[str]:
    """The double-six set without its blanks except 0-0 (1-0 … 6-0 removed): 22 tiles."""
    return [t for t in full_set() if t == "0-0" or t[2] != "0"]


def is_tile(code: object) -> bool:
    return (
        isinstance(code, str)
        and len(code) == 3
        and code[1] == "-"
        and code[0] in "0123456"
        and code[2] in "0123456"
        and code[0] >= code[2]
    )


def pips(t: str) -> tuple[int, int]:
    """(higher end, lower end)."""
    return int(t[0]), int(t[2])


def is_double(t: str) -> bool:
    return t[0] == t[2]


def shows(t: str, number: int) -> bool:
    return number in pips(t)


def sort_key(t: str) -> tuple[int, int]:
    hi, lo = pips(t)
    return -hi, -lo


def sorted_hand(tiles: Iterable[str]) -> list[str]:
    return sorted(tiles, key=sort_key)


def shuffled(tiles: list[str], rng: random.Random) -> list[str]:
    out = list(tiles)
    rng.shuffle(out)
    return out


def deal(tiles: list[str], players: int, size: int) -> tuple[list[list[str]], list[str]]:
    """Each player draws `size` tiles in turn; what is left over stays in the boneyard."""
    hands: list[list[str]] = [[] for _ in range(players)]
    for i, t in enumerate(tiles[: players * size]):
        hands[i % players].append(t)
    return [sorted_hand(h) for h in hands], list(tiles[players * size :])


# -- tiles in a trick -------------------------------------------------------------------


def is_trump(t: str, trump: int) -> bool:
    """A tile showing the trump number is a trump and nothing else."""
    return shows(t, trump)


def led_suit(t: str, trump: int) -> str:
    """The suit a tile calls for when it is led: trumps, else its higher end."""
    return TRUMP if is_trump(t, trump) else t[0]


def suit_in_trick(t: str, led: str, trump: int) -> str:
    """The suit `t` counts as once `led` is led: trumps, the led number, or nothing."""
    if is_trump(t, trump):
        return TRUMP
    if led != TRUMP and shows(t, int(led)):
        return led
    return NONE


def rank_in(t: str, number: int) -> int:
    """Rank among the tiles showing `number`: its double highest (7), then the other end."""
    hi, lo = pips(t)
    if hi == lo:
        return HIGH + 1
    return lo if hi == number else hi


def trick_rank(t: str, led: str, trump: int) -> int:
    suit = suit_in_trick(t, led, trump)
    if suit == TRUMP:
        return rank_in(t, trump)
    if suit == NONE:
        return -1
    return rank_in(t, int(led))


def followers(hand: Sequence[str], led: str, trump: int) -> list[str]:
    """The tiles of `hand` that follow `led` (trumps when trumps were led)."""
    return [t for t in hand if suit_in_trick(t, led, trump) == led]


def legal_follow(hand: Sequence[str], led: str, trump: int, *, trump_instead: bool = False) -> list[str]:
    """What a player may play to a trick led with suit `led`.

    Follow if able, else anything. With `trump_instead`, a player able to follow a
    non-trump lead may play a trump instead.
    """
    following = followers(hand, led, trump)
    if not following:
        return list(hand)
    if trump_instead and led != TRUMP:
        return [t for t in hand if t in following or is_trump(t, trump)]
    return following


def winning_index(tiles: Sequence[str], trump: int) -> int:
    """Index of the tile that takes the trick: the highest trump, else the highest of the led suit."""
    led = led_suit(tiles[0], trump)
    return tricks.winning_index(
        tiles,
        suit_of=lambda t: suit_in_trick(t, led, trump),
        rank_of=lambda t: trick_rank(t, led, trump),
        led=led,
        trump=TRUMP,
    )
