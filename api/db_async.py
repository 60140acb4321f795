"""channels' `database_sync_to_async`, typed: channels ships no annotations."""

from __future__ import annotations

from collections.abc import Callable

from asgiref.sync import SyncToAsync
from channels.db import database_sync_to_async as _database_sync_to_async


def database_sync_to_async[**P, R](func: Callable[P, R]) -> SyncToAsync[P, R]:
    """Run `func` in a worker thread, closing stale database connections around it."""
    wrapped: SyncToAsync[P, R] = _database_sync_to_async(func)
    return wrapped
