"""A room's end. However a room ends — its match over, abandoned (a player idle too
long, everyone away or gone before the start), closed by a moderator — the same facts
are written in the same way, by `room_end`."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from ..models import RoomStatus
from ..store import Table
from . import clock


def room_end(
    table: Table, status: RoomStatus, reason: str = "", *, seat: int | None = None, event: dict[str, Any] | None = None
) -> None:
    """End the room with `status`, and why (`reason`, public; `seat`: the seat whose
    player's idleness ended it, whom the view tells "you"): when it ended, the change
    counted, `event` logged in the hand in play, and nothing due in that hand any more.
    Expects the room lock held."""
    room, round_ = table.room, table.round
    room.status = status
    room.status_reason = reason
    room.status_seat = seat
    room.finished_at = timezone.now()
    table.mark(room, ["status", "status_reason", "status_seat", "finished_at"])
    table.touch()
    if event is not None:
        table.log(event, round_.number if round_ is not None else None)
    if round_ is not None:
        clock.stop(table, round_)
