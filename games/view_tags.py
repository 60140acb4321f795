"""Reads (selectors) for conditional requests: what a viewer's answer from `GET state` or
`GET events` is made of, summed up as a tag, read in one small statement that never
touches the table's hand (its round, the largest row there is) nor runs the engine.

What the caller's view (`selectors.table_view`) is made of, and how the tag follows it:

- The table's rows: the room, its seats and its hand in play. Every write to them goes
  through `store.locked`, whose flush writes the room row too, moving at least one of
  its `version` (a change: `Table.touch`), `event_seq` (a logged event: a client seed
  changes no version but is logged) or `updated_at`: every service that writes a field
  of the room itself counts the change or logs it, and a block that writes only seats
  or the hand has the flush write `updated_at` (so that a write no counter counts moves
  the tag all the same). The three together change whenever any of those rows did.
- The seated players' names (`username`, `display_name`): their accounts' rows, written
  without the room (an admin's rename), so the statement reads them with the seats
  rather than trust a counter of the room's. The other fields of an account are no part
  of the view.
- The viewer: the view is the viewer's seat's, found by their account's id; the tag
  names the id, so that two people never share one (a seat changes hands only with a
  change of version).
- Nothing else: the view holds stored times, never the clock's, and the engines' `view`
  is a function of the hand's state and the seat.

A page of the event log is made of the events after `after` (appended, never changed,
numbered by the room's `event_seq`), filtered by the viewer's seat index (the private
events a seat may read), and of its query (`after`, `limit`, and the `Link` to the next
page that repeats the query).

The tag is a digest: it says nothing of what it sums up. Each tag also sums up the
answer's `variant` (its media type, and the query of a page), which the caller names.
"""

from __future__ import annotations

import base64
import hashlib
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

import orjson
from django.conf import settings
from django.db import connection
from django.db.models import OuterRef, Subquery

from accounts.models import User
from core import prepared

from .codes import is_room_code
from .models import Room, Seat
from .store import Table

# Changed whenever the answers change shape for the same data (a new field in the view,
# a new way of writing one): a tag from before then must not answer 304 after.
SHAPE = 1

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


class Marks(NamedTuple):
    """A room's change counters and the names of the people seated, in seat order
    (user id, username, display name; all None for a seat no person holds)."""

    version: int
    event_seq: int
    updated_at: datetime
    people: tuple[tuple[int | None, str | None, str | None], ...]


def state_tag(*, code: str, user: User, variant: str) -> str | None:
    """The tag of `user`'s view of the room as it stands, in one small statement; None
    where there is no such room."""
    marks = _marks(code)
    return None if marks is None else _state_digest(code, marks, user, variant)


def state_tag_of(*, table: Table, user: User, variant: str) -> str:
    """The tag of `user`'s view of a table already read (no query): the same as
    `state_tag` gives for that table."""
    people = tuple(
        (s.user_id, s.user.username, s.user.display_name) if s.user_id is not None and s.user is not None else _NOBODY
        for s in table.seats
    )
    room = table.room
    return _state_digest(room.code, Marks(room.version, room.event_seq, room.updated_at, people), user, variant)


def events_tag(*, code: str, user: User, after: int, limit: int, variant: str) -> str | None:
    """The tag of the page of the room's log `user` reads after `after`, at most `limit`
    events, in one small statement; None where there is no such room."""
    found = _events_marks(code, user)
    if found is None:
        return None
    event_seq, seat = found
    return events_tag_of(code=code, event_seq=event_seq, seat=seat, after=after, limit=limit, variant=variant)


def events_tag_of(*, code: str, event_seq: int, seat: int | None, after: int, limit: int, variant: str) -> str:
    """The tag of a page of the log read when the room's last event was `event_seq`, by
    the holder of seat `seat` (None: by anyone seated nowhere). Read the room before the
    events: a page then holds at least what its tag says."""
    return _digest(["events", code, event_seq, seat, after, limit, variant])


_NOBODY: tuple[None, None, None] = (None, None, None)


