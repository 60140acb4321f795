"""Times as the API writes them."""

from __future__ import annotations

from datetime import datetime


def iso(moment: datetime | None) -> str | None:
    """ISO 8601 UTC, as the API writes times, so answers are plain JSON (views are
    stored as the replayed answer of idempotent requests, notices go through Redis)."""
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")
