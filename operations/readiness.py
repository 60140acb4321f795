"""Readiness: whether this process can serve now. Each check names one thing the server
needs and raises when it is not there; `/readyz` answers 503 while any fails.

Liveness (`/healthz`) checks nothing: the process answered, so it is alive; restarting
it for a database outage would not help.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache
from typing import Any

import redis
from django.conf import settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

# A check must answer well within a load balancer's probe timeout.
REDIS_TIMEOUT_SECONDS = 1.0


class NotReady(Exception):
    pass


def database() -> str | None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:
        # A connection cut under the server is dropped, so that the next check (or
        # request) connects afresh.
        connection.close()
        raise
    return None


# Once applied, a release's migrations stay applied for the life of the process: the
# plan is read from the database until it is empty, then never again.
_migrated = False


def migrations() -> str | None:
    global _migrated
    if _migrated:
        return None
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if plan:
        raise NotReady(f"{len(plan)} migrations not applied (manage.py migrate)")
    _migrated = True
    return None


@cache
def _redis_urls() -> tuple[str, ...]:
    """Every Redis the server uses (cache, channel layer, broker), each once."""
    # The channel layer's hosts as settings made them (not read again from the environment).
    layer: Any = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
    urls = [
        getattr(settings, "REDIS_URL", ""),
        *(host.get("address", "") for host in layer.get("hosts", []) if isinstance(host, dict)),
        getattr(settings, "CELERY_BROKER_URL", ""),
    ]
    return tuple(dict.fromkeys(u for u in urls if u.startswith(("redis://", "rediss://", "unix://"))))


def redis_servers() -> str | None:
    if not _redis_urls():
        return "not used"
    for url in _redis_urls():
        client = redis.Redis.from_url(
            url, socket_timeout=REDIS_TIMEOUT_SECONDS, socket_connect_timeout=REDIS_TIMEOUT_SECONDS
        )
        try:
            client.ping()
        finally:
            client.close()
    return None


def broker_folder() -> str | None:
    """The embedded start's filesystem broker: its folder must be there to write in."""
    options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}) or {}
    folder = options.get("data_folder_in")
    if not folder:
        return "not used"
    if not os.access(folder, os.W_OK):
        raise NotReady(f"the broker's folder {folder} cannot be written")
    return None


# Each answers None when all is well, or a word on why it has nothing to check.
CHECKS: dict[str, Callable[[], str | None]] = {
    "database": database,
    "migrations": migrations,
    "redis": redis_servers,
    "broker": broker_folder,
}


def report() -> tuple[bool, dict[str, str]]:
    """Whether every check passes, and each check's outcome in words: "ok", or the kind of
    failure and its first line (no more: the answer is for an operator's probe)."""
    outcome: dict[str, str] = {}
    for name, check in CHECKS.items():
        if name == "migrations" and outcome.get("database") != "ok":
            outcome[name] = "not checked: no database"
            continue
        try:
            said = check()
        except Exception as exc:
            first = (str(exc).strip().splitlines() or [""])[0][:200]
            outcome[name] = f"failing: {type(exc).__name__}: {first}".rstrip(": ")
        else:
            outcome[name] = said or "ok"
    return not any(v.startswith(("failing", "not checked")) for v in outcome.values()), outcome
