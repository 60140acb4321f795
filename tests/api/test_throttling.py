import pytest
from django.core.cache import cache
from rest_framework.throttling import ScopedRateThrottle

from .helpers import error_code

pytestmark = pytest.mark.django_db


def test_too_many_logins_get_429_with_retry_after(api_client, monkeypatch):
    cache.clear()
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {**ScopedRateThrottle.THROTTLE_RATES, "auth": "3/min"})
    client = api_client()
    answers = [
        client.post("/api/v1/auth/token", {"username": "x", "password": "y-y-y-y-y"}, format="json") for _ in range(4)
    ]
    assert [r.status_code for r in answers] == [401, 401, 401, 429]
    assert error_code(answers[-1]) == "throttled"
    assert int(answers[-1]["Retry-After"]) > 0
    cache.clear()


def test_user_limit_counts_in_a_fixed_window(api_client, make_user, monkeypatch):
    from rest_framework.throttling import UserRateThrottle

    cache.clear()
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {**UserRateThrottle.THROTTLE_RATES, "user": "5/min"})
    user = make_user()
    client = api_client(user)
    answers = [client.get("/api/v1/me") for _ in range(6)]
    assert [r.status_code for r in answers] == [200] * 5 + [429]
    assert error_code(answers[-1]) == "throttled"
    assert 1 <= int(answers[-1]["Retry-After"]) <= 60
    # Another user has a counter of their own.
    assert api_client(make_user()).get("/api/v1/me").status_code == 200
    cache.clear()


def test_redis_counter_is_one_atomic_round_trip_with_a_lifetime(settings, monkeypatch):
    """Where the cache is Redis the counters live there (checked against the real server)."""
    import os
    import uuid

    from api import throttling

    settings.REDIS_URL = os.environ["CELERY_BROKER_URL"]
    monkeypatch.setattr(throttling, "_client", None)
    key = f"test-{uuid.uuid4().hex}"
    assert [throttling._count(None, key, 60) for _ in range(3)] == [1, 2, 3]
    assert throttling._count(None, key + "-other", 60) == 1
    client = throttling._redis()
    assert 0 < client.ttl(f"throttle:{key}") <= 60
    # The lifetime is set once per window, not pushed back by each request.
    client.expire(f"throttle:{key}", 5)
    throttling._count(None, key, 60)
    assert client.ttl(f"throttle:{key}") <= 5
    client.delete(f"throttle:{key}", f"throttle:{key}-other")
