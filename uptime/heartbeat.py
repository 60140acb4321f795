"""The heartbeat: every process that serves the API (gunicorn's workers, and the
development server) writes the one `Heartbeat` row from a thread of its own, so on any
number of machines. A beat that finds the row older than UPTIME_OUTAGE_AFTER_SECONDS
records the gap as an `Outage`: for that long no process answered the API (all stopped,
restarting, or cut from the database).

An outage is what players saw: it ends when the API has answered again, not when a
process came up. So a process beats only once it has served an answer to completion
(Django's `request_finished`, sent once the server has written the whole response): its
first beat is stamped with the moment that first answer was served, and that moment
ends the outage. From then on it beats every eighth of UPTIME_HEARTBEAT_SECONDS, whether
answers come or not, so that the last beat is never far behind a clock running out
(games.services.due waits for a beat after a deadline): a turn that runs out at a quiet
table of a quiet server is acted on within a fraction of a second, not a whole interval
later. A process that has not yet served anything, and that nobody asks anything of for
UPTIME_HEARTBEAT_SECONDS, answers a request of its own (`probe`, the
API's `games/` through gunicorn's own socket, deploy/gunicorn.conf.py): queued behind
whatever waits, it is answered when they are, and no sooner. Only the API's answers
count (`counts`): a load balancer's `/healthz` is answered before the application, by a
process that may not yet answer a player.

Readers: `serving` (may the server act on a clock now: not while the API is down, since
players could not have moved) and `outages_since` (what the clocks give back; each
turn is then owed at least `min_serving_after_outage` of serving time after the outage,
games.timing.extended). UPTIME_HEARTBEAT_SECONDS = 0 turns all of it off: nothing is
written, `serving` is always true and no outage is ever recorded.
"""

from __future__ import annotations

import logging
import os
import threading
import urllib.request
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from celery import current_app
from django.conf import settings
from django.core.signals import request_finished, request_started
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


def min_serving_after_outage() -> timedelta:
    """The serving time every turn an outage overlapped is owed after the outage's end
    (the first answer served), before its clock may run out; the whole clock when that
    is shorter (games.timing.extended)."""
    return timedelta(seconds=float(getattr(settings, "UPTIME_MIN_SERVING_AFTER_OUTAGE_SECONDS", 15)))


def fresh_interval() -> float:
    """How often a process beats once it has served an answer: an eighth of the interval
    (a quarter of a second by default), so that a clock that runs out is seen served past
    soon after (games.services.due). One small update of one row per process: four a
    second each."""
    return interval() / 8


def beat(*, now: datetime | None = None) -> Outage | None:
    """Say that this process can serve; returns the outage this beat ended, if any."""
    now = now or timezone.now()
    # The common case in one statement, no transaction: the last beat is recent and
    # earlier than this one. Else (a gap, no row yet, a later beat) under the row lock;
    # an update waiting for that lock reads the row again once it is released.
    recent = Heartbeat.objects.filter(pk=_ROW, beat_at__lt=now, beat_at__gte=now - outage_after())
    if recent.update(beat_at=now):
        return None
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


