"""Deferred writes sent to PostgreSQL in one round trip.

A move writes five rows (its action, its events, the player's seat, the round, the
room), each an ORM statement that waits for its answer before the next is sent. Under
load those waits dominate a move's time. Inside `batched()`, `insert` and `update`
only remember the rows; when the block ends they are written as one string of
statements: one round trip, in the same transaction, inserts first, then updates.

Outside `batched()`, or on another database than PostgreSQL (SQLite in the one-process
start), the same calls write through the ORM at once, so callers need not care.
(A psycopg pipeline also makes one round trip, but its machinery cost more Python time
than it saved here.)
Values are prepared by each field exactly as the ORM's own save would prepare them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.db import connection, models

_current: ContextVar[WriteBatch | None] = ContextVar("write_batch", default=None)


class WriteBatch:
    def __init__(self) -> None:
        self.inserts: list[models.Model] = []
        # One UPDATE per row however often it changed; the latest values win.
        self.updates: dict[tuple[type[models.Model], Any], tuple[models.Model, set[str] | None]] = {}

    def flush(self) -> None:
        if not self.inserts and not self.updates:
            return
        statements = [*_insert_statements(self.inserts), *(_update_statement(o, f) for o, f in self.updates.values())]
        self.inserts, self.updates = [], {}
        # One string of statements, one round trip: psycopg binds the values on the
        # client side (Django's default cursor) and PostgreSQL runs them in order, in
        # the transaction the caller holds. A failure aborts that transaction.
        sql = ";\n".join(sql for sql, _ in statements)
        params = [value for _, values in statements for value in values]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)


@contextmanager
def batched() -> Iterator[WriteBatch | None]:
    """Defer `insert`/`update` calls made inside the block to one round trip at its end.

    Use it inside a transaction. Nothing is deferred on other databases than PostgreSQL.
    """
    if connection.vendor != "postgresql" or _current.get() is not None:
        yield None
        return
    batch = WriteBatch()
    token = _current.set(batch)
    try:
        yield batch
        batch.flush()
    finally:
        _current.reset(token)


def insert(*objs: models.Model) -> None:
    """Add new rows (their primary keys are not read back)."""
    batch = _current.get()
    if batch is None:
        if objs:
            type(objs[0]).objects.bulk_create(objs)
        return
    for obj in objs:
        for field in obj._meta.concrete_fields:
            field.pre_save(obj, add=True)  # auto_now_add and friends
    batch.inserts.extend(objs)


def update(obj: models.Model, fields: list[str] | None = None) -> None:
    """Save an existing row: all its fields, or only `fields`."""
    batch = _current.get()
    if batch is None:
        obj.save(update_fields=fields)
        return
    key = (type(obj), obj.pk)
    earlier = batch.updates.get(key)
    if earlier is not None and earlier[0] is not obj:
        raise RuntimeError(f"two instances of {key} updated in one batch")
    if fields is None or (earlier is not None and earlier[1] is None):
        wanted = None
    else:
        wanted = set(fields) | (earlier[1] if earlier is not None else set())
    batch.updates[key] = (obj, wanted)


def _insert_statements(objs: list[models.Model]) -> Iterator[tuple[str, list[Any]]]:
    by_model: dict[type[models.Model], list[models.Model]] = {}
    for obj in objs:
        by_model.setdefault(type(obj), []).append(obj)
    for model, rows in by_model.items():
        fields = [f for f in model._meta.concrete_fields if not (f.primary_key and getattr(rows[0], f.attname) is None)]
        columns = ", ".join(f'"{f.column}"' for f in fields)
        row_marks = "(" + ", ".join(["%s"] * len(fields)) + ")"
        sql = f'INSERT INTO "{model._meta.db_table}" ({columns}) VALUES ' + ", ".join([row_marks] * len(rows))
        yield sql, [f.get_db_prep_save(getattr(row, f.attname), connection) for row in rows for f in fields]


def _update_statement(obj: models.Model, names: set[str] | None) -> tuple[str, list[Any]]:
    meta = obj._meta
    wanted = (lambda f: True) if names is None else (lambda f: f.name in names or f.attname in names)
    fields = [f for f in meta.concrete_fields if not f.primary_key and wanted(f)]
    values = []
    for field in fields:
        value = field.pre_save(obj, add=False)  # auto_now fields take the time here
        values.append(field.get_db_prep_save(value, connection))
    assignments = ", ".join(f'"{f.column}" = %s' for f in fields)
    sql = f'UPDATE "{meta.db_table}" SET {assignments} WHERE "{meta.pk.column}" = %s'
    return sql, [*values, meta.pk.get_db_prep_save(obj.pk, connection)]
