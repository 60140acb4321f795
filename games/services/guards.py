"""What a table must be for a service to act on it: each guard raises the error the
client reads when it is not."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..errors import ServiceError
from ..models import RoomStatus
from ..store import Table


def require_open(table: Table) -> None:
    if table.room.status in (RoomStatus.CLOSED, RoomStatus.ABANDONED):
        # Translators: the status is the room's, as the API writes it: closed or abandoned.
        raise ServiceError("room_closed", _("This room is %(status)s.") % {"status": table.room.status}, 409)


def require_lobby(table: Table) -> None:
    require_open(table)
    if table.room.status != RoomStatus.LOBBY:
        raise ServiceError("already_started", _("The game has already started."), 409)


def require_playing(table: Table) -> None:
    require_open(table)
    if table.room.status != RoomStatus.PLAYING:
        detail = _("The game has not started.") if table.room.status == RoomStatus.LOBBY else _("The match is over.")
        raise ServiceError("not_playing", detail, 409)
