"""Writes remembered during a request and sent to the database together at its end.

A move writes several rows (its action, its events, the player's seat, the round, the
room); one ORM statement each, every one waiting for its answer, would make those waits
the larger part of a move under load. A `WriteBatch` only remembers the rows; `flush()`
writes them:

- **batched** (PostgreSQL): one statement, one round trip, in the caller's transaction:
  every INSERT and one UPDATE per changed row (with its latest values) as data-modifying
  parts of a WITH, bound on the server and prepared after a few uses (core/prepared.py).
  Values are prepared by each field exactly as the ORM's own save would prepare them.
  The parts of one statement see the same snapshot, not each other's rows: that is why
  a row is written once (a row inserted here takes its latest values, later updates of
  it are that insert), and why this relies on PostgreSQL checking foreign keys at commit
  (Django declares them DEFERRABLE INITIALLY DEFERRED). A string of statements would
  also make one round trip, but only with client-side binding, whose quoting of every
  value cost more than the round trip it saved; a psycopg pipeline's machinery too.
- **portable** (any database, SQLite in the embedded start): the same rows through the
  ORM, `bulk_create` per model and `save(update_fields=…)` per changed row.

Both write the same rows; tests/test_table_store.py holds them to it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper

from . import prepared


class WriteBatch:
    def __init__(self, *, batched: bool) -> None:
        self.batched = batched
        self.inserts: list[models.Model] = []
        # One UPDATE per row however often it changed: its fields, or None for all of them.
        self.updates: dict[tuple[type[models.Model], Any], tuple[models.Model, set[str] | None]] = {}

    def insert(self, *objs: models.Model) -> None:
        """Add new rows (their primary keys are not read back)."""
        for obj in objs:
            for field in obj._meta.concrete_fields:
                field.pre_save(obj, add=True)  # auto_now_add and friends, as save() would
        self.inserts.extend(objs)

    def update(self, obj: models.Model, fields: list[str] | None = None) -> None:
        """Save an existing row at the flush: all its fields, or only `fields`."""
        if fields is not None:
            names = _field_names(type(obj))
            unknown = [name for name in fields if name not in names]
            if unknown or not fields:
                raise ValueError(f"{type(obj).__name__} has no fields {unknown or fields!r} to save")
        if self._inserting(obj):
            return  # its insert writes the values it has at the flush
        key = (type(obj), obj.pk)
        earlier = self.updates.get(key)
        if earlier is not None and earlier[0] is not obj:
            raise RuntimeError(f"two instances of {key} updated in one batch")
        wanted: set[str] | None = None
        if fields is not None and (earlier is None or earlier[1] is not None):
            wanted = set(fields) | (earlier[1] if earlier is not None and earlier[1] is not None else set())
        self.updates[key] = (obj, wanted)

    def _inserting(self, obj: models.Model) -> bool:
        return any(obj is row for row in self.inserts)

    def pending(self) -> bool:
        return bool(self.inserts or self.updates)

    def fields_to_write(self, obj: models.Model) -> set[str] | None:
        """The fields of `obj` the flush will write: None for all of them (a row to
        insert, or an update of every field)."""
        if self._inserting(obj):
            return None
        pending = self.updates.get((type(obj), obj.pk))
        if pending is None:
            return set()
        return None if pending[1] is None else pending[1]

    def flush(self) -> None:
        inserts, updates = self.inserts, list(self.updates.values())
        self.inserts, self.updates = [], {}
        if not inserts and not updates:
            return
        if not self.batched:
            for model, rows in _by_model(inserts).items():
                model._default_manager.bulk_create(rows)
            for obj, fields in updates:
                obj.save(update_fields=None if fields is None else sorted(fields))
            return
        # The connection itself, looked up once: each field prepares its value with it, and
        # `django.db.connection` would look it up again for every value (prepared.py runs
        # the statement on the same one, the default database's).
        db = connections[DEFAULT_DB_ALIAS]
        parts = [*_insert_statements(inserts, db), *(_update_statement(o, f, db) for o, f in updates)]
        # A failure aborts the transaction the caller holds. PostgreSQL takes at most
        # 65,535 values a statement: a long run of computer players' moves may need more
        # than one.
        while parts:
            chunk: list[tuple[str, list[Any]]] = []
            size = 0
            while parts and (not chunk or size + len(parts[0][1]) <= MAX_VALUES):
                size += len(parts[0][1])
                chunk.append(parts.pop(0))
            sql = "WITH " + ", ".join(f"w{i} AS ({part})" for i, (part, _) in enumerate(chunk)) + " SELECT 1"
            prepared.execute(sql, [value for _, values in chunk for value in values])


# Values in one flushed statement; PostgreSQL's own limit is 65,535.
MAX_VALUES = 30_000


def _field_names(model: type[models.Model]) -> frozenset[str]:
    fields = model._meta.concrete_fields
    return frozenset([f.name for f in fields] + [f.attname for f in fields])


def _by_model(objs: list[models.Model]) -> dict[type[models.Model], list[models.Model]]:
    by_model: dict[type[models.Model], list[models.Model]] = {}
    for obj in objs:
        by_model.setdefault(type(obj), []).append(obj)
    return by_model


def _insert_statements(objs: list[models.Model], db: BaseDatabaseWrapper) -> Iterator[tuple[str, list[Any]]]:
    for model, rows in _by_model(objs).items():
        fields = [f for f in model._meta.concrete_fields if not (f.primary_key and getattr(rows[0], f.attname) is None)]
        columns = ", ".join(f'"{f.column}"' for f in fields)
        row_marks = "(" + ", ".join(["%s"] * len(fields)) + ")"
        sql = f'INSERT INTO "{model._meta.db_table}" ({columns}) VALUES ' + ", ".join([row_marks] * len(rows))
        yield sql, [f.get_db_prep_save(getattr(row, f.attname), db) for row in rows for f in fields]


def _update_statement(obj: models.Model, names: set[str] | None, db: BaseDatabaseWrapper) -> tuple[str, list[Any]]:
    meta = obj._meta
    fields = [
        f
        for f in meta.concrete_fields
        if not f.primary_key and (names is None or f.name in names or f.attname in names)
    ]
    values = []
    for field in fields:
        value = field.pre_save(obj, add=False)  # auto_now fields take the time here
        values.append(field.get_db_prep_save(value, db))
    assignments = ", ".join(f'"{f.column}" = %s' for f in fields)
    sql = f'UPDATE "{meta.db_table}" SET {assignments} WHERE "{meta.pk.column}" = %s'
    return sql, [*values, meta.pk.get_db_prep_save(obj.pk, db)]
