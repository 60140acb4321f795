"""The shape of a Kali Tidi hand's state, as the engine keeps it and the database stores it.

Plain JSON-able data, lists indexed by seat. The names of the phases are the engine's
(REMOVE, BID, CALL, TRUMP, PLAY and the shared between-hands ones).
"""

from __future__ import annotations

from typing import Literal, TypedDict

from ..base import RoundState, ScoredHand
from ..cards import CardPlay as TrickPlay
from ..cards import CardTrick


class KaliTidiOptions(TypedDict):
    """The game's own options, complete: defaults resolved (`KaliTidi.game_options`)."""

    decks: int
    min_bid: int
    partner_rule: Literal["first", "last"]
    players: int
    target: int
    team_mode: Literal["teams", "random", "cards"]
    # The two team sizes in teams mode, else None.
    team_sizes: list[int] | None
    trump_card: Literal["none", "three_of_spades"]


class LastTrick(CardTrick):
    points: int


class KaliTidiResult(ScoredHand):
    bidder: int
    bid: int
    trump: str
    called: list[str]
    partners: list[int]
    bidding_side: list[int]
    other_side: list[int]
    bidding_points: int
    other_points: int
    made: bool
    hand_winners: list[int]


class KaliTidiState(RoundState[KaliTidiResult]):
    options: KaliTidiOptions
    seed: int
    host: int
    # Each seat's team (0 or 1); None in cards mode, where partners are called.
    teams: list[int] | None
    first_bidder: int
    # Who removes the zero-point cards that do not deal evenly, and how many.
    remover: int | None
    remove_count: int
    removed: list[str]
    hands: list[list[str]]
    # The seat to act; None while nobody acts in trick play.
    turn: int | None
    # Each seat's bid: None not yet asked, "pass" (PASSED), else the bid.
    bids: list[int | str | None]
    bid: int | None
    bidder: int | None
    called: list[str]
    # The bidder's partners revealed so far (cards mode).
    partners: list[int]
    trump: str | None
    trick: list[TrickPlay]
    tricks_played: int
    last_trick: LastTrick | None
    points_taken: list[int]
    tricks_taken: list[int]
    # Cards mode: each called card → the seats that played a copy of it, in order.
    plays_of_called: dict[str, list[int]]
    # A fixed deal for tests (checked when dealt), then None.
    deal: object
