"""Moderator actions. Each goes through the same services as the API and is logged."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from accounts.services import token_revoke
from games import services as game_services
from games.models import Room, Round
from games.replay import ReplayReport, round_replay

from .models import ModerationEntry


def _require_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValueError("A reason is required.")
    return reason


@transaction.atomic
def user_ban(*, moderator: User, user: User, reason: str) -> None:
    """The account can no longer log in or act; its tokens stop working at once."""
    reason = _require_reason(reason)
    user.is_active = False
    user.banned_at = timezone.now()
    user.ban_reason = reason
    user.save(update_fields=["is_active", "banned_at", "ban_reason"])
    token_revoke(user=user)
    ModerationEntry.objects.create(moderator=moderator, kind=ModerationEntry.Kind.BAN, reason=reason, target_user=user)


@transaction.atomic
def user_unban(*, moderator: User, user: User, reason: str) -> None:
    reason = _require_reason(reason)
    user.is_active = True
    user.banned_at = None
    user.ban_reason = ""
    user.save(update_fields=["is_active", "banned_at", "ban_reason"])
    ModerationEntry.objects.create(
        moderator=moderator, kind=ModerationEntry.Kind.UNBAN, reason=reason, target_user=user
    )


@transaction.atomic
def room_close(*, moderator: User, room: Room, reason: str) -> None:
    reason = _require_reason(reason)
    game_services.room_close(code=room.code, reason=reason)
    ModerationEntry.objects.create(moderator=moderator, kind=ModerationEntry.Kind.CLOSE_ROOM, reason=reason, room=room)


@transaction.atomic
def seat_give_to_bot(*, moderator: User, room: Room, index: int, reason: str) -> None:
    reason = _require_reason(reason)
    player = room.seats.filter(index=index).values_list("user", flat=True).first()
    game_services.seat_give_to_bot(code=room.code, index=index)
    ModerationEntry.objects.create(
        moderator=moderator,
        kind=ModerationEntry.Kind.SEAT_TO_BOT,
        reason=reason,
        room=room,
        target_user_id=player,
        detail=f"seat {index}",
    )


def replay_check(*, moderator: User, round_: Round) -> ReplayReport:
    report = round_replay(round_=round_)
    ModerationEntry.objects.create(
        moderator=moderator,
        kind=ModerationEntry.Kind.REPLAY_CHECK,
        reason="consistency check",
        room=round_.room,
        detail=f"hand {round_.number}: {report.detail}",
    )
    return report
