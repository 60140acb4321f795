"""What moderators do to a table. moderation.services calls these and records who did
it and why; the reasons given here are public, the table's log shows them."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from accounts.models import User

from ..errors import ServiceError, not_seated
from ..models import EndCause, RoomStatus, Seat
from ..store import Table
from . import ending, handover, timekeeper
from .guards import require_lobby, require_open
from .lobby import host_pass_on, seat_vacate


def room_close(*, code: str, reason: str) -> Table:
    """Close a room for good: nobody may act, everyone sees why."""
    with timekeeper.changing(code) as table:
        room = table.room
        if room.status in (RoomStatus.CLOSED, RoomStatus.ABANDONED, RoomStatus.FINISHED):
            # Translators: the status is the room's, as the API writes it: closed, abandoned or finished.
            raise ServiceError("room_closed", _("This room is already %(status)s.") % {"status": room.status}, 409)
        ending.room_end(table, RoomStatus.CLOSED, EndCause.MODERATOR, words=reason)
        return table


def seat_give_to_bot(*, code: str, index: int, reason: str = "", banned: bool = False) -> Seat:
    """Take a seat from its player and give it to a computer player, who plays on.

    The reason is public: the table's log shows it to everyone, its former player too
    (`banned` says the player was banned, not only moved out of this room).
    """
    with timekeeper.changing(code) as table:
        room = table.room
        require_open(table)
        if room.status == RoomStatus.FINISHED:
            raise ServiceError("not_playing", _("The match is over."), 409)
        seat = table.seat_at(index)
        # A seat a computer player already holds for an idle player is taken from them
        # for good all the same (they may no longer reclaim it).
        if seat is None or seat.user is None:
            raise ServiceError("invalid", _("That seat has no human player."), 400, "seat")
        event: dict[str, Any] = {"type": "seat_to_bot", "seat": index, "name": seat.user.shown_name}
        if reason:
            event["reason"] = reason
        if banned:
            event["banned"] = True
        leaving = seat.user_id
        handover.seat_to_bot(table, seat, event, keep_owner=False)
        host_pass_on(table, leaving)
        handover.end_if_everyone_away(table, index)
        return seat


def seat_remove(*, code: str, user: User, reason: str, banned: bool = False) -> Seat:
    """Take a lobby seat from its player (a moderator's decision); the log says why."""
    with timekeeper.changing(code) as table:
        require_lobby(table)
        seat = table.seat_of(user)
        if seat is None:
            raise not_seated()
        event: dict[str, Any] = {"type": "removed", "seat": seat.index, "name": user.shown_name, "reason": reason}
        if banned:
            event["banned"] = True
        seat_vacate(table, seat, event)
        return seat
