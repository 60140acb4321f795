"""The shape of a Duel hand's state: plain JSON-able data, lists indexed by seat."""

from __future__ import annotations

from typing import TypedDict

from games.rules.base import DealerRoundState, ScoredHand
from games.rules.cards import CardPlay as TrickPlay
from games.rules.cards import CardTrick as LastTrick


class DuelOptions(TypedDict):
    players: int
    hands: int


class DuelState(DealerRoundState[ScoredHand]):
    options: DuelOptions
    hands: list[list[str]]
    trick: list[TrickPlay]
    # The seat to play; None once the last trick is in.
    turn: int | None
    tricks_played: int
    last_trick: LastTrick | None
    tricks_taken: list[int]
    taken: list[list[str]]
