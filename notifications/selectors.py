"""Reads: a player's notification settings, subscriptions, and the turns that wait for
a notice or a reminder."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Exists, OuterRef, Q, Subquery
from django.db.models.fields.json import KT
from django.db.models.functions import Least

from accounts.models import User
from games.models import RoomStatus, Seat
from games.rules.base import ROUND_OVER
from games.store import rounds_latest_first

from . import mail
from .addresses import same_address
from .models import NotificationSettings, PushSubscription, SocketPresence, TurnNotice, TurnReminder
from .quiet import hh_mm, is_quiet


@dataclass(frozen=True)
class Preferences:
    push: bool
    email: bool
    # What the player gave, or the account's own address; "" for none.
    email_address: str
    quiet: tuple[Any, Any, str] | None
    # Whether the player opened a link mailed to `email_address`; e-mail notices go only
    # to a confirmed address.
    email_confirmed: bool = False
    # Whether this server e-mails anyone (mail.available): without it nothing is mailed.
    email_available: bool = True

    def quiet_at(self, now: datetime) -> bool:
        """Whether `now` falls in the player's quiet period (nothing is sent then)."""
        if self.quiet is None:
            return False
        start, end, zone = self.quiet
        return is_quiet(start=start, end=end, zone=zone, now=now)

    def as_dict(self) -> dict[str, Any]:
        quiet = None
        if self.quiet is not None:
            start, end, zone = self.quiet
            quiet = {"start": hh_mm(start), "end": hh_mm(end), "timezone": zone}
        return {
            "push": self.push,
            "email": self.email,
            "email_address": self.email_address,
            "email_confirmed": self.email_confirmed,
            "email_available": self.email_available,
            "quiet": quiet,
        }


def address_of(user: User, row: NotificationSettings | None) -> str:
    """Where e-mail notices go: the address the player gave, else the account's own."""
    return user.email if row is None or row.email_address is None else row.email_address


def _preferences(user: User, row: NotificationSettings | None) -> Preferences:
    if row is None:
        return Preferences(
            push=True, email=True, email_address=user.email, quiet=None, email_available=mail.available()
        )
    address = address_of(user, row)
    quiet = None
    if row.quiet_start is not None and row.quiet_end is not None:
        quiet = (row.quiet_start, row.quiet_end, row.quiet_timezone)
    confirmed = bool(address) and same_address(address, row.email_confirmed_address)
    return Preferences(
        push=row.push,
        email=row.email,
        email_address=address,
        quiet=quiet,
        email_confirmed=confirmed,
        email_available=mail.available(),
    )


def preferences_of(*, user: User) -> Preferences:
    return _preferences(user, NotificationSettings.objects.filter(user=user).first())


def preferences_of_users(*, user_ids: list[int]) -> dict[int, Preferences]:
    """Each active account's preferences, in two queries however many there are."""
    rows = {row.user_id: row for row in NotificationSettings.objects.filter(user_id__in=user_ids)}
    users = User.objects.filter(id__in=user_ids, is_active=True).only("id", "email")
    return {user.pk: _preferences(user, rows.get(user.pk)) for user in users}


def subscriptions_of(*, user_id: int) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(user_id=user_id).order_by("id"))


@dataclass(frozen=True)
class WaitingSeat:
    seat_id: int
    user_id: int
    room_id: int
    turn_since: datetime


def seats_waiting(
    *, waited_before: datetime, present_after: datetime, after: WaitingSeat | None, limit: int
) -> list[WaitingSeat]:
    """Seats whose player the game has waited for since before `waited_before`, with no
    notice claimed for that turn yet and no socket of the player heard from since
    `present_after`: longest waiting first, from just after `after` (pages of `limit`).
    One query along the seats' turn index."""
    told = TurnNotice.objects.filter(
        user_id=OuterRef("user_id"), room_id=OuterRef("room_id"), turn_since=OuterRef("turn_since")
    )
    present = SocketPresence.objects.filter(user_id=OuterRef("user_id"), seen_at__gt=present_after)
    seats = Seat.objects.filter(
        turn_since__lte=waited_before, user__isnull=False, user__is_active=True, room__status=RoomStatus.PLAYING
    ).filter(~Exists(told), ~Exists(present))
    if after is not None:
        seats = seats.filter(Q(turn_since__gt=after.turn_since) | Q(turn_since=after.turn_since, id__gt=after.seat_id))
    rows = seats.order_by("turn_since", "id").values_list("id", "user_id", "room_id", "turn_since")[:limit]
    return [WaitingSeat(seat_id=i, user_id=u, room_id=r, turn_since=t) for i, u, r, t in rows if t is not None]


