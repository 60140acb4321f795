"""Telling players away from the table that a game waits for them.

A scan (`waiting_turns_claim`, Celery beat every NOTIFY_SCAN_SECONDS) finds the seats
the game has waited for longer than NOTIFY_AFTER_SECONDS (`Seat.turn_since`: a player
who acts and is waited for again begins a new turn), skips players with a fresh
ws/me/ socket (they hear their turns there) and players inside their quiet period (a
later scan finds them once it ends, if the game still waits), and claims each turn for
a notice. Then one delivery per player (`turn_notice_delivered`, a Celery task) takes
that player's claims and sends one notice, or a digest when several rooms wait, by push
and by e-mail.

Nothing is sent twice, however scans and deliveries overlap or repeat: a claim is a
`TurnNotice` row moved on to the turn (an upsert that only one transaction can make for
a given turn, committed before any delivery starts), and a delivery sends only the claims
it took itself (an update from unsent to sent, which only one transaction can make). A
delivery that dies after taking its claims sends nothing for them: at most once, never
twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction

from core.times import iso
from games import selectors as game_selectors

from .. import mail, selectors
from ..content import Notice, notice_for
from ..models import TurnNotice
from ..push import Outcome, push_send
from ..quiet import is_quiet
from . import presence, subscriptions

BATCH = 500


def _claim(seats: list[selectors.WaitingSeat], now: datetime) -> list[tuple[int, int]]:
    """Claim each seat's turn for a notice; returns the (user, room) pairs claimed here.

    One statement: a row for a new (user, room), or the row moved on to a newer turn, is
    returned; a row already at that turn (claimed by an overlapping scan, committed or
    not: the upsert waits for it) is left alone and not returned. Rows go in a fixed
    order, so two scans at once never wait for each other in a circle.
    """
    if not seats:
        return []
    table = connection.ops.quote_name(TurnNotice._meta.db_table)
    rows = sorted({(s.user_id, s.room_id): s.turn_since for s in seats}.items())
    values = ", ".join(["(%s, %s, %s, %s, NULL)"] * len(rows))
    params: list[Any] = []
    # Written as the ORM writes datetimes, so that the comparison below (and the reads
    # of these rows) sees the same value on every database.
    adapt = connection.ops.adapt_datetimefield_value
    for (user_id, room_id), turn_since in rows:
        params += [user_id, room_id, adapt(turn_since), adapt(now)]
    sql = (
        f"INSERT INTO {table} (user_id, room_id, turn_since, claimed_at, sent_at) VALUES {values} "
        "ON CONFLICT (user_id, room_id) DO UPDATE SET turn_since = excluded.turn_since, "
        f"claimed_at = excluded.claimed_at, sent_at = NULL WHERE {table}.turn_since <> excluded.turn_since "
        "RETURNING user_id, room_id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [(int(user_id), int(room_id)) for user_id, room_id in cursor.fetchall()]


def waiting_turns_claim(*, now: datetime) -> list[int]:
    """Claim every turn that waits for a notice now; returns the players to deliver to."""
    presence.presence_expire(older_than=now - timedelta(seconds=settings.NOTIFY_PRESENCE_TTL_SECONDS))
    waited_before = now - timedelta(seconds=settings.NOTIFY_AFTER_SECONDS)
    present_after = now - timedelta(seconds=settings.NOTIFY_PRESENCE_TTL_SECONDS)
    players: set[int] = set()
    after = None
    while True:
        seats = selectors.seats_waiting(
            waited_before=waited_before, present_after=present_after, after=after, limit=BATCH
        )
        if not seats:
            break
        after = seats[-1]
        wanted = selectors.preferences_of_users(user_ids=sorted({s.user_id for s in seats}))
        due = [s for s in seats if s.user_id in wanted and not _quiet(wanted[s.user_id], now)]
        with transaction.atomic():
            players.update(user_id for user_id, _ in _claim(due, now))
        if len(seats) < BATCH:
            break
    return sorted(players)


def _quiet(preferences: selectors.Preferences, now: datetime) -> bool:
    if preferences.quiet is None:
        return False
    start, end, zone = preferences.quiet
    return is_quiet(start=start, end=end, zone=zone, now=now)


def _take(user_id: int, now: datetime) -> dict[str, datetime]:
    """Take the player's claims not sent yet, marking them sent: {room code: turn since}.

    A claim another transaction holds (a delivery taking it, or a scan whose upsert found
    it already at its wait) is waited for, not skipped: once that one commits, a claim
    taken by it no longer reads as unsent, and one a scan only looked at is taken here.
    Rows are locked in the scan's order (player, room), so the two never wait in a circle.
    """
    with transaction.atomic():
        rows = list(
            TurnNotice.objects.select_for_update(of=("self",))
            .filter(user_id=user_id, sent_at__isnull=True)
            .order_by("room_id")
            .values_list("id", "room__code", "turn_since")
        )
        TurnNotice.objects.filter(id__in=[row[0] for row in rows], sent_at__isnull=True).update(sent_at=now)
    return {code: since for _, code, since in rows}


@dataclass
class Delivery:
    """What one delivery did, for the logs and the tests."""

    notice: Notice | None = None
    pushed: int = 0
    emailed_to: str = ""
    removed: list[int] = field(default_factory=list)


def turn_notice_delivered(*, user_id: int, now: datetime) -> Delivery:
    """Send the player one notice for the turns claimed for them that still wait."""
    taken = _take(user_id, now)
    if not taken:
        return Delivery()
    user = selectors.user_of(user_id=user_id)
    if user is None:
        return Delivery()
    # Only the turns still under way: of a turn the player took meanwhile, nothing is said.
    since_by_code = {code: iso(since) for code, since in taken.items()}
    turns = [t for t in game_selectors.turns_of(user=user) if since_by_code.get(t["code"]) == t["since"]]
    if not turns:
        return Delivery()
    notice = notice_for(turns, now)
    wanted = selectors.preferences_of(user=user)
    delivery = Delivery(notice=notice)
    if wanted.push:
        _push(delivery, user_id, notice, now)
    # Only to an address its owner confirmed: anyone may type any address in the settings.
    if wanted.email and wanted.email_confirmed and mail.configured():
        if mail.mail_send(address=wanted.email_address, notice=notice):
            delivery.emailed_to = wanted.email_address
    return delivery


def _push(delivery: Delivery, user_id: int, notice: Notice, now: datetime) -> None:
    ttl = int((notice.deadline - now).total_seconds()) if notice.deadline is not None else 24 * 3600
    for sub in selectors.subscriptions_of(user_id=user_id):
        if sub.expires_at is not None and sub.expires_at <= now:
            delivery.removed.append(sub.pk)
            continue
        outcome = push_send(
            endpoint=sub.endpoint, p256dh=sub.p256dh, auth=sub.auth, payload=notice.payload(), ttl=ttl, topic=notice.tag
        )
        if outcome is Outcome.SENT:
            delivery.pushed += 1
        elif outcome is Outcome.GONE:
            delivery.removed.append(sub.pk)
    if delivery.removed:
        subscriptions.push_subscriptions_remove(ids=delivery.removed)
