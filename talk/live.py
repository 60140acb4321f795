"""A line said, pushed on its room's socket once it is committed.

One message to the room's group carries the line's frame and what each socket needs to
decide alone whether its person reads it (talk/selectors.py says who reads what): the
seated accounts (who do not read a spectators' line said during a hand), the accounts
that blocked its author or that its author blocked, and whether it is a shadow-muted
author's (then only the author's own sockets pass it on)."""

from __future__ import annotations

import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder

from accounts.selectors import blocked_either_way
from games import live

from .models import ChatMessage
from .selectors import line_shown, seated_user_ids

# The consumer's handler of the message (api/consumers.py RoomConsumer.chat_line).
MESSAGE_TYPE = "chat.line"


def chat_message(line: ChatMessage) -> dict[str, Any]:
    frame = json.dumps({"type": "chat", "line": line_shown(line)}, cls=DjangoJSONEncoder, ensure_ascii=False)
    return {
        "type": MESSAGE_TYPE,
        "frame": frame,
        "author": line.author_id,
        "watchers_only": line.hand is not None,
        "seated": sorted(seated_user_ids(room=line.room)),
        "hidden_from": sorted(blocked_either_way(user_id=line.author_id)),
        "shadow": line.shadow,
    }


def line_push_after_commit(line: ChatMessage) -> None:
    live.room_send_after_commit(line.room.code, chat_message(line))


def reads(message: dict[str, Any], user_id: int) -> bool:
    """Whether the socket of `user_id` passes the line of `message` on."""
    if message["author"] == user_id:
        return True
    if message["shadow"] or user_id in message["hidden_from"]:
        return False
    return not (message["watchers_only"] and user_id in message["seated"])
