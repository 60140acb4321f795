"""Open ws/me/ sockets: while a player has a fresh one, turns reach them there and no
notice is sent."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from ..models import SocketPresence


def presence_mark(*, user_id: int, channel_name: str, now: datetime | None = None) -> None:
    """The socket `channel_name` of `user_id` is open (on connect, and again at every
    refresh: the row comes back if a scan took it for stale meanwhile)."""
    SocketPresence.objects.update_or_create(
        channel_name=channel_name, defaults={"user_id": user_id, "seen_at": now or timezone.now()}
    )


def presence_end(*, channel_name: str) -> None:
    SocketPresence.objects.filter(channel_name=channel_name).delete()


def presence_expire(*, older_than: datetime) -> int:
    """Forget the sockets unheard of since `older_than`: their process died with them."""
    deleted, _ = SocketPresence.objects.filter(seen_at__lte=older_than).delete()
    return deleted
