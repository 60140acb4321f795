"""Reads: the lines of a table a reader may read, blocks, and what stops a person
talking (a timeout, a shadow mute).

Who reads what:
- the players' channel: everyone who reads the room;
- the spectators' channel: everyone but the room's players, who read only the lines
  said outside a hand (in the lobby, between hands, after the match), so that nobody is
  helped by a watcher; a line's author always reads it;
- a shadow-muted author's lines: the author alone;
- a line of someone the reader blocked, or who blocked the reader: nobody of the two;
- a line a moderator took down: nobody.
These rules hold in the page (`lines_for`), on the socket (talk/live.py) and in the
replay alike, and never change for a line once said, so a page read stays true.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.selectors import blocked_either_way
from core.errors import ServiceError
from games import rules
from games.models import Room, RoomStatus, Round, Seat

from .models import Channel, ChatMessage, ChatTimeout, ShadowMute
from .phrases import QUICK_PHRASES


@dataclass(frozen=True)
class Reader:
    user_id: int | None
    # Holds a seat of the room (a computer player's for now included: its person may
    # reclaim it).
    seated: bool
    # Those whose lines this reader does not read, and who do not read theirs.
    hidden: frozenset[int]


def seated_user_ids(*, room: Room) -> set[int]:
    return set(Seat.objects.filter(room=room, user__isnull=False).values_list("user_id", flat=True))


def reader_of(*, room: Room, user: User | None) -> Reader:
    if user is None or not user.is_authenticated:
        return Reader(user_id=None, seated=False, hidden=frozenset())
    seated = Seat.objects.filter(room=room, user=user).exists()
    return Reader(user_id=user.pk, seated=seated, hidden=blocked_either_way(user_id=user.pk))


def lines_for(*, room: Room, reader: Reader, after: int = 0, limit: int = 50) -> list[ChatMessage]:
    """The lines `reader` reads, after the line `after`, oldest first."""
    lines = ChatMessage.objects.filter(room=room, pk__gt=after, removed_at__isnull=True)
    own = Q(author_id=reader.user_id) if reader.user_id is not None else Q(pk__in=[])
    lines = lines.filter(Q(shadow=False) | own)
    if reader.hidden:
        lines = lines.exclude(author_id__in=reader.hidden)
    if reader.seated:
        lines = lines.filter(Q(channel=Channel.PLAYERS) | Q(hand__isnull=True) | own)
    return list(lines.select_related("author").order_by("pk")[:limit])


def line_shown(line: ChatMessage) -> dict[str, Any]:
    """A line as the API shows it: plain text, never markup (a page shows it as text)."""
    return {
        "id": line.pk,
        "channel": line.channel,
        "author": {"username": line.author.username, "display_name": line.author.display_name, "seat": line.seat},
        "phrase": line.phrase or None,
        "text": QUICK_PHRASES[line.phrase] if line.phrase else line.text,
        "hand": line.hand,
        "sent_at": line.created_at,
    }


def hand_under_way(*, room: Room) -> int | None:
    """The number of the hand being played now; None in the lobby, between hands and
    after the match."""
    if room.status != RoomStatus.PLAYING:
        return None
    latest = Round.objects.filter(room=room).order_by("-number").values_list("number", "finished_at").first()
    if latest is None or latest[1] is not None:
        return None
    return int(latest[0])


def chat_during_hand(*, room: Room) -> bool:
    """Whether the players may write free text during a hand (the room's option, else
    yes unless partners are hidden)."""
    chosen = room.options.get("chat_during_hand")
    if chosen is not None:
        return bool(chosen)
    return not rules.get(room.game).partners_hidden(room.options)


def timeout_of(*, user: User, room: Room, now: datetime) -> ChatTimeout | None:
    """The chat timeout in force for `user` in `room` (its own or an everywhere one)
    that ends last."""
    found = ChatTimeout.objects.filter(user=user, until__gt=now, lifted_at__isnull=True)
    return found.filter(Q(room__isnull=True) | Q(room=room)).order_by("-until").first()


def shadow_muted(*, user: User) -> bool:
    return ShadowMute.objects.filter(user=user).exists()


def author_of_line(*, line_id: int) -> User:
    """The author of a line (404 `not_found` for no line)."""
    line = ChatMessage.objects.select_related("author").filter(pk=line_id).first()
    if line is None:
        raise ServiceError("not_found", _("No line has that id."), 404)
    return line.author


def timeouts_of(*, user: User, now: datetime) -> list[ChatTimeout]:
    """The chat timeouts in force for `user`, the one ending last first."""
    found = ChatTimeout.objects.filter(user=user, until__gt=now, lifted_at__isnull=True)
    return list(found.select_related("room").order_by("-until"))
