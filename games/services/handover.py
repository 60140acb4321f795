"""A seat handed to a computer player in a match under way: the one way it is done,
whether a moderator decides it, a ban forces it, or the player ran past
`abandon_seconds` in a room whose `on_abandon` is `bot`.

A moderator's or a ban's hand-over is for good: the seat forgets its person. An idle
player's is not: the seat keeps its person (`user`, still shown as the seat's owner)
while a computer player plays it (`is_bot`), until that person reclaims it.
"""

from __future__ import annotations

from typing import Any

from ..models import EndCause, RoomStatus, Seat
from ..store import Table
from . import ending


def seat_to_bot(table: Table, seat: Seat, event: dict[str, Any], *, keep_owner: bool) -> None:
    """A computer player takes `seat`; `event` tells the table. Expects the room lock
    held; the caller passes the host's role on when the seat's person leaves for good,
    lets the computer player move and plans the clock."""
    if not keep_owner:
        seat.user = None
    seat.is_bot = True
    table.mark(seat, ["user", "is_bot"])
    table.touch()
    table.log(event)


def everyone_away(table: Table) -> bool:
    """Every seat is played by a computer player: the match plays for nobody."""
    return all(s.is_bot for s in table.seats)


def end_if_everyone_away(table: Table, seat: int) -> bool:
    """Abandon the match when `seat`'s hand-over left no person playing in it (the
    computer players would otherwise play it out for nobody); whether it ended. Expects
    the room lock held."""
    if not everyone_away(table):
        return False
    ending.room_end(table, RoomStatus.ABANDONED, EndCause.EVERYONE_AWAY, logged={"seat": seat, "idle": False})
    return True
