"""A room's end. However a room ends — its match over, abandoned (a player idle too
long, everyone away or gone before the start), closed by a moderator — the same facts
are written in the same way, by `room_end`.

Why it ended is kept twice: as a code (`status_cause`, with the idle player's seat and
a moderator's own words), which every reader's client words in that reader's language,
and in the server's own English words (`status_reason`), for moderators and for clients
that show the server's words as they are."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from ..models import EndCause, RoomStatus
from ..store import Table
from . import clock

EVERYONE_AWAY = "Every seat is played by a computer player; the match was abandoned."
EVERYONE_LEFT = "Everyone left before the start."


def reason_words(cause: EndCause, *, name: str = "", words: str = "") -> str:
    """The server's English words for `cause`: `name` the idle player's, `words` the
    moderator's own."""
    if cause == EndCause.IDLE:
        return f"{name} did not play in time; the match was abandoned."
    if cause == EndCause.EVERYONE_AWAY:
        return EVERYONE_AWAY
    if cause == EndCause.EVERYONE_LEFT:
        return EVERYONE_LEFT
    return f"Closed by a moderator: {words}"


def room_end(
    table: Table,
    status: RoomStatus,
    cause: EndCause | None = None,
    *,
    seat: int | None = None,
    name: str = "",
    words: str = "",
    logged: dict[str, Any] | None = None,
) -> None:
    """End the room with `status`, and why (`cause`, public; `seat`: the idle player's,
    whom the view tells "you", named `name`; `words`: a moderator's own): when it ended,
    the change counted, the end logged in the hand in play (`abandoned` or `closed`,
    with `logged`'s facts besides), and nothing due in that hand any more. A match
    played out (no cause) logs nothing here: its last hand said so. Expects the room
    lock held."""
    room, round_ = table.room, table.round
    reason = "" if cause is None else reason_words(cause, name=name, words=words)
    room.status = status
    room.status_reason = reason
    room.status_cause = cause or ""
    room.status_seat = seat if cause == EndCause.IDLE else None
    room.status_words = words
    room.finished_at = timezone.now()
    table.mark(room, ["status", "status_reason", "status_cause", "status_seat", "status_words", "finished_at"])
    table.touch()
    if cause is not None:
        event: dict[str, Any] = {"type": "closed" if status == RoomStatus.CLOSED else "abandoned", **(logged or {})}
        event.update(reason=reason, cause=str(cause))
        if words:
            event["words"] = words
        table.log(event, round_.number if round_ is not None else None)
    if round_ is not None:
        clock.stop(table, round_)
