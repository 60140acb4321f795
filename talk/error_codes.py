"""The codes table talk answers: a line refused (its shape, where or when it is said, a
timeout)."""

from __future__ import annotations

from core.errors import Catalogue

CODES = Catalogue(
    "talk",
    {
        "one_of_phrase_or_text": (400, "A line is a quick phrase (`phrase`) or plain text (`text`): exactly one."),
        "unknown_phrase": (400, "There is no such quick phrase (docs/talk/table-talk.md lists them)."),
        "empty_message": (400, "The text holds nothing but spaces."),
        "chat_off_during_hand": (
            409,
            "The room's host turned free text off during a hand (`chat_during_hand`): quick phrases still work, "
            "and text again between hands.",
        ),
        "chat_closed": (409, "A moderator shut this room: nothing more is said at its table."),
        "chat_timed_out": (
            403,
            "A moderator timed you out of chat (in this room or everywhere); the detail says until when, and "
            "Retry-After how many seconds are left.",
        ),
    },
)
