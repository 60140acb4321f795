"""The reads every move and every view makes, in plain SQL.

Each GET of a view and each action needs the room, its seats (with the players' names)
and the hand in play. Through the ORM's query compiler these cost more Python time than
the database spends answering them, so the hot path uses these instead. They return
the same model instances the ORM would (fields the SQL does not select are deferred and
load on first use), so callers need not know the difference.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import connection, models, transaction
from django.utils.dateparse import parse_datetime

from accounts.models import User
from config import prepared_reads

from .codes import is_room_code
from .models import Room, Round, Seat

# Only what a seat's public facts need; any other field of the user loads on demand.
_USER_FIELDS = ("id", "username", "display_name")
_SEAT_USER_FIELD = Seat._meta.get_field("user")
_SEAT_ROOM_FIELD = Seat._meta.get_field("room")
_ROUND_ROOM_FIELD = Round._meta.get_field("room")


def _seat_columns() -> str:
    pairs = [f"'{f.attname}', s.\"{f.column}\"" for f in Seat._meta.concrete_fields]
    pairs += [f"'u_{f}', u.\"{f}\"" for f in _USER_FIELDS]
    return ", ".join(pairs)


def _table_sql() -> str:
    # One JSON document, so the statement's result has one column whatever migrations
    # add later: it stays valid as a prepared statement (config/prepared_reads.py).
    room, seat, round_, user = (m._meta.db_table for m in (Room, Seat, Round, User))
    return (
        "SELECT json_build_object('room', row_to_json(r), "
        f"'seats', (SELECT coalesce(json_agg(json_build_object({_seat_columns()}) ORDER BY s.\"index\"), '[]') "
        f'FROM "{seat}" s LEFT JOIN "{user}" u ON u.id = s.user_id WHERE s.room_id = r.id), '
        f"'round', (SELECT row_to_json(x) FROM (SELECT * FROM \"{round_}\" WHERE room_id = r.id "
        f"ORDER BY number DESC LIMIT 1) x))::text "
        f'FROM "{room}" r WHERE r.code = %s'
    )


_TABLE_SQL = {False: _table_sql(), True: _table_sql() + " FOR UPDATE OF r"}


def table(code: str, *, for_update: bool = False) -> tuple[Room, list[Seat], Round | None] | None:
    """The room, its seats (with users' names) and the hand in play, in one query.

    With `for_update` the room row is locked. The round is not locked separately: every
    write to a round happens under its room's lock, so holding that lock is enough.
    """
    if not is_room_code(code):
        return None
    if connection.vendor != "postgresql":
        # The embedded start on SQLite: the same answer through portable queries, read in
        # one transaction so that they see one snapshot. Outside it, a worker's commit
        # between them could pair a room's version with a later hand's state.
        with transaction.atomic():
            room = room_by_code(code, for_update=for_update)
            return None if room is None else (room, seats_with_users(room), latest_round(room, for_update=for_update))
    row = prepared_reads.fetch_one(_TABLE_SQL[for_update], [code])
    if row is None:
        return None
    # Parsed here, once, rather than by the driver: text is the cheapest way out of it.
    found = json.loads(row[0])
    room = _model_from(Room, found["room"])
    seats = [_seat_from(data, room) for data in found["seats"]]
    round_ = _model_from(Round, found["round"]) if found["round"] else None
    if round_ is not None:
        _ROUND_ROOM_FIELD.set_cached_value(round_, room)
    return room, seats, round_


def _model_from(model: type[models.Model], data: dict[str, Any]) -> Any:
    """A model instance from a row as PostgreSQL's JSON functions write it."""
    names, values = [], []
    for field in model._meta.concrete_fields:
        value = data[field.column] if field.column in data else data[field.attname]
        if isinstance(field, models.DateTimeField) and isinstance(value, str):
            value = parse_datetime(value)
        names.append(field.attname)
        values.append(value)
    return model.from_db(connection.alias, names, values)


def _seat_from(row: dict[str, Any], room: Room) -> Seat:
    seat = _model_from(Seat, row)
    _SEAT_ROOM_FIELD.set_cached_value(seat, room)
    if seat.user_id is not None:
        values = [row[f"u_{f}"] for f in _USER_FIELDS]
        _SEAT_USER_FIELD.set_cached_value(seat, User.from_db(connection.alias, list(_USER_FIELDS), values))
    return seat


def _lock_clause(for_update: bool) -> str:
    # SQLite has no row locks; its writes are serialized anyway.
    return " FOR UPDATE" if for_update and connection.features.has_select_for_update else ""


def room_by_code(code: str, *, for_update: bool = False) -> Room | None:
    if not is_room_code(code):
        return None
    sql = f'SELECT * FROM "{Room._meta.db_table}" WHERE code = %s'
    return next(iter(Room.objects.raw(sql + _lock_clause(for_update), [code])), None)


def seats_with_users(room: Room) -> list[Seat]:
    """The room's seats in order, each with its user's name loaded (one query)."""
    user_columns = ", ".join(f'u."{f}" AS "u_{f}"' for f in _USER_FIELDS)
    sql = (
        f'SELECT s.*, {user_columns} FROM "{Seat._meta.db_table}" s '
        f'LEFT JOIN "{User._meta.db_table}" u ON u.id = s.user_id WHERE s.room_id = %s ORDER BY s."index"'
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
    round_ = next(iter(Round.objects.raw(sql + _lock_clause(for_update), [room.pk])), None)
    if round_ is not None:
        _ROUND_ROOM_FIELD.set_cached_value(round_, room)
    return round_
