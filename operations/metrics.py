"""The `/metrics` answer: the figures of core.metrics (and of every module that defines
its own) in Prometheus' text format, with what is read at the moment of the scrape: how
many tasks wait in the broker's queue.

With PROMETHEUS_MULTIPROC_DIR set (a deployment), the figures are those of every process
of this machine that shares the folder; without it, this process's own.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from celery import current_app
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class BrokerQueue(Collector):
    """Tasks waiting in the broker's default queue, read at each scrape. Tasks a worker
    holds for a later time (a deadline days away) are the worker's, not the queue's."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        depth = GaugeMetricFamily(
            "gameserver_queue_depth", "Tasks waiting in the broker's queue for a worker.", labels=["queue"]
        )
        up = GaugeMetricFamily("gameserver_broker_up", "Whether the broker answered the last scrape (1) or not (0).")
        queue = current_app.conf.task_default_queue
        try:
            with current_app.connection_for_read() as conn:
                conn.ensure_connection(max_retries=1, timeout=1)
                # Every kombu transport's channel answers a passive declare with the count;
                # Redis' says the queue is not there when its list is empty.
                channel: Any = conn.default_channel
                try:
                    waiting = channel.queue_declare(queue=queue, passive=True).message_count
                except conn.channel_errors:
                    waiting = 0
        except Exception:
            up.add_metric([], 0)
        else:
            up.add_metric([], 1)
            depth.add_metric([queue], waiting)
        yield depth
        yield up


_broker = BrokerQueue()
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    REGISTRY.register(_broker)


def exposition() -> bytes:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        registry.register(_broker)
        return generate_latest(registry)
    return generate_latest(REGISTRY)
