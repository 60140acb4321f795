"""Telling players away from the table that a game waits for them.

Beat's scan (`notices_claim`, every NOTIFY_SCAN_SECONDS) claims two kinds of notices.
The first notice of a turn (`waiting_turns_claim`): the seats the game has waited for
longer than NOTIFY_AFTER_SECONDS (`Seat.turn_since`: a player who acts and is waited
for again begins a new turn), but for players with a fresh ws/me/ socket (they hear
their turns there) and players inside their quiet period (a later scan finds them once
it ends, if the game still waits). And on long clocks, one reminder of a turn before it
runs out (`reminders.reminders_claim`). Then one delivery per player
(`turn_notice_delivered`, a Celery task) takes that player's claims of both kinds and
sends one notice, or a digest when several rooms wait, by push and by e-mail.

Nothing is sent twice, however scans and deliveries overlap or repeat (`claims`): a
first notice is claimed in `TurnNotice`, a reminder in `TurnReminder`, each taken by
one delivery only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction

from accounts.languages import speaking_to
from core.times import iso
from games import selectors as game_selectors

from .. import mail, selectors
from ..content import Notice, notice_for
from ..models import TurnNotice, TurnReminder
from . import claims, presence, reminders, subscriptions


def notices_claim(*, now: datetime) -> list[int]:
    """Beat's scan: claim the first notices and the reminders due now; returns the
    players to deliver to."""
    return sorted(set(waiting_turns_claim(now=now)) | set(reminders.reminders_claim(now=now)))


def waiting_turns_claim(*, now: datetime) -> list[int]:
    """Claim every turn that waits for a notice now; returns the players to deliver to."""
    presence.presence_expire(older_than=now - timedelta(seconds=settings.NOTIFY_PRESENCE_TTL_SECONDS))
    waited_before = now - timedelta(seconds=settings.NOTIFY_AFTER_SECONDS)
    present_after = now - timedelta(seconds=settings.NOTIFY_PRESENCE_TTL_SECONDS)
    players: set[int] = set()
    after = None
    while True:
        seats = selectors.seats_waiting(
            waited_before=waited_before, present_after=present_after, after=after, limit=claims.BATCH
        )
        if not seats:
            break
        after = seats[-1]
        wanted = selectors.preferences_of_users(user_ids=sorted({s.user_id for s in seats}))
        due = [s for s in seats if s.user_id in wanted and not wanted[s.user_id].quiet_at(now)]
        with transaction.atomic():
            players.update(user_id for user_id, _ in claims.claim(TurnNotice, due, now))
        if len(seats) < claims.BATCH:
            break
    return sorted(players)


@dataclass
class Delivery:
    """What one delivery did, for the logs and the tests."""

    notice: Notice | None = None
    pushed: int = 0
    emailed_to: str = ""
    removed: list[int] = field(default_factory=list)


def turn_notice_delivered(*, user_id: int, now: datetime) -> Delivery:
    """Send the player one notice for the turns claimed for them (first notices and
    reminders) that still wait."""
    first = {code: iso(since) for code, since in claims.take(TurnNotice, user_id, now).items()}
    again = {code: iso(since) for code, since in claims.take(TurnReminder, user_id, now).items()}
    if not first and not again:
        return Delivery()
    user = selectors.user_of(user_id=user_id)
    if user is None:
        return Delivery()
    # Only the turns still under way: of a turn the player took meanwhile, nothing is said.
    # A room whose first notice and reminder were claimed at once is named once.
    turns = [
        t for t in game_selectors.turns_of(user=user) if t["since"] in {first.get(t["code"]), again.get(t["code"])}
    ]
    if not turns:
        return Delivery()
    # Reminders alone say so; with a first notice among them, it is the usual notice
    # (which tells each room's time left all the same).
    reminder = all(first.get(t["code"]) != t["since"] for t in turns)
    wanted = selectors.preferences_of(user=user)
    # In the player's language, the push and the mail alike (the mail's own words are made
    # as it is sent).
    with speaking_to(user):
        notice = notice_for(turns, now, reminder=reminder)
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
    delivery.pushed, delivery.removed = subscriptions.push_to_all(
        user_id=user_id, payload=notice.payload(), ttl=ttl, topic=notice.tag, now=now
    )
