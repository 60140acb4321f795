"""The server's own figures, for Prometheus to scrape at `/metrics` (operations.metrics;
README, Deployment, Metrics). Defined here, at the bottom of the layers, so that every
app may count what it does; the sockets' and the channel layer's own live beside them
(api/socket_metrics.py).

In a deployment of several processes, PROMETHEUS_MULTIPROC_DIR names a folder that all
the processes of a machine share (prometheus-client's multiprocess mode): each writes
its figures there, and any web or socket process's `/metrics` shows the machine's sum.
Without it, `/metrics` shows the figures of the process that answers.
"""

from __future__ import annotations

from prometheus_client import Counter, Histogram

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
