"""Provably fair deals: the public algorithm `hmac-sha256-fisher-yates-v2` (v1 before it).

The server commits to a hand's `server_seed` (SHA-256 of its 64 hex characters) before
the players set their own seeds; the shuffle then follows from both, and once the hand
is over the seed is revealed, so anyone can recompute the deal. This module is the
whole algorithm, with no Django in it: the engines deal with it, the server reveals
what it recorded, and `tools/verify_deals.py` repeats it with the standard library.

- The canonical deck: cards as `cards.deck` (`2C 3C … AC 2D … AS`, repeated per deck)
  less the cards removed for the match, the first copy of each in that order; dominoes
  `a-b` (a ≥ b) ordered by a then b, less the tiles the variant leaves out.
- The byte stream: HMAC-SHA256(key = the 32 seed bytes,
  message = "{code}:{hand}:{redeal}:{seeds}:{counter}"), counter 0, 1, 2, …, where
  `seeds` is the client seeds as a JSON array without spaces (`["a,b",""]`), so that
  no two lists of seeds give one message. v1, under which the hands dealt before v2
  stay verifiable, joined them with commas (`a,b,`), which `["a,b",""]` and
  `["a","b,"]` share.
- Fisher-Yates from the last index down, 4 big-endian bytes per draw, rejecting draws
  above the largest multiple of i+1 so that every position is equally likely.
- The deal: round-robin from seat 0; what is left over is Moon's widow.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NotRequired, TypedDict

from . import cards

# The algorithm of every hand dealt now; a hand's record names its own (none: v1).
ALGORITHM = "hmac-sha256-fisher-yates-v2"
ALGORITHM_V1 = "hmac-sha256-fisher-yates-v1"
ALGORITHMS = (ALGORITHM_V1, ALGORITHM)
CLIENT_SEED_MAX = 64
# What a client seed is made of: printable ASCII, space to tilde.
CLIENT_SEED_CHARACTER = "[ -~]"
_CLIENT_SEED = re.compile(f"{CLIENT_SEED_CHARACTER}{{0,{CLIENT_SEED_MAX}}}")
_WORD = 2**32


def new_server_seed() -> str:
    """32 random bytes as 64 lowercase hex characters."""
    return secrets.token_hex(32)


def is_client_seed(value: object) -> bool:
    return isinstance(value, str) and _CLIENT_SEED.fullmatch(value) is not None


def commitment(server_seed: str) -> str:
    """What the server shows before the hand: SHA-256 of the seed's 64 ASCII characters."""
    return hashlib.sha256(server_seed.encode("ascii")).hexdigest()


class InputsRecord(TypedDict):
    """`Inputs` as a round's state keeps them."""

    server_seed: str
    code: str
    hand: int
    client_seeds: list[str]
    # Absent from the records of hands dealt under v1.
    algorithm: NotRequired[str]


class Dealt(TypedDict):
    """One deal: the hands in the order dealt, and what was left over."""

    redeal: int
    hands: list[list[str]]
    widow: list[str]


class FairRecord(InputsRecord):
    """A hand's fairness record in its state (`fair`): the inputs and every deal made
    from them, the redeals included. Server-side only: views and events never show it."""

    deals: list[Dealt]


@dataclass(frozen=True)
class Inputs:
    """Everything a hand's deals follow from (the redeal counter aside)."""

    server_seed: str
    code: str
    hand: int
    client_seeds: tuple[str, ...]
    algorithm: str = ALGORITHM

    def as_json(self) -> InputsRecord:
        return {
            "server_seed": self.server_seed,
            "code": self.code,
            "hand": self.hand,
            "client_seeds": list(self.client_seeds),
            "algorithm": self.algorithm,
        }

    @classmethod
    def from_json(cls, data: InputsRecord) -> Inputs:
        return cls(
            str(data["server_seed"]),
            str(data["code"]),
            int(data["hand"]),
            tuple(data["client_seeds"]),
            algorithm_of(data),
        )


def algorithm_of(record: InputsRecord | FairRecord) -> str:
    """The algorithm a hand was dealt under, from its record."""
    return record.get("algorithm", ALGORITHM_V1)


def seeds_text(client_seeds: Sequence[str], algorithm: str) -> str:
    """The client seeds as the message holds them (see above)."""
    if algorithm == ALGORITHM_V1:
        return ",".join(client_seeds)
    if algorithm != ALGORITHM:
        raise ValueError(f"unknown algorithm {algorithm!r}")
    return json.dumps(list(client_seeds), separators=(",", ":"))


def byte_stream(inputs: Inputs, redeal: int) -> Iterator[int]:
    """The bytes of HMAC-SHA256 blocks 0, 1, 2, … one after the other, without end."""
    key = bytes.fromhex(inputs.server_seed)
    prefix = f"{inputs.code}:{inputs.hand}:{redeal}:{seeds_text(inputs.client_seeds, inputs.algorithm)}:"
    counter = 0
    while True:
        yield from hmac.new(key, f"{prefix}{counter}".encode(), hashlib.sha256).digest()
        counter += 1


def permutation(inputs: Inputs, redeal: int, n: int) -> list[int]:
    """Where each canonical position ends: `shuffled[k] = deck[permutation[k]]`."""
    return fisher_yates(n, byte_stream(inputs, redeal))


def fisher_yates(n: int, stream: Iterator[int]) -> list[int]:
    """The positions 0 … n-1 shuffled by the bytes of `stream`."""
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        bound = _WORD - _WORD % (i + 1)
        while True:
            x = int.from_bytes(bytes(next(stream) for _ in range(4)), "big")
            if x < bound:
                break
        j = x % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def shuffle(items: Sequence[str], inputs: Inputs, redeal: int = 0) -> list[str]:
    return [items[k] for k in permutation(inputs, redeal, len(items))]


def deal(shuffled: Sequence[str], players: int, size: int) -> tuple[list[list[str]], list[str]]:
    """Seat s gets positions s, s+P, s+2P, … up to `size`; the rest is left over."""
    hands = [list(shuffled[s : players * size : players]) for s in range(players)]
    return hands, list(shuffled[players * size :])


def card_deck(copies: int, removed: Sequence[str] = ()) -> list[str]:
    """The canonical card deck: every copy in order, less the first copy of each card
    removed (a card removed twice loses both copies)."""
    out = cards.deck(copies)
    for card in removed:
        out.remove(card)
    return out


def domino_deck(leave_out: Sequence[str] = ()) -> list[str]:
    """The double-six set as `a-b` (a ≥ b) by a then b: 0-0 1-0 1-1 2-0 …"""
    skipped = set(leave_out)
    return [f"{a}-{b}" for a in range(7) for b in range(a + 1) if f"{a}-{b}" not in skipped]


def dealt(deck: Sequence[str], inputs: Inputs, redeal: int, players: int, size: int) -> Dealt:
    """One deal as the engines record it and the rounds answer reveals it: the hands in
    the order dealt, and what was left over."""
    hands, rest = deal(shuffle(deck, inputs, redeal), players, size)
    return {"redeal": redeal, "hands": hands, "widow": rest}
