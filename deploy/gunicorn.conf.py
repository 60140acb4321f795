"""gunicorn's settings for the HTTP API processes (deploy/Procfile, the systemd units):
`gunicorn -c deploy/gunicorn.conf.py config.wsgi`.

A process must take connections only once it can serve them: a player whose move waits
on a process still loading would lose their turn's time to it. With `preload_app` the
master loads the application before it binds its socket, so a (re)started process
refuses connections (nginx tries another) until its workers are ready to answer.
Each worker then beats (uptime.heartbeat) once it has served its first answer: the
server's outages are the gaps, and one ends when the API has answered again. A worker
that nobody asks anything asks its own API (`games/`) through the socket it shares.
"""

import os
from typing import Any

preload_app = True


def post_worker_init(worker: Any) -> None:
    from uptime import heartbeat

    heartbeat.start(probe=_own_api(worker))


def _own_api(worker: Any) -> str | None:
    """The API's list of games on the first TCP socket the worker listens on: asked
    through it, the request waits behind the others there, and its answer, through the
    whole application, says the API answers."""
    for listener in getattr(worker, "sockets", []):
        try:
            name = listener.getsockname()
        except OSError:
            continue
        if isinstance(name, tuple) and len(name) >= 2:
            host = str({"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(name[0], name[0]))
            host = f"[{host}]" if ":" in host else host
            return f"http://{host}:{name[1]}/api/v1/games/"
    return None


def child_exit(server: Any, worker: Any) -> None:
    # A worker's figures stay in the shared folder (PROMETHEUS_MULTIPROC_DIR), its gauges
    # of live values go with it (docs/operations/metrics.md).
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
