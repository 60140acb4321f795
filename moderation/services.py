"""Moderator actions. Each goes through the same services as the API and is logged.

The reasons moderators give are public: the banned person is told theirs when they
try to sign in, and a table reads the reason in its log when a seat changes hands or
the room closes.
"""

from __future__ import annotations

import logging
from datetime import datetime

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from accounts.models import User
from accounts.services.sign_ins import banned_tokens_forget, tokens_revoke_for_ban
from core.errors import ServiceError
from games import selectors as game_selectors
from games.models import Room, RoomStatus
from games.services import table_moderation
from grants import selectors as grant_selectors
from grants import services as grants

from . import entry_facts
from .models import ModerationEntry

logger = logging.getLogger(__name__)

# The task that lifts a temporary ban at its end (moderation/tasks.py).
LIFT_BAN = "moderation.lift_ban"

# A room's status_reason holds "Closed by a moderator: " and the reason in 200 characters.
MAX_REASON = 170


def require_reason(reason: str, *, limit: int = MAX_REASON) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("invalid", _("A reason is required."), 400, "reason")
    if len(reason) > limit:
        detail = ngettext(
            "A reason has at most %(limit)s character.", "A reason has at most %(limit)s characters.", limit
        ) % {"limit": limit}
        raise ServiceError("invalid", detail, 400, "reason")
    return reason


@transaction.atomic
def user_ban(*, moderator: User, user: User, reason: str, until: datetime | None = None) -> ModerationEntry:
    """The account can no longer sign in or act (until `until`, when moderation.tasks
    lifts the ban; for good without), every credential of it ends at once (its sockets
    close), and it leaves
    every room still open, in the same transaction:

    - a room in play gives its seat to a computer player, who plays on;
    - a lobby frees its seat;
    - a room where nobody else is seated closes (computer players alone play for nobody).

    Each table's log says who was banned and why.
    """
    reason = require_reason(reason)
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    if user.banned_at is not None:
        raise ServiceError("invalid", _("%(username)s is already banned.") % {"username": user.username}, 409)
    if user.pk == moderator.pk:
        raise ServiceError("invalid", _("Moderators cannot ban themselves."), 400)
    if (user.is_staff or user.is_superuser) and not moderator.is_superuser:
        # A moderator must not be able to lock out the people who oversee moderators.
        raise ServiceError("invalid", _("Only a superuser may ban a staff account."), 403)
    user.is_active = False
    user.banned_at = timezone.now()
    user.ban_reason = reason
    user.ban_ends_at = until
    user.save(update_fields=["is_active", "banned_at", "ban_reason", "ban_ends_at"])
    # Every credential ends, the apps' and personal tokens with the account's own, and an
    # unban brings none back; while the ban lasts each says `banned` with the reason.
    tokens_revoke_for_ban(user=user, others=grant_selectors.token_digests_of(user=user))
    grants.grants_revoke_all(user=user)
    done = user_leave_open_rooms(user=user, reason=reason, banned=True)
    if until is not None:
        transaction.on_commit(lambda: _lift_at(user.pk, until))
    return ModerationEntry.objects.create(
        moderator=moderator,
        kind=ModerationEntry.Kind.TEMP_BAN if until is not None else ModerationEntry.Kind.BAN,
        reason=reason,
        target_user=user,
        facts=[*([entry_facts.until(until)] if until else []), *(done or [entry_facts.no_open_rooms()])],
    )


def _lift_at(user_id: int, until: datetime) -> None:
    """Queue the lifting of a temporary ban at its end, when that is near: a task
    waiting longer than the broker's visibility timeout would be handed out again and
    again (GAME_TASK_HORIZON_SECONDS, as for turns). The sweep every LIFT_BANS_SECONDS
    (`bans_ended_lift`) lifts the others, and any whose task was lost."""
    if (until - timezone.now()).total_seconds() > settings.GAME_TASK_HORIZON_SECONDS:
        return
    try:
        current_app.send_task(LIFT_BAN, args=(user_id,), eta=until)
    except Exception:  # the broker away: the sweep lifts it
        logger.exception("could not queue the end of the ban of %s", user_id)