@dataclass(frozen=True)
class DueSeat(WaitingSeat):
    # When the turn runs out, and the room's turn clock (`turn_seconds`).
    due: datetime
    clock_seconds: int


def seats_due(
    *,
    now: datetime,
    waited_before: datetime,
    present_after: datetime,
    due_before: datetime,
    quiet_due_before: datetime,
    clock_min_seconds: int,
    after: DueSeat | None,
    limit: int,
) -> list[DueSeat]:
    """Seats whose player the game has waited for since before `waited_before`, in rooms
    on a turn clock of `clock_min_seconds` or more, whose turn runs out after `now` and
    before `due_before` (`quiet_due_before` for players with a quiet period), with no
    reminder claimed for that turn yet and no socket of the player heard from since
    `present_after`; not in the pause between hands (that clock is not the turn's). In
    seat order from just after `after` (pages of `limit`); which of them are due for a
    reminder is the caller's to decide.

    A seat's due time is the soonest of its candidates, for now the hand's deadline.
    """
    hand = rounds_latest_first(OuterRef("room_id"))
    candidates: list[Any] = [Subquery(hand.values("deadline_at")[:1])]
    # TODO: the seat's abandonment, turn_since + abandon_seconds - Seat.idle_seconds, as a second candidate.
    due = candidates[0] if len(candidates) == 1 else Least(*candidates)
    reminded = TurnReminder.objects.filter(
        user_id=OuterRef("user_id"), room_id=OuterRef("room_id"), turn_since=OuterRef("turn_since")
    )
    present = SocketPresence.objects.filter(user_id=OuterRef("user_id"), seen_at__gt=present_after)
    quiet = NotificationSettings.objects.filter(user_id=OuterRef("user_id"), quiet_start__isnull=False)
    seats = (
        Seat.objects.filter(
            turn_since__lte=waited_before,
            user__isnull=False,
            user__is_active=True,
            room__status=RoomStatus.PLAYING,
            room__options__turn_seconds__gte=clock_min_seconds,
        )
        .annotate(due=due, phase=Subquery(hand.annotate(phase=KT("state__phase")).values("phase")[:1]))
        .filter(due__gt=now, due__lte=quiet_due_before)
        .filter(Q(due__lte=due_before) | Exists(quiet))
        .exclude(phase=ROUND_OVER)
        .filter(~Exists(reminded), ~Exists(present))
    )
    if after is not None:
        seats = seats.filter(id__gt=after.seat_id)
    rows = seats.order_by("id").values_list(
        "id", "user_id", "room_id", "turn_since", "due", "room__options__turn_seconds"
    )[:limit]
    return [
        DueSeat(seat_id=i, user_id=u, room_id=r, turn_since=t, due=d, clock_seconds=int(c))
        for i, u, r, t, d, c in rows
        if t is not None and d is not None
    ]


def is_present(*, user_id: int, present_after: datetime) -> bool:
    return SocketPresence.objects.filter(user_id=user_id, seen_at__gt=present_after).exists()


def user_of(*, user_id: int, active: bool = True) -> User | None:
    """The account, while it is active (a banned player hears nothing of the game);
    with `active` False, a banned one too (told of the ban itself), not an erased one."""
    found = User.objects.filter(id=user_id, erased_at__isnull=True)
    return (found.filter(is_active=True) if active else found).first()


def accounts_confirmed_at(*, address: str) -> list[User]:
    """The active accounts with a password whose confirmed address, still their address,
    is `address` (ignoring case)."""
    rows = NotificationSettings.objects.filter(email_confirmed_address__iexact=address, user__is_active=True)
    found = []
    for row in rows.select_related("user"):
        user = row.user
        confirmed = same_address(row.email_confirmed_address, address)
        if confirmed and user.has_usable_password() and same_address(address_of(user, row), address):
            found.append(user)
    return found


def address_of_banned_account(*, address: str, user: User) -> bool:
    """Whether another account, a banned one, confirmed `address` (ignoring case)."""
    rows = NotificationSettings.objects.filter(
        email_confirmed_address__iexact=address, user__banned_at__isnull=False
    ).exclude(user=user)
    return any(same_address(row.email_confirmed_address, address) for row in rows)
