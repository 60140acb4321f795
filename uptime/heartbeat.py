"""The heartbeat: every process that serves the API (gunicorn's workers, and the
development server) writes the one `Heartbeat` row every UPTIME_HEARTBEAT_SECONDS from a
thread of its own, so on any number of machines. A beat that finds the row older than
UPTIME_OUTAGE_AFTER_SECONDS records the gap as an `Outage`: for that long no process
could take a move (all stopped, restarting, or cut from the database).

Readers: `serving` (may the server act on a clock now: not while the API is down, since
players could not have moved) and `outages_since` (what the clocks give back).
UPTIME_HEARTBEAT_SECONDS = 0 turns all of it off: nothing is written, `serving` is
always true and no outage is ever recorded.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from datetime import datetime, timedelta
from functools import partial

from celery import current_app
from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.utils import timezone

from .models import Heartbeat, Outage

logger = logging.getLogger(__name__)

_ROW = 1
# The task that gives an outage back to the tables in play at once (games/tasks.py),
# sent by name: the games are above this app.
OUTAGE_CREDIT = "games.credit_outage"


def interval() -> float:
    return float(getattr(settings, "UPTIME_HEARTBEAT_SECONDS", 0))


def outage_after() -> timedelta:
    return timedelta(seconds=float(getattr(settings, "UPTIME_OUTAGE_AFTER_SECONDS", 6)))


def beat(*, now: datetime | None = None) -> Outage | None:
    """Say that this process can serve; returns the outage this beat ended, if any."""
    now = now or timezone.now()
    with transaction.atomic():
        row = Heartbeat.objects.select_for_update().filter(pk=_ROW).first()
        if row is None:
            Heartbeat.objects.bulk_create([Heartbeat(pk=_ROW, beat_at=now)], ignore_conflicts=True)
            return None
        last = row.beat_at
        if now <= last:  # another process beat later than this clock reads
            return None
        Heartbeat.objects.filter(pk=_ROW).update(beat_at=now)
        if now - last <= outage_after():
            return None
        outage = Outage.objects.create(started_at=last, ended_at=now)
        transaction.on_commit(partial(_announce, outage.started_at, outage.ended_at))
    logger.warning("no process served the API from %s to %s (%.1f s)", last, now, outage.seconds)
    return outage


def _announce(started: datetime, ended: datetime) -> None:
    try:
        current_app.send_task(OUTAGE_CREDIT, args=(started.isoformat(), ended.isoformat()))
    except Exception:  # the broker is down: each table gets it at its next change or due time
        logger.exception("could not send the outage's credit; the tables will take it as they move")


def last_beat() -> datetime | None:
    """When a process serving the API last beat; None where the heartbeat is off or has
    never beaten (nothing is known: the server acts as if it always served)."""
    if interval() <= 0:
        return None
    return Heartbeat.objects.filter(pk=_ROW).values_list("beat_at", flat=True).first()


def serving(*, now: datetime | None = None, last: datetime | None = None) -> bool:
    """Whether the API can take moves now, as far as the heartbeat tells: false while
    the last beat (`last`, when the caller read it already) is older than the outage
    threshold."""
    last = last if last is not None else last_beat()
    return last is None or (now or timezone.now()) - last <= outage_after()


def outages_since(moment: datetime) -> list[tuple[datetime, datetime]]:
    """The outages that ended after `moment`, oldest first."""
    if interval() <= 0:
        return []
    rows = Outage.objects.filter(ended_at__gt=moment).order_by("started_at")
    return list(rows.values_list("started_at", "ended_at"))


def last_outage_end() -> datetime | None:
    if interval() <= 0:
        return None
    return Outage.objects.order_by("-ended_at").values_list("ended_at", flat=True).first()


# -- the thread ------------------------------------------------------------------------

_thread: threading.Thread | None = None
_lock = threading.Lock()


def start() -> None:
    """Beat from this process until it exits (a daemon thread with its own database
    connection). Call it in each process that serves the API once it can serve: after
    its application has loaded (gunicorn's post_worker_init, deploy/gunicorn.conf.py),
    never in a process that forks the servers afterwards. Idempotent per process."""
    global _thread
    if interval() <= 0:
        return
    with _lock:
        if _thread is not None and _thread.is_alive() and _thread.name.endswith(f"-{os.getpid()}"):
            return
        _thread = threading.Thread(target=_run, name=f"uptime-heartbeat-{os.getpid()}", daemon=True)
        _thread.start()


def _run() -> None:
    while True:
        try:
            close_old_connections()
            beat()
        except Exception:  # the database is away: the gap will show as an outage
            logger.warning("heartbeat failed", exc_info=True)
            connection.close()
        time.sleep(interval())
