"""The server's own figures, for Prometheus to scrape at `/metrics` (operations.metrics;
docs/operations/metrics.md). Defined here, at the bottom of the layers, so that every
app may count what it does; the sockets' and the channel layer's own live beside them
(api/socket_metrics.py).

In a deployment of several processes, PROMETHEUS_MULTIPROC_DIR names a folder that all
the processes of a machine share (prometheus-client's multiprocess mode): each writes
its figures there, and any web or socket process's `/metrics` shows the machine's sum.
Without it, `/metrics` shows the figures of the process that answers.
"""

from __future__ import annotations

import atexit
import logging
import os
from pathlib import Path

from prometheus_client import Counter, Histogram, multiprocess

logger = logging.getLogger(__name__)

MOVES = Counter(
    "gameserver_moves",
    "Moves applied at tables, by game and by whom: a person, a computer player, or the "
    "server for a person whose time ran out (timeout).",
    ["game", "by"],
)

MOVE_SECONDS = Histogram(
    "gameserver_move_seconds",
    "How long the server took to take a person's move: from the service's start (the "
    "room locked, the table read) to its commit, the computer players' replies included.",
    buckets=(0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.5, 5.0),
)

DUE_LATENESS = Histogram(
    "gameserver_due_lateness_seconds",
    "How late a table's due-time task (a computer player's move on its delay, a timeout, "
    "an abandonment) started after the time it was due.",
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0),
)


def move_by(*, by_bot: bool, automatic: bool) -> str:
    """The `by` label of a move."""
    return "bot" if by_bot else "timeout" if automatic else "person"


def observe_quietly(histogram: Histogram, value: float) -> None:
    """Observe `value`; a figure that cannot be written (a full or missing metrics folder)
    is logged, never raised into the work it measures."""
    try:
        histogram.observe(value)
    except OSError:
        logger.exception("a figure could not be written")


def forget_dead_processes() -> None:
    """In multiprocess mode, drop the live values (gauges such as the sockets open) of
    processes of this machine that are gone, and this process's own when it exits.
    gunicorn's master does it for its workers (deploy/gunicorn.conf.py); a socket process
    (daphne, restarted by systemd or a release) calls this as it starts."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not folder:
        return
    for path in Path(folder).glob("gauge_live*_*.db"):
        pid = path.stem.rsplit("_", 1)[1]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            multiprocess.mark_process_dead(int(pid), folder)
    atexit.register(multiprocess.mark_process_dead, os.getpid(), folder)
