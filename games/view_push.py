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
    carry each viewer's view of `table` as it committed, made only for the groups that
    someone listens to (live.members_now): at a table played a move a day, most changes
    have nobody to see them live."""
    room = table.room
    position = {"version": room.version, "seq": room.event_seq, "after": table.seq_read}
    mark = {"version": room.version, "seq": room.event_seq}
    viewers = {
        live.viewer_group_name(room.code, seat.user_id): seat for seat in table.seats if seat.user_id is not None
    }
    public_group = live.group_name(room.code)
    members = live.members_now([*viewers, public_group])
    notices: list[tuple[str, dict[str, Any]]] = []
    for group, seat in viewers.items():
        if members is None or members[group]:
            notices.append((group, {"type": "seat.view", **mark, "frame": _frame(table, seat, position)}))
    # The seated people's sockets have their own view (or the room's `changed`): the layer
    # sends them none of this, so it is made only for a socket of someone else (or one of
    # a seated person's that asked for notices alone: the room's group holds both alike).
    own = set() if members is None else {name for group in viewers for name in members[group]}
    if members is None or any(name not in own for name in members[public_group]):
        public = {
            "type": "room.view",
            **mark,
            "frame": _frame(table, None, position),
            "seated": [seat.user_id for seat in viewers.values()],
            live.EXCEPT_GROUPS: list(viewers),
        }
        notices.append((public_group, public))
    return notices


def _frame(table: Table, seat: Any, position: dict[str, int]) -> str:
    """The socket's message as its text, made here once and written as the API's answers
    are (ORJSON_RENDERER_OPTIONS): the socket process sends it as it is, with nothing to
    decode or encode again."""
    index = None if seat is None else seat.index
    events = [selectors.event_shown(e) for e in table.logged if selectors.event_seen_by(e, index)]
    message = {"type": "view", **position, "events": events, "view": selectors.seat_view(table=table, mine=seat)}
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
