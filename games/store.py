"""A table: the room, its seats (with the players' names), the hand in play, the game's
rules and who is to act. The one way to read a room for play, to lock it for a change
and to write that change.

- `table(code)` reads it; `locked(code)` locks the room row first, in a transaction,
  and writes every change made to the table in one flush when the block ends (nothing
  when it raises: the transaction rolls back). Every write to a room, its seats, rounds,
  actions and events happens under that lock, so holding it is enough for all of them
  (a read that had to wait for the lock reads again: `_fetch`).
- The hand in play is the room's latest round (`rounds_latest_first`, the one order
  every read of it uses).
- The read carries the end of the server's last recorded outage (`uptime.Outage`), so
  that the clock knows without another query whether it owes the players time.
- On PostgreSQL the read is one prepared statement returning one JSON document and the
  flush one round trip (`core.write_batch`); elsewhere (SQLite in the embedded start),
  or with `TABLE_STORE_PORTABLE`, the same through portable ORM queries.

Services change the loaded objects and tell the table what changed (`mark`, `add`,
`log`, `touch`); they never call `.save()` on a room, seat or round themselves.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import orjson
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, models, transaction
from django.db.models import Max, QuerySet
from django.db.models.base import ModelState
from django.utils import timezone

from accounts import selectors as accounts
from accounts.models import User
from core import prepared
from core.write_batch import WriteBatch
from uptime.models import Outage

from . import live, rules
from .codes import is_room_code
from .errors import not_found
from .models import PUBLIC, Event, Room, Round, Seat
from .rules.base import Event as RuleEvent
from .rules.base import Game
from .signals import table_committed
from .turn_marks import TurnMarks

logger = logging.getLogger(__name__)

# Only what a seat's public facts and its play need (a forced play's setting, read at
# every move); any other field of the user loads on demand.
_USER_FIELDS = ("id", "username", "display_name", "auto_play_forced")
_SEAT_USER_FIELD = Seat._meta.get_field("user")
_SEAT_ROOM_FIELD = Seat._meta.get_field("room")
_ROUND_ROOM_FIELD = Round._meta.get_field("room")


class Table:
    """One room as a game is played at it. Built by `table()` or `locked()` only."""

    def __init__(
        self,
        room: Room,
        seats: list[Seat],
        round_: Round | None,
        writes: WriteBatch | None,
        outages_until: datetime | None = None,
    ) -> None:
        self.room = room
        self.seats = seats
        self.round = round_
        self.rules: Game = rules.get(room.game)
        self._writes = writes
        self._to_act: list[int] = []
        self._to_act_of: Any = None
        # The end of the last outage the server recorded (uptime.Outage), read with the
        # table: the clocks owe players any outage since their hand's `outages_until`.
        self.outages_until = outages_until
        # What this block has done to the turns, for the timekeeper (games.turn_marks).
        self.turns = TurnMarks.as_read(room, round_)
        # The clock as the table was read: for a locked table, once its lock was held
        # (the timekeeper keeps a change's time by it, unless a test sets it).
        self.now: datetime = timezone.now()
        # The events this block logs: each carries the version the block commits with.
        self._logged: list[Event] = []
        # What the block's announcement tells the room's sockets: the log's end as read,
        # and every event the block logged after it (games/view_push.py).
        self.seq_read = room.event_seq
        self.logged: list[Event] = []
        # Each viewer's view as the table stands (selectors.seat_view), by seat (None:
        # anyone not seated): a move's answer and the mover's pushed view are made once.
        # Every change through this class forgets them.
        self.views: dict[int | None, dict[str, Any]] = {}
        self._announcing = False
        # With TABLE_STORE_CHECK_WRITES (the tests), the values each row had when read, to
        # prove at the flush that every field changed was also named to `mark`.
        self._read_as: list[tuple[models.Model, dict[str, Any]]] = []
        self._check_writes = writes is not None and bool(getattr(settings, "TABLE_STORE_CHECK_WRITES", False))
        if self._check_writes:
            for obj in [room, *seats, *([round_] if round_ is not None else [])]:
                self._remember(obj)

    # -- reading ------------------------------------------------------------------

    @property
    def to_act(self) -> list[int]:
        """The seats the engine waits for in the hand in play (asked once per state)."""
        state = None if self.round is None else self.round.state
        if state is None:
            return []
        if state is not self._to_act_of:
            # The engines never change a state in place: a new state is a new object.
            self._to_act, self._to_act_of = self.rules.to_act(state), state
        return self._to_act

    def seat_of(self, user: User | None) -> Seat | None:
        if user is None or user.pk is None:
            return None
        return next((s for s in self.seats if s.user_id == user.pk), None)

    def seat_at(self, index: int) -> Seat | None:
        return next((s for s in self.seats if s.index == index), None)

    @property
    def bots(self) -> frozenset[int]:
        return frozenset(s.index for s in self.seats if s.is_bot)

    # -- changing (under the lock) -------------------------------------------------

    @property
    def writes(self) -> WriteBatch:
        if self._writes is None:
            raise RuntimeError(f"table {self.room.code} was read without its lock; use store.locked()")
        return self._writes

    def mark(self, obj: models.Model, fields: list[str]) -> None:
        """Mark these fields of this room, seat or round changed: they are written at the
        flush, not now (unlike a model's `save`). Only the fields named are written: a
        move's UPDATEs stay small (the room's options, the round's carry are not
        rewritten on every move)."""
        self.views.clear()
        self.writes.update(obj, fields)

    def add(self, *objs: models.Model) -> None:
        """Insert these rows at the flush."""
        self.views.clear()
        self.writes.insert(*objs)

    def touch(self) -> None:
        """Count a change: clients holding an older version must refetch (and are told
        so on the room's WebSocket once the change commits)."""
        self.room.version += 1
        self.mark(self.room, ["version", "updated_at"])
        if not self._announcing:
            self._announcing = True
            transaction.on_commit(self._announce)

    def _announce(self) -> None:
        """Once the change commits, as the table stands then: each viewer's view first
        (whoever answers `table_committed`: games/view_push.py), then the room's notice,
        once per transaction however many changes it made."""
        self._announcing = False
        notices: list[tuple[str, dict[str, Any]]] = []
        for receiver, answer in table_committed.send_robust(sender=Table, table=self):
            if isinstance(answer, Exception):  # the room's notice goes out all the same
                logger.error("%s could not tell room %s's viewers", receiver, self.room.code, exc_info=answer)
            else:
                notices.extend(answer)
        live.announce(notices, self.room.code, self.room.version, self.room.event_seq)

    def log(self, data: dict[str, Any], round_number: int | None = None, visible_to: list[int] | None = None) -> None:
        """Append one event to the room's log."""
        self.log_events(round_number, [RuleEvent(data, visible_to)])

    def log_events(self, round_number: int | None, events: list[RuleEvent]) -> None:
        """Append the engine's events to the room's log, numbered in order."""
        for event in events:
            self.room.event_seq += 1
            row = Event(
                room=self.room,
                seq=self.room.event_seq,
                round_number=round_number,
                version=self.room.version,
                data=event.data,
                visible_to=event.visible_to,
                audience=PUBLIC if event.visible_to is None else sum(1 << s for s in set(event.visible_to)),
            )
            self._logged.append(row)
            self.logged.append(row)
            self.add(row)
        self.mark(self.room, ["event_seq"])

    def begin_round(self, round_: Round) -> None:
        """Make `round_` the hand in play. Its row is inserted at once: the actions that
        follow in this request refer to it by its id (once a hand, not once a move)."""
        round_.room = self.room
        round_.save(force_insert=True)
        self.round = round_
        self.views.clear()
        if self._check_writes:
            self._remember(round_)

    def flush(self) -> None:
        """Write what changed (`locked` and `created` call it as their block ends).

        Whatever else it writes, it writes the room row too: a table read that waited for
        the lock tells by the room row's version that it must read again (`_fetch`).
        """
        if self.writes.pending():
            if self.writes.fields_to_write(self.room) == set():
                self.mark(self.room, ["updated_at"])
        # An event's version is the room's once its change commits, whether the block
        # counted the change before or after logging it: the version at which a reader
        # first sees the event.
        for row in self._logged:
            row.version = self.room.version
        self._logged.clear()
        for obj, before in self._read_as:
            written = self.writes.fields_to_write(obj)
            if written is None:
                continue
            marked = {f.attname for f in obj._meta.concrete_fields if f.name in written or f.attname in written}
            forgotten = {name for name, value in before.items() if getattr(obj, name) != value} - marked
            if forgotten:
                raise AssertionError(f"{type(obj).__name__} {obj.pk}: {sorted(forgotten)} changed, never marked")
        self.writes.flush()

    def _remember(self, obj: models.Model) -> None:
        values = {f.attname: copy.deepcopy(getattr(obj, f.attname)) for f in obj._meta.concrete_fields}
        self._read_as.append((obj, values))


# A room's hand in play is its latest round, the one numbered highest: every read of
# it orders its rounds by this, descending (`rounds_latest_first`, the table's statement).
_ROUND_ORDER = "number"


def rounds_latest_first(room: Any) -> QuerySet[Round]:
    """A room's rounds, the latest (the hand in play) first. `room`: a room, its id, or
    an `OuterRef` to one (a subquery per room)."""
    return Round.objects.filter(room=room).order_by(f"-{_ROUND_ORDER}")


def _portable() -> bool:
    return connection.vendor != "postgresql" or bool(getattr(settings, "TABLE_STORE_PORTABLE", False))


def table(code: str) -> Table | None:
    """The table as it stands, for reading (a view, the event log's viewer)."""
    return _load(code, lock=False, writes=None)


def table_and_token_user(code: str, key: str) -> tuple[Table | None, User | None]:
    """The table as it stands, for reading, and the account whose token `key` is (active
    or not; None for an unknown token): on PostgreSQL in one statement, so that an API
    call that reads the table signs in on the same round trip."""
    if not is_room_code(code) or _portable():
        return _load(code, lock=False, writes=None), accounts.user_for_token(key=key)
    row = prepared.fetch_one(_TOKEN_TABLE_SQL, [accounts.token_digest(key), code])
    found: dict[str, Any] = orjson.loads(row[0]) if row else {}
    user = accounts.user_from_json(found["user"]) if found.get("user") else None
    return (_built(found["table"], None) if found.get("table") else None), user


@contextmanager
def locked(code: str) -> Iterator[Table]:
    """The table with its room locked until the transaction ends; the changes made to it
    are written when the block ends. ServiceError `not_found` for an unknown room."""
    with transaction.atomic():
        writes = WriteBatch(batched=not _portable())
        found = _load(code, lock=True, writes=writes)
        if found is None:
            raise not_found()
        yield found
        found.flush()


def room_insert(room: Room) -> bool:
    """Insert a new room at once (its code must be won before anything refers to it);
    False when another room has the code."""
    try:
        with transaction.atomic():
            room.save(force_insert=True)
    except IntegrityError:
        return False
    return True


@contextmanager
def created(room: Room, seats: list[Seat]) -> Iterator[Table]:
    """A new room's table, once `room_insert` has won its code: the seats and what
    follows are written when the block ends. Use in a transaction."""
    writes = WriteBatch(batched=not _portable())
    for seat in seats:
        seat.room = room
    writes.insert(*seats)
    table = Table(room, seats, None, writes)
    yield table
    table.flush()


def _load(code: str, *, lock: bool, writes: WriteBatch | None) -> Table | None:
    if not is_room_code(code):  # before any query: a path can carry anything
        return None
    if _portable():
        # Three portable queries, in one transaction so that they see one snapshot:
        # outside it, a worker's commit between them could pair a room's version with a
        # later hand's state.
        with transaction.atomic(savepoint=False):
            rooms = Room.objects.filter(code=code)
            room = (rooms.select_for_update() if lock else rooms).first()
            if room is None:
                return None
            seats = list(Seat.objects.filter(room=room).select_related("user").order_by("index"))
            round_ = rounds_latest_first(room).first()
            outages_until = Outage.objects.aggregate(until=Max("ended_at"))["until"]
    else:
        found = _fetch(code, lock=lock)
        return None if found is None else _built(found, writes)
    return _assembled(room, seats, round_, writes, outages_until)


def _built(found: dict[str, Any], writes: WriteBatch | None) -> Table:
    """The table from the statement's JSON document."""
    room = _model_from(Room, found["room"])
    seats = [_seat_from(data) for data in found["seats"]]
    round_ = _model_from(Round, found["round"]) if found["round"] else None
    outages_until = datetime.fromisoformat(found["outages_until"]) if found["outages_until"] else None
    return _assembled(room, seats, round_, writes, outages_until)


def _assembled(
    room: Room, seats: list[Seat], round_: Round | None, writes: WriteBatch | None, outages_until: datetime | None
) -> Table:
    for seat in seats:
        _SEAT_ROOM_FIELD.set_cached_value(seat, room)
    if round_ is not None:
        _ROUND_ROOM_FIELD.set_cached_value(round_, room)
    return Table(room, seats, round_, writes, outages_until)


def _fetch(code: str, *, lock: bool) -> dict[str, Any] | None:
    row = prepared.fetch_one(_TABLE_SQL[lock], [code])
    if row is None:
        return None
    # Parsed here, once, rather than by the driver: text is the cheapest way out of it.
    found: dict[str, Any] = orjson.loads(row[0])
    if lock and found["locked"] != found["seen"]:
        # The statement waited for the room's lock while another transaction changed the
        # table: PostgreSQL hands it the room row as that one left it, but its seats and
        # round as they were when the statement began. Now that the lock is held, the
        # same read sees everything (every locked write updates the room row: Table.flush).
        return _fetch(code, lock=lock)
    return found


def _seat_columns() -> str:
    pairs = [f"'{f.attname}', s.\"{f.column}\"" for f in Seat._meta.concrete_fields]
    pairs += [f"'u_{f}', u.\"{f}\"" for f in _USER_FIELDS]
    return ", ".join(pairs)


def _table_sql(lock: bool) -> str:
    # One JSON document, so the statement's result has one column whatever migrations
    # add later: it stays valid as a prepared statement (core/prepared.py).
    return f'SELECT {_table_json(lock)}::text FROM "{Room._meta.db_table}" r WHERE r.code = %s' + (
        " FOR UPDATE OF r" if lock else ""
    )


def _table_json(lock: bool) -> str:
    # The table of the room row `r`. Locking, it also gives the room row's version (xmin)
    # as locked and as the statement's snapshot saw it: they differ when it waited for
    # the lock (see _fetch).
    room, seat, round_, user, outage = (m._meta.db_table for m in (Room, Seat, Round, User, Outage))
    latest = next(f'"{f.column}" DESC' for f in Round._meta.concrete_fields if f.name == _ROUND_ORDER)
    versions = f"'locked', r.xmin::text, 'seen', (SELECT xmin::text FROM \"{room}\" WHERE id = r.id), " if lock else ""
    return (
        f"json_build_object({versions}'room', row_to_json(r), "
        f"'seats', (SELECT coalesce(json_agg(json_build_object({_seat_columns()}) ORDER BY s.\"index\"), '[]') "
        f'FROM "{seat}" s LEFT JOIN "{user}" u ON u.id = s.user_id WHERE s.room_id = r.id), '
        f"'round', (SELECT row_to_json(x) FROM (SELECT * FROM \"{round_}\" WHERE room_id = r.id "
        f"ORDER BY {latest} LIMIT 1) x), "
        f"'outages_until', (SELECT max(ended_at) FROM \"{outage}\"))"
    )


_TABLE_SQL = {lock: _table_sql(lock) for lock in (False, True)}
# Always one row: the token's account (or null), the table (or null). Params: the token's digest, the code.
_TOKEN_TABLE_SQL = (
    f"SELECT json_build_object('user', {accounts.TOKEN_USER_JSON}, 'table', "
    f'(SELECT {_table_json(False)} FROM "{Room._meta.db_table}" r WHERE r.code = %s))::text'
)


def _columns(model: type[models.Model]) -> tuple[list[str], list[tuple[str, str, bool]]]:
    """A model's attribute names, and per field where its value is in PostgreSQL's JSON
    of the row (the column's name) and whether it is a time written as text there."""
    fields = model._meta.concrete_fields
    return [f.attname for f in fields], [
        (f.column or f.attname, f.attname, isinstance(f, models.DateTimeField)) for f in fields
    ]


_COLUMNS = {model: _columns(model) for model in (Room, Seat, Round)}


def _model_from(model: type[Any], data: dict[str, Any]) -> Any:
    """A model instance from a row as PostgreSQL's JSON functions write it."""
    names, columns = _COLUMNS[model]
    values = []
    for column, attname, is_time in columns:
        value = data[column] if column in data else data[attname]
        if is_time and value is not None:
            # ISO 8601 with the offset (the connection's time zone is UTC).
            value = datetime.fromisoformat(value)
        values.append(value)
    return _loaded(model, names, values)


def _seat_from(row: dict[str, Any]) -> Seat:
    seat: Seat = _model_from(Seat, row)
    if seat.user_id is not None:
        values = [row[f"u_{f}"] for f in _USER_FIELDS]
        _SEAT_USER_FIELD.set_cached_value(seat, _loaded(User, _USER_FIELD_NAMES, values))
    return seat


_USER_FIELD_NAMES = list(_USER_FIELDS)


def _loaded(model: type[models.Model], names: list[str], values: list[Any]) -> Any:
    """The instance `model.from_db` would make of these values (read from the database,
    any field not in `names` deferred), made without running `Model.__init__`, whose
    signals and loop over every field were half of a table read's Python time (ten
    instances a read). Nothing listens to these models' init signals, and no field of
    theirs needs `__init__` (a file field would); tests/test_table_store.py holds the
    instances to the ORM's own."""
    obj = model.__new__(model)
    state = ModelState()
    # The store reads through `connection`, the default database's.
    state.adding, state.db = False, DEFAULT_DB_ALIAS
    obj.__dict__["_state"] = state
    obj.__dict__.update(zip(names, values, strict=True))
    return obj
