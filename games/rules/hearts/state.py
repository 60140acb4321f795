"""The shape of a Hearts hand's state, as the engine keeps it and the database stores it.

Plain JSON-able data, lists indexed by seat. The names of the phases are the engine's
(PASS, PLAY, MOON_CHOICE and the shared between-hands ones).
"""

from __future__ import annotations

from typing import Literal, TypedDict

from ..base import DealerRoundState, ScoredHand
from ..cards import CardPlay as TrickPlay
from ..cards import CardTrick as LastTrick

# "hold" passes nothing; "funky" passes one card to each other seat.
PassDirection = Literal["left", "right", "across", "hold", "funky"]
FourthHand = Literal["hold", "funky"]


class HeartsOptions(TypedDict):
    """The game's own options, complete (`Hearts.game_options`)."""

    end_when: Literal["reached", "exceeded"]
    fourth_hand: FourthHand
    jack_of_diamonds: int
    lead_any_club: bool
    moon: Literal["others_plus_26", "shooter_choice", "sweedo"]
    no_trick_bonus: int
    queen_breaks_hearts: bool
    target: int


# Cards one seat passed to another: `from` is a Python keyword, hence this spelling.
Received = TypedDict("Received", {"from": int, "cards": list[str]})

# What a seat chose to pass: its cards (sorted), or in a funky pass seat (as a JSON
# key, a string) → card.
PassChoice = list[str] | dict[str, str]


class MoonShot(TypedDict):
    shooter: int
    # None until the shooter chooses (shooter_choice and sweedo moons).
    choice: str | None


class HeartsResult(ScoredHand):
    tricks: list[int]
    moon: MoonShot | None
    no_trick: list[int]


class HeartsState(DealerRoundState[HeartsResult]):
    options: HeartsOptions
    pass_direction: PassDirection
    hands: list[list[str]]
    passes: list[PassChoice | None]
    # What each seat was passed: one Received, or in a funky pass one per giver.
    received: list[Received | list[Received] | None]
    trick: list[TrickPlay]
    # The seat to play; None outside trick play.
    turn: int | None
    tricks_played: int
    last_trick: LastTrick | None
    hearts_broken: bool
    taken: list[list[str]]
    tricks_taken: list[int]
    points_taken: list[int]
    moon_shooter: int | None
