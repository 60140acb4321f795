"""What an operator's tools read (docs/operations/deployment.md): `/healthz` (the process is alive),
`/readyz` (it can serve: the database, its migrations, Redis, the broker) and `/metrics`,
answered before the site's host check and rate limits; and, through real web and socket
processes, readiness that fails while the database is away and comes back with it.

The figures `/metrics` shows across a deployment's processes are checked where such a
deployment runs (tests/multiproc/test_two_of_each.py)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest
from celery import current_app
from prometheus_client.parser import text_string_to_metric_families

from tests.multiproc.processes import gunicorn_argv
from tests.servers import daphne_argv, database_url, free_port, server_env, serving
from tests.tcp_proxy import TcpProxy
from tests.yaml_text import read_yaml

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "var" / "test-logs"


@pytest.mark.django_db
def test_health_asks_nothing_and_readiness_checks_what_the_server_needs(client, django_assert_num_queries):
    # Asked by address, not by the site's name, as a probe asks: no host check refuses it.
    with django_assert_num_queries(0):
        res = client.get("/healthz", HTTP_HOST="10.1.2.3:8000")
    assert res.status_code == 200 and res.json() == {"status": "alive"}
    assert res["Cache-Control"] == "no-store"

    res = client.get("/readyz", HTTP_HOST="10.1.2.3:8000")
    assert res.status_code == 200, res.content
    checks = res.json()["checks"]
    assert res.json()["status"] == "ready"
    assert checks["database"] == "ok" and checks["migrations"] == "ok"
    assert checks["redis"] in ("ok", "not used") and checks["broker"] in ("ok", "not used")
    # A write is no probe: the paths are the site's like any other for other methods.
    assert client.post("/readyz").status_code != 200


@pytest.mark.django_db
def test_metrics_are_prometheus_text_and_may_ask_for_a_token(client, settings):
    res = client.get("/metrics")
    assert res.status_code == 200 and res["Content-Type"].startswith("text/plain; version=0.0.4")
    names = {family.name for family in text_string_to_metric_families(res.content.decode())}
    assert {"gameserver_move_seconds", "gameserver_due_lateness_seconds", "gameserver_queue_depth"} <= names

    # The broker's queue is read at the scrape: a task no worker has taken shows. The
    # default queue is one of this test's own for the while, so that no worker of the
    # run's Celery tests (on this process's broker) takes the task first.
    probe = f"metrics-probe-{uuid.uuid4().hex}"
    default = current_app.conf.task_default_queue
    current_app.conf.task_default_queue = probe
    current_app.send_task("games.sweep_overdue", queue=probe)
    try:
        figures = {
            (sample.name, tuple(sample.labels.values())): sample.value
            for family in text_string_to_metric_families(client.get("/metrics").content.decode())
            for sample in family.samples
        }
        assert figures[("gameserver_broker_up", ())] == 1
        assert figures[("gameserver_queue_depth", (probe,))] == 1
    finally:
        current_app.conf.task_default_queue = default
        with current_app.connection_for_write() as conn:
            conn.default_channel.queue_delete(probe)

    settings.METRICS_TOKEN = "scrape-secret-1"
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 401
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer scrape-secret-1").status_code == 200
    # Health and readiness stay open to the probes.
    assert client.get("/healthz").status_code == 200


@pytest.fixture
def proxied_database(transactional_db: Any) -> Iterator[tuple[str, TcpProxy]]:
    """The test database's address through a proxy the test can cut."""
    url = urlsplit(database_url())
    proxy = TcpProxy((url.hostname or "127.0.0.1", url.port or 5432))
    proxy.start()
    netloc = url.netloc.rsplit(":", 1)[0] + f":{proxy.port}"
    try:
        yield urlunsplit(url._replace(netloc=netloc)), proxy
    finally:
        proxy.cut()


