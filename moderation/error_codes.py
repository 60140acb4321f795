"""The codes moderation answers people (not moderators, who read plain messages in the
admin): a report refused, and a seat withheld until a warning is read."""

from __future__ import annotations

from core.errors import Catalogue

CODES = Catalogue(
    "moderation",
    {
        "report_self": (400, "Nobody can report themselves."),
        "playbanned": (
            409,
            "Too many rated matches abandoned lately: no seat at a rated table until the detail's time "
            "(Retry-After: the seconds left). Unrated tables are open.",
        ),
        "unread_warning": (
            409,
            "A moderator's warning waits to be read: `GET me/sanctions` shows it, `POST me/warnings/{id}/read` "
            "marks it read; until then no seat is taken or room made.",
        ),
    },
)
