"""gunicorn's settings for the HTTP API processes (deploy/Procfile, the systemd units):
`gunicorn -c deploy/gunicorn.conf.py config.wsgi`.

A process must take connections only once it can serve them: a player whose move waits
on a process still loading would lose their turn's time to it. With `preload_app` the
master loads the application before it binds its socket, so a (re)started process
refuses connections (nginx tries another) until its workers are ready to answer.
Each worker then beats (uptime.heartbeat): the server's outages are the gaps.
"""

import os
from typing import Any

preload_app = True


def post_worker_init(worker: Any) -> None:
    from uptime import heartbeat

    heartbeat.start()


def child_exit(server: Any, worker: Any) -> None:
    # A worker's figures stay in the shared folder (PROMETHEUS_MULTIPROC_DIR), its gauges
    # of live values go with it (docs/operations/metrics.md).
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
