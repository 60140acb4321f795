"""What a change of a room has done to its turns so far: who was to act when they were
last settled, which seats acted since, whose turn began. A table (games.store) carries
them for the block it is locked or read for; games.services.timekeeper keeps the time by
them, and tells the people whose turn began once the change commits."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .models import Room, Round


@dataclass
class TurnMarks:
    # Who was to act as the table was read, or as the clock last settled the turns: the
    # room's status, the hand and its state.
    settled: tuple[str, Round | None, Any]
    # The room's status as read: its people are told when a match they play ends.
    status_read: str
    # The seats that acted since the last settle, each with whether its person acted
    # themself.
    acted: dict[int, bool] = field(default_factory=dict)
    # The seats whose person's turn began in this block, to be told once it commits.
    begun: set[int] = field(default_factory=set)
    # The seats (computer players' too) whose turn began in this block before its end.
    started: set[int] = field(default_factory=set)
    # Whether the block's time was kept finally.
    kept: bool = False

    @classmethod
    def as_read(cls, room: Room, round_: Round | None) -> TurnMarks:
        return cls(settled=(room.status, round_, None if round_ is None else round_.state), status_read=room.status)

    def note_action(self, seat: int, *, own: bool) -> None:
        """`seat` acted (`own`: its person themself, not the server for them): a seat
        that is waited for again begins a new turn."""
        self.acted[seat] = self.acted.get(seat, False) or own