@transaction.atomic
def ban_lift_if_over(*, user_id: int, now: datetime) -> bool:
    """Lift the account's temporary ban when its time is over; whether it did."""
    user = User.objects.select_for_update(no_key=True).filter(pk=user_id).first()
    if user is None or user.banned_at is None or user.ban_ends_at is None or user.ban_ends_at > now:
        return False
    _unban(user)
    # Kept in English, as the server's reasons are: the log shows it in the moderator's language.
    reason = gettext_noop("The ban's time is over.")
    ModerationEntry.objects.create(moderator=None, kind=ModerationEntry.Kind.BAN_ENDED, reason=reason, target_user=user)
    return True


def bans_ended_lift(*, now: datetime) -> int:
    """Lift every temporary ban whose time is over; how many."""
    due = User.objects.filter(banned_at__isnull=False, ban_ends_at__lte=now).values_list("pk", flat=True)
    return sum(ban_lift_if_over(user_id=pk, now=now) for pk in list(due))


def _unban(user: User) -> None:
    user.is_active = True
    user.banned_at = None
    user.ban_reason = ""
    user.ban_ends_at = None
    user.save(update_fields=["is_active", "banned_at", "ban_reason", "ban_ends_at"])
    banned_tokens_forget(user=user)


def user_leave_open_rooms(*, user: User, reason: str, banned: bool) -> list[entry_facts.Fact]:
    """Take a banned or closed account out of every room still open: a game in play
    gives its seat to a computer player, a lobby frees it, a room where nobody else sits
    closes; each table's log reads `reason`. What happened in each, for a log."""
    return [_leave(seat.room, seat.index, user, reason, banned) for seat in game_selectors.open_seats_of(user=user)]


def _leave(room: Room, index: int, user: User, reason: str, banned: bool) -> entry_facts.Fact:
    """Take the user out of one open room; what happened, for the log's facts."""
    try:
        if not game_selectors.room_has_other_players(room=room, user=user):
            table_moderation.room_close(code=room.code, reason=reason)
            return entry_facts.room_closed(room.code)
        if room.status == RoomStatus.PLAYING:
            table_moderation.seat_give_to_bot(code=room.code, index=index, reason=reason, banned=banned)
            return entry_facts.seat_to_bot(room.code, index)
        table_moderation.seat_remove(code=room.code, user=user, reason=reason, banned=banned)
        return entry_facts.seat_freed(room.code, index)
    except ServiceError as err:
        # The room moved on since it was listed (it finished, say); the ban or closure stands.
        return entry_facts.seat_left_as_it_was(room.code, index, err.code)


@transaction.atomic
def user_unban(*, moderator: User, user: User, reason: str) -> ModerationEntry:
    """The account may sign in again (with its password or passkey): every credential it
    held before the ban stays ended, its tokens, apps' tokens and sessions alike."""
    reason = require_reason(reason)
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    if user.banned_at is None:
        raise ServiceError("invalid", _("%(username)s is not banned.") % {"username": user.username}, 409)
    _unban(user)
    return ModerationEntry.objects.create(
        moderator=moderator, kind=ModerationEntry.Kind.UNBAN, reason=reason, target_user=user
    )


@transaction.atomic
def room_close(*, moderator: User, room: Room, reason: str) -> ModerationEntry:
    reason = require_reason(reason)
    table_moderation.room_close(code=room.code, reason=reason)
    return ModerationEntry.objects.create(
        moderator=moderator, kind=ModerationEntry.Kind.CLOSE_ROOM, reason=reason, room=room
    )


@transaction.atomic
def seat_give_to_bot(*, moderator: User, room: Room, index: int, reason: str) -> ModerationEntry:
    reason = require_reason(reason)
    player = game_selectors.seat_player(room=room, index=index)
    table_moderation.seat_give_to_bot(code=room.code, index=index, reason=reason)
    return ModerationEntry.objects.create(
        moderator=moderator,
        kind=ModerationEntry.Kind.SEAT_TO_BOT,
        reason=reason,
        room=room,
        target_user=player,
        facts=[entry_facts.seat(index)],
    )
