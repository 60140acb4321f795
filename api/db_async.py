"""channels' `database_sync_to_async`, typed (channels ships no annotations), run on
threads of the sockets' own.

channels runs every `database_sync_to_async` call of a process on one thread (asgiref's
thread-sensitive mode, outside any synchronous context, shares one executor of one
thread): a socket process's token lookups, room reads and presence writes all waited in
one queue. 300 sockets opened at once on a loaded machine waited in it past daphne's
connect timeout (daphne then answers 403): the thread was busy all the time, two thirds
of it writing presence records of sockets already open, with the handshakes' token
lookups queued behind. Here they run on SOCKET_DB_THREADS threads, each with a database
connection of its own (kept for DB_CONN_MAX_AGE), side by side; nothing here relies on
their order but what each caller awaits.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync
from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.db import connections

_threads = ThreadPoolExecutor(max_workers=settings.SOCKET_DB_THREADS, thread_name_prefix="socket-db")


def database_sync_to_async[**P, R](func: Callable[P, R]) -> SyncToAsync[P, R]:
    """Run `func` on one of the sockets' database threads, closing stale database
    connections around it."""
    wrapped: SyncToAsync[P, R] = DatabaseSyncToAsync(func, thread_sensitive=False, executor=_threads)
    return wrapped


def close_connections() -> None:
    """Close every database thread's connections."""
    close_thread_connections(_threads, settings.SOCKET_DB_THREADS)


def close_thread_connections(threads: ThreadPoolExecutor, count: int) -> None:
    """Close the database connections of each of the `count` threads of `threads`: each
    thread closes its own, all at once (a barrier holds each until all have one)."""
    together = threading.Barrier(count)

    def close() -> None:
        together.wait(timeout=10)
        connections.close_all()

    for done in [threads.submit(close) for _ in range(count)]:
        done.result()