def ready(url: str) -> tuple[int, dict[str, Any]]:
    res = httpx.get(f"{url}/readyz", timeout=30)
    return res.status_code, res.json()


def until(check: Any, seconds: float = 30) -> Any:
    """`check()` once it is truthy, by the clock (a loaded machine answers late)."""
    deadline = time.monotonic() + seconds
    while not (found := check()):
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.2)
    return found


@pytest.mark.parametrize("kind", ["gunicorn", "daphne"])
def test_readiness_fails_while_the_database_is_away(proxied_database, kind):
    database, proxy = proxied_database
    port = free_port()
    argv = gunicorn_argv(port) if kind == "gunicorn" else daphne_argv(port)
    env = server_env(database, DB_CONN_MAX_AGE="60")
    log = LOGS / f"operations-{kind}-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    with serving(kind, argv, port=port, env=env, log_path=log) as url:
        assert ready(url)[0] == 200

        proxy.cut()  # the database goes away, kept connections with it
        _, body = until(lambda: (r := ready(url))[0] == 503 and r)
        assert body["status"] == "not ready"
        assert body["checks"]["database"].startswith("failing: OperationalError")
        assert body["checks"]["migrations"] == "not checked: no database"
        # Alive all the same: restarting the process would not bring the database back.
        assert httpx.get(f"{url}/healthz", timeout=30).status_code == 200

        proxy.start()  # and comes back on the same address
        _, body = until(lambda: (r := ready(url))[0] == 200 and r)
        assert body["checks"]["database"] == "ok"


def test_the_deploy_files_watch_only_figures_the_server_has(client):
    """Every figure the Grafana dashboard and the Prometheus alerts read is one `/metrics`
    declares (a renamed metric would leave a panel empty and an alert silent)."""
    import api.socket_metrics  # noqa: F401  (the socket processes' own figures)

    declared = {family.name for family in text_string_to_metric_families(client.get("/metrics").content.decode())}
    read = set()
    for path in (ROOT / "deploy" / "grafana" / "gameserver.json", ROOT / "deploy" / "prometheus" / "gameserver.yml"):
        read |= set(re.findall(r"\bgameserver_[a-z_]+", path.read_text()))
    # A counter's samples end in _total, a histogram's in _bucket, _count and _sum.
    bases = {re.sub(r"_(total|bucket|count|sum)$", "", name) for name in read}
    assert read and bases <= declared, bases - declared
    # And nothing else but what Prometheus itself records of a scrape (`up`).
    dashboard = json.loads((ROOT / "deploy" / "grafana" / "gameserver.json").read_text())
    alerts = read_yaml((ROOT / "deploy" / "prometheus" / "gameserver.yml").read_text())
    exprs = [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
    exprs += [rule["expr"] for group in alerts["groups"] for rule in group["rules"]]
    functions = {"sum", "rate", "by", "histogram_quantile", "min", "le", "max", "without"}
    others = {w for e in exprs for w in re.findall(r"\b([a-z_]+)\s*[({]", e)} - functions
    assert {w for w in others if not w.startswith("gameserver_")} <= {"up"}, others


def test_the_live_values_of_a_process_that_is_gone_leave_the_figures(tmp_path):
    """A socket process restarted (systemd, a release) must not leave its sockets counted
    as open: the next one to start drops the live values of those that are gone."""
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    # A process that counts three sockets open and dies without a word.
    died = (
        "import os; from prometheus_client import Gauge;"
        "Gauge('s', 's', multiprocess_mode='livesum').set(3); os._exit(0)"
    )
    subprocess.run([sys.executable, "-c", died], env=env, check=True, cwd=ROOT)
    assert len(list(tmp_path.glob("gauge_livesum_*.db"))) == 1
    starts = "from core import metrics; metrics.forget_dead_processes()"
    subprocess.run([sys.executable, "-c", starts], env=env, check=True, cwd=ROOT)
    assert list(tmp_path.glob("gauge_livesum_*.db")) == []
