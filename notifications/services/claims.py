"""Claims that make each notice of a turn go at most once, however scans and deliveries
overlap or repeat: one row per player and room in a claim table (`TurnNotice` for the
first notice of a turn, `TurnReminder` for its reminder), moved on to each turn.

A scan claims a turn by an upsert that only one transaction can make for a given turn,
committed before any delivery starts; a delivery sends only the claims it took itself
(an update from unsent to sent, which only one transaction can make). A delivery that
dies after taking its claims sends nothing for them: at most once, never twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import connection, transaction

from .. import selectors
from ..models import TurnNotice, TurnReminder

Claims = type[TurnNotice] | type[TurnReminder]
# Seats read and claimed per transaction by a scan.
BATCH = 500


def claim(table: Claims, seats: Sequence[selectors.WaitingSeat], now: datetime) -> list[tuple[int, int]]:
    """Claim each seat's turn in `table`; returns the (user, room) pairs claimed here.

    One statement: a row for a new (user, room), or the row moved on to a newer turn, is
    returned; a row already at that turn (claimed by an overlapping scan, committed or
    not: the upsert waits for it) is left alone and not returned. Rows go in a fixed
    order, so two scans at once never wait for each other in a circle.
    """
    if not seats:
        return []
    name = connection.ops.quote_name(table._meta.db_table)
    rows = sorted({(s.user_id, s.room_id): s.turn_since for s in seats}.items())
    values = ", ".join(["(%s, %s, %s, %s, NULL)"] * len(rows))
    params: list[Any] = []
    # Written as the ORM writes datetimes, so that the comparison below (and the reads
    # of these rows) sees the same value on every database.
    adapt = connection.ops.adapt_datetimefield_value
    for (user_id, room_id), turn_since in rows:
        params += [user_id, room_id, adapt(turn_since), adapt(now)]
    sql = (
        f"INSERT INTO {name} (user_id, room_id, turn_since, claimed_at, sent_at) VALUES {values} "
        "ON CONFLICT (user_id, room_id) DO UPDATE SET turn_since = excluded.turn_since, "
        f"claimed_at = excluded.claimed_at, sent_at = NULL WHERE {name}.turn_since <> excluded.turn_since "
        "RETURNING user_id, room_id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [(int(user_id), int(room_id)) for user_id, room_id in cursor.fetchall()]


def take(table: Claims, user_id: int, now: datetime) -> dict[str, datetime]:
    """Take the player's claims in `table` not sent yet, marking them sent: {room code:
    turn since}.

    A claim another transaction holds (a delivery taking it, or a scan whose upsert found
    it already at its wait) is waited for, not skipped: once that one commits, a claim
    taken by it no longer reads as unsent, and one a scan only looked at is taken here.
    Rows are locked in the scan's order (player, room), so the two never wait in a circle.
    """
    with transaction.atomic():
        rows = list(
            table.objects.select_for_update(of=("self",))
            .filter(user_id=user_id, sent_at__isnull=True)
            .order_by("room_id")
            .values_list("id", "room__code", "turn_since")
        )
        table.objects.filter(id__in=[row[0] for row in rows], sent_at__isnull=True).update(sent_at=now)
    return {code: since for _, code, since in rows}
