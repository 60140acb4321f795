"""The notices as production sends them: a real Celery worker running beat (the scan
every second) and the deliveries it queues through the Redis broker, on the test
database, pushing to the fake push service of this process. Its broker keys carry a
prefix of their own, so that no other worker of the test run takes its tasks."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import redis
from django.conf import settings

from tests.integration.conftest import start_worker, worker_env

from .conftest import start_room, subscribe

pytestmark = pytest.mark.django_db(transaction=True)


def wait_for(check: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_beat_and_a_worker_tell_a_waiting_turn_once(push_on, push_service, make_user):
    player = make_user()
    room = start_room(player, name="By the worker")
    browser = subscribe(player, push_service, "/push/celery")

    prefix = f"notify-{os.getpid()}-{time.monotonic_ns()}"
    env = {
        **worker_env(),
        "VAPID_PUBLIC_KEY": settings.VAPID_PUBLIC_KEY,
        "VAPID_PRIVATE_KEY": settings.VAPID_PRIVATE_KEY,
        "VAPID_SUBJECT": settings.VAPID_SUBJECT,
        "PUSH_ALLOW_LOOPBACK": "1",
        "NOTIFY_AFTER_SECONDS": "0",
        "NOTIFY_SCAN_SECONDS": "1",
        "CELERY_KEY_PREFIX": f"{prefix}:",
        "CHANNELS_PREFIX": prefix,
    }
    name = f"notify-{os.getpid()}"
    schedule = Path(tempfile.mkdtemp()) / "beat-schedule"
    worker, log = start_worker(name, "--beat", f"--schedule={schedule}", env=env)
    try:
        wait_for(lambda: " ready." in log.read_text(errors="replace"), 60, "the worker")
        wait_for(lambda: len(push_service.at("/push/celery")) >= 1, 60, "the push")
        # Beat scans every second: more scans tell nothing more.
        time.sleep(3)
    finally:
        worker.terminate()
        worker.wait(20)
        client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
        for key in client.scan_iter(match=f"{prefix}*", count=1000):
            client.delete(key)
    [message] = push_service.at("/push/celery")
    payload = browser.decrypt(message)
    assert payload["title"] == "Your turn" and payload["rooms"] == [room.code], payload
    assert payload["body"].startswith("By the worker — ")
    assert "notifications.deliver_turn_notice" in log.read_text()
    log.unlink()