class Pulse:
    """One process's beats: none until it has served an answer, the first stamped with
    the moment that answer was served, then one every `fresh_interval()`. `step` does
    what is due and says how long to wait; `served` is called as each answer has been
    served (from any thread)."""

    def __init__(self, *, probe: str | None = None) -> None:
        self.probe = probe  # a URL of this process's own API to ask when nobody asks
        self.first_served: datetime | None = None
        self.beaten_at: datetime | None = None  # this process's last beat (its clock)
        self.began: datetime | None = None  # its first look
        self.wake = threading.Event()
        self._probing = False

    def served(self, at: datetime | None = None) -> None:
        if self.first_served is None:
            self.first_served = at or timezone.now()
            self.wake.set()  # the first beat, which may end an outage, at once

    def step(self, *, now: datetime | None = None) -> float:
        """Beat if due; the seconds until the next look."""
        now = now or timezone.now()
        every = interval()
        if self.first_served is None:
            # Nothing served yet: nothing said. Nobody asked anything for a beat: ask
            # ourselves, behind whatever waits by then.
            self.began = self.began or now
            if (now - self.began).total_seconds() >= every:
                self._ask_ourselves()
            return every
        if self.beaten_at is None:
            beat(now=self.first_served)  # the outage, if any, ends with this answer
            self.beaten_at = self.first_served
            return fresh_interval()
        since = (now - self.beaten_at).total_seconds()
        if since >= fresh_interval():
            beat(now=now)
            self.beaten_at = now
            return fresh_interval()
        return fresh_interval() - since

    def _ask_ourselves(self) -> None:
        if self.probe is None or self._probing:
            return
        self._probing = True
        threading.Thread(target=self._probe, name="uptime-probe", daemon=True).start()

    def _probe(self) -> None:
        if self.probe is None:
            return
        # As the site's name, so that the host check lets it through to the API.
        hosts = [h for h in getattr(settings, "ALLOWED_HOSTS", []) if h and h[0] not in ".*"]
        request = urllib.request.Request(self.probe, headers={"Host": hosts[0]} if hosts else {})
        try:
            with urllib.request.urlopen(request, timeout=PROBE_TIMEOUT_SECONDS) as answer:
                answer.read()
        except Exception:  # not served: the next look asks again
            logger.info("the heartbeat's own request to %s got no answer", self.probe)
        finally:
            self._probing = False


# How long the process's own request may wait behind the others.
PROBE_TIMEOUT_SECONDS = 60.0

_thread: threading.Thread | None = None
_pulse: Pulse | None = None
_lock = threading.Lock()


# Whether the request this thread serves is one of the API's (not a probe's or scraper's
# `/healthz`, `/readyz`, `/metrics`, answered before the application, nor a static file).
_request = threading.local()


def counts(path: str) -> bool:
    """Whether an answer to `path` shows the API answering: players' requests do, the
    deployment's probes and static files do not."""
    return path.startswith("/api/")


def _note_started(*, environ: dict[str, Any] | None = None, scope: dict[str, Any] | None = None, **_: Any) -> None:
    """`request_started` (WSGI gives the environ, ASGI the scope)."""
    path = (environ or {}).get("PATH_INFO") if environ is not None else (scope or {}).get("path")
    _request.counts = counts(str(path or ""))


def _note_served(**kwargs: object) -> None:
    """`request_finished`: this process has served an answer to completion."""
    if _pulse is not None and getattr(_request, "counts", True):
        _pulse.served()
    _request.counts = True


def start(*, probe: str | None = None) -> None:
    """Beat from this process until it exits (a daemon thread with its own database
    connection), once it has served an answer of the API (`probe`: a URL of its own
    API, e.g. `http://127.0.0.1:8000/api/v1/games/`, that it asks itself when nobody
    asks it anything within a beat). Call it in each process that serves the API once it can serve:
    after its application has loaded (gunicorn's post_worker_init,
    deploy/gunicorn.conf.py), never in a process that forks the servers afterwards.
    Idempotent per process."""
    global _thread, _pulse
    if interval() <= 0:
        return
    with _lock:
        if _thread is not None and _thread.is_alive() and _thread.name.endswith(f"-{os.getpid()}"):
            return
        _pulse = Pulse(probe=probe)
        request_started.connect(_note_started, dispatch_uid="uptime-heartbeat-started")
        request_finished.connect(_note_served, dispatch_uid="uptime-heartbeat-served")
        _thread = threading.Thread(target=_run, args=(_pulse,), name=f"uptime-heartbeat-{os.getpid()}", daemon=True)
        _thread.start()


def _run(pulse: Pulse) -> None:
    while True:
        wait = interval()
        try:
            close_old_connections()
            wait = pulse.step()
        except Exception:  # the database is away: the gap will show as an outage
            logger.warning("heartbeat failed", exc_info=True)
            connection.close()
        pulse.wake.wait(max(0.0, wait))
        pulse.wake.clear()
