"""The reads every move and every view makes, in plain SQL.

Each GET of a view and each action needs the room, its seats (with the players' names)
and the hand in play. Through the ORM's query compiler these cost more Python time than
the database spends answering them, so the hot path uses these instead. They return
the same model instances the ORM would (fields the SQL does not select are deferred and
load on first use), so callers need not know the difference.
"""

from __future__ import annotations

from django.db import connection

from accounts.models import User

from .models import Room, Round, Seat

# Only what a seat's public facts need; any other field of the user loads on demand.
_USER_FIELDS = ("id", "username", "display_name")
_SEAT_USER_FIELD = Seat._meta.get_field("user")
_SEAT_ROOM_FIELD = Seat._meta.get_field("room")
_ROUND_ROOM_FIELD = Round._meta.get_field("room")


def room_by_code(code: str, *, for_update: bool = False) -> Room | None:
    sql = f'SELECT * FROM "{Room._meta.db_table}" WHERE code = %s'
    return next(iter(Room.objects.raw(sql + (" FOR UPDATE" if for_update else ""), [code])), None)


def seats_with_users(room: Room) -> list[Seat]:
    """The room's seats in order, each with its user's name loaded (one query)."""
    user_columns = ", ".join(f'u."{f}" AS "u_{f}"' for f in _USER_FIELDS)
    sql = (
        f'SELECT s.*, {user_columns} FROM "{Seat._meta.db_table}" s '
        f'LEFT JOIN "{User._meta.db_table}" u ON u.id = s.user_id WHERE s.room_id = %s ORDER BY s.index'
    )
    seats = list(Seat.objects.raw(sql, [room.pk]))
    for seat in seats:
        _SEAT_ROOM_FIELD.set_cached_value(seat, room)
        if seat.user_id is not None:
            values = [getattr(seat, f"u_{f}") for f in _USER_FIELDS]
            _SEAT_USER_FIELD.set_cached_value(seat, User.from_db(connection.alias, list(_USER_FIELDS), values))
    return seats


def latest_round(room: Room, *, for_update: bool = False) -> Round | None:
    sql = f'SELECT * FROM "{Round._meta.db_table}" WHERE room_id = %s ORDER BY number DESC LIMIT 1'
    round_ = next(iter(Round.objects.raw(sql + (" FOR UPDATE" if for_update else ""), [room.pk])), None)
    if round_ is not None:
        _ROUND_ROOM_FIELD.set_cached_value(round_, room)
    return round_
