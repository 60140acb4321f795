"""Reads: a player's notification settings, subscriptions, and the turns that wait for
a notice."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Exists, OuterRef, Q
from django.db.models.functions import Coalesce, Greatest

from accounts.models import User
from games.models import RoomStatus, Seat

from .models import NotificationSettings, PushSubscription, SocketPresence, TurnNotice
from .quiet import hh_mm


@dataclass(frozen=True)
class Preferences:
    push: bool
    email: bool
    # What the player gave, or the account's own address; "" for none.
    email_address: str
    quiet: tuple[Any, Any, str] | None

    def as_dict(self) -> dict[str, Any]:
        quiet = None
        if self.quiet is not None:
            start, end, zone = self.quiet
            quiet = {"start": hh_mm(start), "end": hh_mm(end), "timezone": zone}
        return {"push": self.push, "email": self.email, "email_address": self.email_address, "quiet": quiet}


def _preferences(user: User, row: NotificationSettings | None) -> Preferences:
    if row is None:
        return Preferences(push=True, email=True, email_address=user.email, quiet=None)
    address = user.email if row.email_address is None else row.email_address
    quiet = None
    if row.quiet_start is not None and row.quiet_end is not None:
        quiet = (row.quiet_start, row.quiet_end, row.quiet_timezone)
    return Preferences(push=row.push, email=row.email, email_address=address, quiet=quiet)


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
    wait_since: datetime


def _wait_since() -> Greatest:
    """Since when the game has waited for a seat's player: the start of their turn, or
    their own last move in it when they moved and the game waits for them still (a
    Hearts trick they won, which they lead next: a wait of its own, as it is to them)."""
    return Greatest("turn_since", Coalesce("last_acted_at", "turn_since"))


def seats_waiting(
    *, waited_before: datetime, present_after: datetime, after: WaitingSeat | None, limit: int
) -> list[WaitingSeat]:
    """Seats whose player the game has waited for since before `waited_before`, with no
    notice claimed for that wait yet and no socket of the player heard from since
    `present_after`, in the order of the seats' turn index (pages of `limit`, from just
    after `after`). One query along that index."""
    told = TurnNotice.objects.filter(
        user_id=OuterRef("user_id"), room_id=OuterRef("room_id"), wait_since=OuterRef("wait_since")
    )
    present = SocketPresence.objects.filter(user_id=OuterRef("user_id"), seen_at__gt=present_after)
    seats = (
        # A wait begins at the turn's start or later: the index finds the candidates.
        Seat.objects.filter(
            turn_since__lte=waited_before, user__isnull=False, user__is_active=True, room__status=RoomStatus.PLAYING
        )
        .annotate(wait_since=_wait_since())
        .filter(wait_since__lte=waited_before)
        .filter(~Exists(told), ~Exists(present))
    )
    if after is not None:
        seats = seats.filter(Q(turn_since__gt=after.turn_since) | Q(turn_since=after.turn_since, id__gt=after.seat_id))
    rows = seats.order_by("turn_since", "id").values_list("id", "user_id", "room_id", "turn_since", "wait_since")
    return [
        WaitingSeat(seat_id=i, user_id=u, room_id=r, turn_since=t, wait_since=w)
        for i, u, r, t, w in rows[:limit]
        if t is not None
    ]


def waits_of(*, user_id: int) -> dict[str, datetime]:
    """The rooms where the game waits for the player now: {code: since when}."""
    seats = (
        Seat.objects.filter(user_id=user_id, turn_since__isnull=False, room__status=RoomStatus.PLAYING)
        .annotate(wait_since=_wait_since())
        .values_list("room__code", "wait_since")
    )
    return dict(seats)


def is_present(*, user_id: int, present_after: datetime) -> bool:
    return SocketPresence.objects.filter(user_id=user_id, seen_at__gt=present_after).exists()


def user_of(*, user_id: int) -> User | None:
    """The account, while it is active (a banned player hears nothing)."""
    return User.objects.filter(id=user_id, is_active=True).first()
