"""What moderation asks of a person before they take a seat or make a room: no unread
warning (moderation/queue.py), no playban for a rated table (moderation/playbans.py)."""

from __future__ import annotations

from datetime import datetime

from accounts.models import User

from .playbans import require_no_playban
from .queue import require_no_unread_warning


def require_may_sit(*, user: User, rated: bool | None, now: datetime) -> None:
    """409 `unread_warning` or `playbanned` (`rated`: the table's option; null may
    become rated), else nothing."""
    require_no_unread_warning(user=user)
    require_no_playban(user=user, rated=rated, now=now)
