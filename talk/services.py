"""Writes: a line said at a table.

A line is checked against where and when it is said (a shut room, free text during a
hand the host kept quiet, a moderator's timeout), kept, and pushed on the room's socket
once committed. Saying something never locks the table: talk and moves do not wait on
each other."""

from __future__ import annotations

import math
import unicodedata
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core.errors import ServiceError
from games.models import Room, RoomStatus, Seat

from . import live, selectors
from .models import Channel, ChatMessage, ChatTimeout, ShadowMute
from .phrases import QUICK_PHRASES


@transaction.atomic
def line_say(*, room: Room, user: User, phrase: str = "", text: str = "", now: datetime) -> ChatMessage:
    """`user` says a quick phrase (its key) or plain text at `room`'s table: in the
    players' channel from a seat, else in the spectators'."""
    if bool(phrase) == bool(text):
        raise ServiceError("one_of_phrase_or_text", _("Send a quick phrase or a text, not both or neither."))
    if phrase and phrase not in QUICK_PHRASES:
        raise ServiceError("unknown_phrase", _("There is no such quick phrase."), 400, "phrase")
    text = unicodedata.normalize("NFC", text).strip()
    if phrase == "" and not text:
        raise ServiceError("empty_message", _("Write something first."), 400, "text")
    if room.status == RoomStatus.CLOSED:
        raise ServiceError("chat_closed", _("A moderator shut this room: its table is quiet now."), 409)
    timeout = selectors.timeout_of(user=user, room=room, now=now)
    if timeout is not None:
        left = math.ceil((timeout.until - now).total_seconds())
        raise ServiceError(
            "chat_timed_out",
            # Translators: the time is YYYY-MM-DD HH:MM.
            _("A moderator timed you out of chat until %(until)s UTC.") % {"until": f"{timeout.until:%Y-%m-%d %H:%M}"},
            403,
            retry_after=max(1, left),
        )
    seat = Seat.objects.filter(room=room, user=user).values_list("index", flat=True).first()
    hand = selectors.hand_under_way(room=room)
    if text and seat is not None and hand is not None and not selectors.chat_during_hand(room=room):
        raise ServiceError(
            "chat_off_during_hand",
            _("Free text is off during a hand at this table: a quick phrase works, or write between hands."),
            409,
        )
    line = ChatMessage.objects.create(
        room=room,
        author=user,
        channel=Channel.PLAYERS if seat is not None else Channel.SPECTATORS,
        seat=seat,
        phrase=phrase,
        text="" if phrase else text,
        hand=hand if seat is None else None,
        shadow=selectors.shadow_muted(user=user),
        created_at=now,
    )
    live.line_push_after_commit(line)
    return line


def person_talk_erase(*, user: User) -> None:
    """Erase what an account said (its erasure after closure). Its chat timeouts stay
    with the moderation record."""
    ChatMessage.objects.filter(author=user).delete()
    ShadowMute.objects.filter(user=user).delete()


def timeout_give(*, user: User, room: Room | None, until: datetime, reason: str) -> ChatTimeout:
    """A moderator's chat timeout: `user` says nothing in `room` (anywhere when None)
    until `until`."""
    return ChatTimeout.objects.create(user=user, room=room, until=until, reason=reason)


def shadow_mute(*, user: User, reason: str) -> None:
    """From now on `user`'s lines reach only themselves."""
    ShadowMute.objects.update_or_create(user=user, defaults={"reason": reason})
