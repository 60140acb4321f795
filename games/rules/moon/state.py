"""The shape of a Moon hand's state, as the engine keeps it and the database stores it.

Plain JSON-able data, lists indexed by seat; tiles are codes such as "6-4". The names
of the phases are the engine's (BID, TRUMP, WIDOW, PLAY and the shared between-hands
ones).
"""

from __future__ import annotations

from typing import Literal, TypedDict

from ..base import DealerRoundState, ScoredHand


class MoonOptions(TypedDict):
    """The game's own options, complete (`Moon.game_options`)."""

    moon_any_time: bool
    players: int
    trump_instead_of_follow: bool
    widow: Literal["optional", "compulsory"]


class TrickPlay(TypedDict):
    seat: int
    tile: str


class LastTrick(TypedDict):
    tiles: list[TrickPlay]
    winner: int


class MoonResult(ScoredHand):
    dealer: int
    bidder: int
    bid: int
    moon: bool
    trump: int
    widow_taken: bool | None
    made: bool
    tricks: list[int]
    # The partnerships of a four-player table; None with three.
    teams: list[list[int]] | None
    # An exact tie for the highest side at the target: the match goes on.
    tie: bool


class MoonState(DealerRoundState[MoonResult]):
    options: MoonOptions
    # Kept for the redeals; the state never leaves the server, views never show it.
    seed: int
    redeals: int
    # The seat to act; None once the last trick is in.
    turn: int | None
    hands: list[list[str]]
    # The three-player widow (one tile), None with four players.
    widow: str | None
    # Whether the bidder took the widow; None until they say.
    widow_taken: bool | None
    discard: str | None
    # Each seat's bid: None not yet asked, 0 (PASSED) passed, else the bid.
    bids: list[int | None]
    bidder: int | None
    bid: int | None
    # Trumps: a pip count, 0 to 6.
    trump: int | None
    trick: list[TrickPlay]
    tricks_played: int
    last_trick: LastTrick | None
    taken: list[list[str]]
    tricks_taken: list[int]
