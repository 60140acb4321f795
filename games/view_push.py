"""Each viewer's view, pushed on the room's sockets once a change commits.

At a live table every change used to cost each other player a `GET state` and a
`GET events`: four requests, four token lookups, four table reads for one move. The
table is in memory when its change commits, so its views are made here instead, once
per viewer per version, and sent with the events the change logged that each may read:

- each seated person's own view, to their sockets of the room alone
  (`live.viewer_group_name`, a group per person and room, never a shared one);
- one view for everyone else (spectators, and people with no seat), to the room's group,
  naming the people seated so that their sockets leave it to their own.

A view pushed here is the one `GET state` answers that person at the same version
(selectors.seat_view makes both), and its events are those `GET events` shows them
(selectors.event_seen_by, event_shown): nothing reaches a socket that the same person
could not read over HTTP. api/consumers.py passes them on as `{"type": "view", ...}`.
"""

from __future__ import annotations

from typing import Any

import orjson

from . import live, selectors
from .store import Table


def views_to_push(sender: object, table: Table, **kwargs: Any) -> list[tuple[str, dict[str, Any]]]:
    """The `table_committed` receiver (games/apps.py): the (group, message) pairs that
    carry each viewer's view of `table` as it committed."""
    room = table.room
    position = {"version": room.version, "seq": room.event_seq, "after": table.seq_read}
    mark = {"version": room.version, "seq": room.event_seq}
    notices: list[tuple[str, dict[str, Any]]] = []
    seated: list[int] = []
    for seat in table.seats:
        if seat.user_id is None:
            continue
        seated.append(seat.user_id)
        message = {"type": "seat.view", **mark, "frame": _frame(table, seat, position)}
        notices.append((live.viewer_group_name(room.code, seat.user_id), message))
    public = {
        "type": "room.view",
        **mark,
        "frame": _frame(table, None, position),
        "seated": seated,
        # The seated people's sockets have their own: the layer sends them none of this.
        live.EXCEPT_GROUPS: [group for group, _ in notices],
    }
    notices.append((live.group_name(room.code), public))
    return notices


def _frame(table: Table, seat: Any, position: dict[str, int]) -> str:
    """The socket's message as its text, made here once and written as the API's answers
    are (ORJSON_RENDERER_OPTIONS): the socket process sends it as it is, with nothing to
    decode or encode again."""
    index = None if seat is None else seat.index
    events = [selectors.event_shown(e) for e in table.logged if selectors.event_seen_by(e, index)]
    message = {"type": "view", **position, "events": events, "view": selectors.seat_view(table=table, mine=seat)}
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
