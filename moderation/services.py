"""Moderator actions. Each goes through the same services as the API and is logged.

The reasons moderators give are public: the banned person is told theirs when they
try to sign in, and a table reads the reason in its log when a seat changes hands or
the room closes.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from accounts.services.sign_ins import banned_tokens_forget, tokens_revoke_for_ban
from core.errors import ServiceError
from games import live
from games import selectors as game_selectors
from games.models import Room, RoomStatus
from games.services import table_moderation

from .models import ModerationEntry

# A room's status_reason holds "Closed by a moderator: " and the reason in 200 characters.
MAX_REASON = 170


def _require_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("invalid", "A reason is required.", 400, "reason")
    if len(reason) > MAX_REASON:
        raise ServiceError("invalid", f"A reason has at most {MAX_REASON} characters.", 400, "reason")
    return reason


@transaction.atomic
def user_ban(*, moderator: User, user: User, reason: str) -> ModerationEntry:
    """The account can no longer sign in or act, its tokens stop working at once, and
    it leaves every room still open, in the same transaction:

    - a room in play gives its seat to a computer player, who plays on;
    - a lobby frees its seat;
    - a room where nobody else is seated closes (computer players alone play for nobody).

    Each table's log says who was banned and why.
    """
    reason = _require_reason(reason)
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    if user.banned_at is not None:
        raise ServiceError("invalid", f"{user.username} is already banned.", 409)
    if user.pk == moderator.pk:
        raise ServiceError("invalid", "Moderators cannot ban themselves.", 400)
    if (user.is_staff or user.is_superuser) and not moderator.is_superuser:
        # A moderator must not be able to lock out the people who oversee moderators.
        raise ServiceError("invalid", "Only a superuser may ban a staff account.", 403)
    user.is_active = False
    user.banned_at = timezone.now()
    user.ban_reason = reason
    user.save(update_fields=["is_active", "banned_at", "ban_reason"])
    tokens_revoke_for_ban(user=user)
    live.sockets_close_after_commit(user.pk)
    done = user_leave_open_rooms(user=user, reason=reason, banned=True)
    return ModerationEntry.objects.create(
        moderator=moderator,
        kind=ModerationEntry.Kind.BAN,
        reason=reason,
        target_user=user,
        detail="; ".join(done) or "No open rooms.",
    )


def user_leave_open_rooms(*, user: User, reason: str, banned: bool) -> list[str]:
    """Take a banned or closed account out of every room still open: a game in play
    gives its seat to a computer player, a lobby frees it, a room where nobody else sits
    closes; each table's log reads `reason`. What happened in each, for a log."""
    return [_leave(seat.room, seat.index, user, reason, banned) for seat in game_selectors.open_seats_of(user=user)]


def _leave(room: Room, index: int, user: User, reason: str, banned: bool) -> str:
    """Take the user out of one open room; what happened, for the log's detail."""
    where = f"{room.code} seat {index + 1}"
    try:
        if not game_selectors.room_has_other_players(room=room, user=user):
            table_moderation.room_close(code=room.code, reason=reason)
            return f"{room.code} closed (nobody else was seated)"
        if room.status == RoomStatus.PLAYING:
            table_moderation.seat_give_to_bot(code=room.code, index=index, reason=reason, banned=banned)
            return f"{where} given to a computer player"
        table_moderation.seat_remove(code=room.code, user=user, reason=reason, banned=banned)
        return f"{where} freed"
    except ServiceError as err:
        # The room moved on since it was listed (it finished, say); the ban or closure stands.
        return f"{where} left as it was: {err.detail}"


@transaction.atomic
def user_unban(*, moderator: User, user: User, reason: str) -> ModerationEntry:
    """The account may sign in again (with its password: its old tokens stay revoked)."""
    reason = _require_reason(reason)
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    if user.banned_at is None:
        raise ServiceError("invalid", f"{user.username} is not banned.", 409)
    user.is_active = True
    user.banned_at = None
    user.ban_reason = ""
    user.save(update_fields=["is_active", "banned_at", "ban_reason"])
    banned_tokens_forget(user=user)
    return ModerationEntry.objects.create(
        moderator=moderator, kind=ModerationEntry.Kind.UNBAN, reason=reason, target_user=user
    )


@transaction.atomic
def room_close(*, moderator: User, room: Room, reason: str) -> ModerationEntry:
    reason = _require_reason(reason)
    table_moderation.room_close(code=room.code, reason=reason)
    return ModerationEntry.objects.create(
        moderator=moderator, kind=ModerationEntry.Kind.CLOSE_ROOM, reason=reason, room=room
    )


@transaction.atomic
def seat_give_to_bot(*, moderator: User, room: Room, index: int, reason: str) -> ModerationEntry:
    reason = _require_reason(reason)
    player = game_selectors.seat_player(room=room, index=index)
    table_moderation.seat_give_to_bot(code=room.code, index=index, reason=reason)
    return ModerationEntry.objects.create(
        moderator=moderator,
        kind=ModerationEntry.Kind.SEAT_TO_BOT,
        reason=reason,
        room=room,
        target_user=player,
        # Seats are numbered from 1 wherever people read them, as players see them.
        detail=f"seat {index + 1}",
    )
