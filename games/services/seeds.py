"""Players' seeds: each seated player's public part in the shuffle of the next deal
(games.rules.fairness).

A seed is set without counting a change of the room (its version stays) and without a
notice to the room's sockets: it changes nothing anyone may do, so it must not turn the
others' pending actions (`next_round`, sent with the version they read) into conflicts,
nor make every socket refetch. It is public all the same, in the seat (`seats[i].
client_seed`, read by anyone's next fetch) and in the log (the `client_seed` event, read
with the room's next change); the hand takes the seeds its seats hold when it begins.
The API limits how often a seat may set one (THROTTLE_CLIENT_SEED)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts.models import User

from ..errors import ServiceError, not_seated
from ..models import RoomStatus, Seat
from ..rules import fairness
from . import timekeeper
from .guards import require_open


def client_seed_set(*, code: str, user: User, client_seed: str) -> Seat:
    """Set the caller's client seed for the next deal: in the lobby, or between hands
    while the next hand's server seed is committed and its cards not yet dealt."""
    if not fairness.is_client_seed(client_seed):
        raise ServiceError(
            "invalid",
            _("A client seed is 0 to %(max)s printable ASCII characters.") % {"max": fairness.CLIENT_SEED_MAX},
            400,
            "client_seed",
        )
    with timekeeper.changing(code) as table:
        require_open(table)
        seat = table.seat_of(user)
        if seat is None:
            raise not_seated()
        room = table.room
        if room.status == RoomStatus.FINISHED:
            raise ServiceError("not_playing", _("The match is over."), 409)
        if not room.next_server_seed:
            # A hand is in play: its deal is fixed, and the next hand's seed is not yet
            # drawn, which must come before the seeds it is mixed with.
            # (Kali Tidi's cards are dealt once some are left out, but its seeds are
            # those set when the hand began, like every game's.)
            raise ServiceError(
                "already_dealt", _("This hand has begun and its seeds are fixed; set yours between hands."), 409
            )
        if seat.client_seed != client_seed:
            seat.client_seed = client_seed
            table.mark(seat, ["client_seed"])
            table.log({"type": "client_seed", "seat": seat.index, "client_seed": client_seed})
        return seat
