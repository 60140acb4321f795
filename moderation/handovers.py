"""Seats the server hands over by a room's rule (`on_abandon: bot`) go into the
moderation log beside the moderators' own hand-overs, so that one list shows every
seat that changed hands."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop

from accounts.models import User
from games.models import Room

from . import entry_facts
from .models import ModerationEntry

# The reasons are kept in English, as the server's own are: the log shows them in the
# moderator's language (moderation/admin/log.py).
_ENTRIES = {
    "to_bot": (
        ModerationEntry.Kind.SEAT_TO_BOT_IDLE,
        gettext_noop("Did not play for longer than the room's abandon_seconds."),
    ),
    "reclaimed": (
        ModerationEntry.Kind.SEAT_RECLAIMED,
        gettext_noop("Came back and took the seat back from the computer player."),
    ),
}


def seat_handed_over_record(*, room: Room, seat: int, user: User, kind: str, **_: Any) -> None:
    """Receives games.signals.seat_handed_over, inside the room's transaction."""
    entry_kind, reason = _ENTRIES[kind]
    ModerationEntry.objects.create(
        moderator=None, kind=entry_kind, reason=reason, target_user=user, room=room, facts=[entry_facts.seat(seat)]
    )
