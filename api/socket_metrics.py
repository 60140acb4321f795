"""What the sockets and the channel layer count, as Prometheus metrics.

Defined here once, in the default registry, for whatever exposes them. Every process
that serves sockets (daphne) or sends notices (gunicorn, Celery) counts its own; in
multiprocess mode the gauge adds up the live processes' values (`livesum`).
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge

notices_dropped = Counter(
    "gameserver_notices_dropped_total",
    "Change notices the channel layer dropped: a socket process's channel was over "
    "CHANNELS_CAPACITY in Redis (counted by the sender), or a socket's own buffer in its "
    "process was full (counted by the socket process).",
    ["where"],
)
NOTICE_DROPPED_IN_REDIS = "redis"
NOTICE_DROPPED_IN_PROCESS = "process"

sockets_closed_rate_limited = Counter(
    "gameserver_socket_closed_rate_limited_total",
    "Sockets closed with 4429 because they or their account sent messages (or opened "
    "sockets) faster than WS_SOCKET_RATE or WS_ACCOUNT_RATE allow, or moves faster than "
    "WS_ACTION_RATE.",
    ["limit"],
)
LIMIT_SOCKET = "socket"
LIMIT_ACCOUNT = "account"
LIMIT_ACTIONS = "actions"

sockets_refused_busy = Counter(
    "gameserver_sockets_refused_busy_total",
    "Sockets closed with 1013 (try again later) because their process was overloaded: more "
    "handshakes waiting than WS_HANDSHAKES_WAITING_MAX (`waiting`), or the socket not ready "
    "within WS_ACCEPT_BUDGET_SECONDS (`budget`).",
    ["why"],
)
BUSY_WAITING = "waiting"
BUSY_BUDGET = "budget"

sockets_refused_too_many = Counter(
    "gameserver_sockets_refused_too_many_total",
    "Sockets closed with 4409 because their account already held WS_ACCOUNT_SOCKETS_MAX open.",
)

sockets_open = Gauge(
    "gameserver_sockets_open",
    "Sockets served (accepted and not refused) and still open, by path.",
    ["path"],
    multiprocess_mode="livesum",
)

room_pings = Counter(
    "gameserver_room_pings_total",
    "Pings of room sockets, by how they were answered: from the process's record of the "
    "room's position (`record`) or after reading the database (`database`).",
    ["answer"],
)
PING_FROM_RECORD = "record"
PING_FROM_DATABASE = "database"
