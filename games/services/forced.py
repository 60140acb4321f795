"""Forced plays: a player who asked for it (`User.auto_play_forced`) has the server
make a play that is their only legal action, as if they had sent it.

Only a play (a card, a tile) is ever made this way, never a pass, a bid or a choice,
and only when it is the one legal action. It is recorded as the player's own action
(it counts as their acting, against abandonment) and its public event says `forced`,
so the other players can see it: that is the price the settings page tells of.
"""

from __future__ import annotations

from typing import Any

from ..models import RoomStatus, Seat
from ..rules.base import Event
from ..store import Table

# The fields of a play, whatever the game calls the piece.
_PLAY_FIELDS = ("type", "card", "tile")


def anyone_opted_in(table: Table) -> bool:
    """Whether a person playing their own seat here asked for forced plays (cheap: read
    with the table)."""
    return any(_opted_in(s) for s in table.seats)


def forced_play(table: Table) -> tuple[Seat, dict[str, Any]] | None:
    """A seat to act whose person opted in and whose only legal action is one play,
    with that play; None when there is none. Expects the room lock held."""
    round_ = table.round
    if table.room.status != RoomStatus.PLAYING or round_ is None:
        return None
    for index in table.to_act:
        seat = table.seat_at(index)
        if seat is None or not _opted_in(seat):
            continue
        # A claim of the rest is no alternative to the one play: not asked about.
        legal = table.rules.legal_actions(round_.state, index, with_claim=False)
        if len(legal) == 1 and legal[0].get("type") == "play":
            return seat, {k: v for k, v in legal[0].items() if k in _PLAY_FIELDS}
    return None


def marked(events: list[Event], seat: int) -> list[Event]:
    """The engine's events of a forced play, its public play event marked `forced`."""
    out, done = [], False
    for event in events:
        data = event.data
        if not done and event.visible_to is None and data.get("type") == "play" and data.get("seat") == seat:
            event, done = Event({**data, "forced": True}, None), True
        out.append(event)
    return out


def _opted_in(seat: Seat) -> bool:
    return not seat.is_bot and seat.user_id is not None and seat.user is not None and seat.user.auto_play_forced
