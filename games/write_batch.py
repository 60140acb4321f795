"""Deferred writes sent to PostgreSQL in one pipeline.

A move writes five rows (its action, its events, the player's seat, the round, the
room), each an ORM statement that waits for its answer before the next is sent. Under
load those waits dominate a move's time. Inside `batched()`, `insert` and `update`
only remember the rows; when the block ends they are written in one psycopg pipeline:
one round trip, in the same transaction, in the order given (inserts, then updates).

Outside `batched()`, or on a database without pipelines (SQLite in the one-process
start), the same calls write through the ORM at once, so callers need not care.
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
        statements = [
            *_insert_statements(self.inserts),
            *((*_update_statement(o, f), False) for o, f in self.updates.values()),
        ]
        self.inserts, self.updates = [], {}
        pg = connection.connection
        logged = connection.queries_logged
        # Errors come out as Django's own (IntegrityError...), as from any ORM write.
        with connection.wrap_database_errors, pg.pipeline(), pg.cursor() as cursor:
            for sql, params, many in statements:
                if many:
                    cursor.executemany(sql, params)
                else:
                    cursor.execute(sql, params)
                if logged:
                    connection.queries_log.append({"sql": f"{sql} -- pipelined", "time": "0.000"})


@contextmanager
def batched() -> Iterator[WriteBatch | None]:
    """Defer `insert`/`update` calls made inside the block to one pipeline at its end.

    Use it inside a transaction. Nothing is deferred where pipelines are unavailable.
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


def _insert_statements(objs: list[models.Model]) -> Iterator[tuple[str, list[list[Any]], bool]]:
    by_model: dict[type[models.Model], list[models.Model]] = {}
    for obj in objs:
        by_model.setdefault(type(obj), []).append(obj)
    for model, rows in by_model.items():
        fields = [f for f in model._meta.concrete_fields if not (f.primary_key and getattr(rows[0], f.attname) is None)]
        columns = ", ".join(f'"{f.column}"' for f in fields)
        marks = ", ".join(["%s"] * len(fields))
        sql = f'INSERT INTO "{model._meta.db_table}" ({columns}) VALUES ({marks})'
        yield sql, [[f.get_db_prep_save(getattr(row, f.attname), connection) for f in fields] for row in rows], True


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
