"""A rematch: once a match is over (finished, or abandoned), its people may ask to play
again with the same players. Each person seated agrees in turn; when the last of them
agrees, a new room with the same game, options and computer players is made and
started at once, everyone in it, and the old room points to it (`rematch_code`, and a
public `rematch` event). A room a moderator closed has no rematch."""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts.models import User

from ..errors import ServiceError, not_seated
from ..models import Room, RoomStatus
from ..rules.base import LOBBY_TEAMS
from ..store import Table
from . import lobby, timekeeper


def rematch_agree(*, code: str, user: User) -> Table:
    """The caller wants a rematch with the same players; the last to agree makes it.
    Agreeing again changes nothing. Expects nothing held; takes the room lock, and the
    new room's as the rematch is made."""
    with timekeeper.changing(code) as table:
        room = table.room
        seat = table.seat_of(user)
        if seat is None:
            raise not_seated()
        if room.status == RoomStatus.CLOSED:
            raise ServiceError("room_closed", _("This room was closed: it has no rematch."), 409)
        if room.status not in (RoomStatus.FINISHED, RoomStatus.ABANDONED):
            raise ServiceError("match_not_over", _("A rematch can be asked for once the match is over."), 409)
        if room.rematch_code or seat.index in room.rematch_agreed:
            return table
        room.rematch_agreed = sorted([*room.rematch_agreed, seat.index])
        table.mark(room, ["rematch_agreed"])
        table.touch()
        table.log({"type": "rematch_agreed", "seat": seat.index, "name": user.shown_name})
        people = [s for s in table.seats if s.user_id is not None]
        if all(s.index in room.rematch_agreed for s in people):
            new = _rematch_make(table, host=user)
            room.rematch_code = new.code
            table.mark(room, ["rematch_code"])
            table.log({"type": "rematch", "room": new.code})
        return table


def _rematch_make(table: Table, *, host: User) -> Room:
    """The new room: the same game, options, name and visibility; the people in the
    order of their seats (the one who agreed last hosts, as the one who made it), the
    computer players where they were; started. Where the new room's players choose
    their teams in the lobby, everyone keeps the team they played in; where the engine
    sets them as the match starts (or nobody has one), everyone joins without a team,
    as anyone else would (the old seats' teams were the engine's, not a choice)."""
    room = table.room
    people = [s for s in table.seats if s.user is not None]
    first = next(s for s in people if s.user_id == host.pk)
    new = lobby.room_create(host=host, game=room.game, options=room.asked_options, name=room.name, public=room.public)
    choosing = table.rules.team_choice(new.options) == LOBBY_TEAMS

    def team(seat_team: int | None) -> int | None:
        return seat_team if choosing else None

    if team(first.team) not in (None, 0):  # the maker sits in team 0 unless they played in another
        lobby.room_join(code=new.code, user=host, team=first.team)
    for seat in table.seats:
        if seat.user is not None and seat.user_id != host.pk:
            lobby.room_join(code=new.code, user=seat.user, team=team(seat.team))
        elif seat.user is None:
            lobby.room_add_bot(code=new.code, user=host, team=team(seat.team))
    lobby.room_start(code=new.code, user=host)
    return new