def _state_digest(code: str, marks: Marks, user: User, variant: str) -> str:
    moved = (marks.updated_at - _EPOCH) // _MICROSECOND  # exact, as a float of seconds is not
    people = [list(p) for p in marks.people]
    return _digest(["state", code, marks.version, marks.event_seq, moved, people, user.pk, variant])


def _digest(parts: list[Any]) -> str:
    data = orjson.dumps([SHAPE, *parts])
    return base64.urlsafe_b64encode(hashlib.blake2b(data, digest_size=16).digest()).rstrip(b"=").decode()


def _portable() -> bool:
    # As the table's read (games.store): the prepared statement on PostgreSQL, unless the
    # tests ask for the ORM's path there too.
    return connection.vendor != "postgresql" or bool(getattr(settings, "TABLE_STORE_PORTABLE", False))


def _marks(code: str) -> Marks | None:
    if not is_room_code(code):  # before any query: a path can carry anything
        return None
    if _portable():
        rows = list(
            Room.objects.filter(code=code)
            .order_by("seats__index")
            .values_list(
                "version",
                "event_seq",
                "updated_at",
                "seats__index",
                "seats__user_id",
                "seats__user__username",
                "seats__user__display_name",
            )
        )
        if not rows:
            return None
        version, event_seq, updated_at = rows[0][:3]
        people = tuple((r[4], r[5], r[6]) for r in rows if r[3] is not None)
        return Marks(version, event_seq, updated_at, people)
    row = prepared.fetch_one(_MARKS_SQL, [code])
    if row is None:
        return None
    version, event_seq, updated_at, people = orjson.loads(row[0])
    # ISO 8601 with the offset (the connection's time zone is UTC), as the table's read.
    return Marks(version, event_seq, datetime.fromisoformat(updated_at), tuple(tuple(p) for p in people))


def _events_marks(code: str, user: User) -> tuple[int, int | None] | None:
    if not is_room_code(code):
        return None
    if _portable():
        seat = Seat.objects.filter(room=OuterRef("pk"), user=user).values("index")[:1]
        found: tuple[int, int | None] | None = (
            Room.objects.filter(code=code).annotate(seat=Subquery(seat)).values_list("event_seq", "seat").first()
        )
        return found
    row = prepared.fetch_one(_EVENTS_MARKS_SQL, [user.pk, code])
    return None if row is None else (row[0], row[1])


def _column(model: type[Any], name: str) -> str:
    return f'"{model._meta.get_field(name).column}"'


def _marks_sql() -> str:
    # One JSON array, as the table's read is one JSON document (games.store): the
    # statement's one column stays valid as a prepared statement whatever migrations add.
    room, seat, user = (f'"{m._meta.db_table}"' for m in (Room, Seat, User))
    index, seat_user, seat_room = _column(Seat, "index"), _column(Seat, "user"), _column(Seat, "room")
    names = f"u.{_column(User, 'username')}, u.{_column(User, 'display_name')}"
    return (
        f"SELECT json_build_array(r.{_column(Room, 'version')}, r.{_column(Room, 'event_seq')}, "
        f"r.{_column(Room, 'updated_at')}, "
        f"(SELECT coalesce(json_agg(json_build_array(s.{seat_user}, {names}) ORDER BY s.{index}), '[]') "
        f"FROM {seat} s LEFT JOIN {user} u ON u.id = s.{seat_user} WHERE s.{seat_room} = r.id))::text "
        f"FROM {room} r WHERE r.{_column(Room, 'code')} = %s"
    )


def _events_marks_sql() -> str:
    room, seat = (f'"{m._meta.db_table}"' for m in (Room, Seat))
    return (
        f"SELECT r.{_column(Room, 'event_seq')}, (SELECT s.{_column(Seat, 'index')} FROM {seat} s "
        f"WHERE s.{_column(Seat, 'room')} = r.id AND s.{_column(Seat, 'user')} = %s) "
        f"FROM {room} r WHERE r.{_column(Room, 'code')} = %s"
    )


_MARKS_SQL = _marks_sql()
_EVENTS_MARKS_SQL = _events_marks_sql()
