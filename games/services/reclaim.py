"""A player takes back the seat a computer player held for them while they were away
(`on_abandon: bot`)."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User

from ..errors import ServiceError, not_seated
from ..models import Room
from ..signals import seat_handed_over
from ..store import Table
from . import timekeeper
from .guards import require_playing


def seat_reclaim(*, code: str, user: User) -> Table:
    """The caller's seat is theirs to play again, from now.

    Only the seat's own person may: anyone else has no seat of theirs to reclaim
    (`not_seated`, which names nobody). Expects nothing held; takes the room lock.
    """
    with timekeeper.changing(code) as table:
        seat = table.seat_of(user)
        if seat is None:
            raise not_seated()
        require_playing(table)
        if not seat.is_bot:
            raise ServiceError("nothing_to_reclaim", _("You are playing your seat yourself."), 409)
        seat.is_bot = False
        seat.last_acted_at = timezone.now()
        table.mark(seat, ["is_bot", "last_acted_at"])
        # Coming back is acting: their waiting time starts again from nothing, and a
        # player who comes back to a turn of theirs gets a whole turn, not what is left
        # of the computer player's.
        table.turns.note_action(seat.index, own=True)
        table.touch()
        table.log({"type": "seat_reclaimed", "seat": seat.index, "name": user.shown_name})
        seat_handed_over.send(sender=Room, room=table.room, seat=seat.index, user=user, kind="reclaimed")
        return table
