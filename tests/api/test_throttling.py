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
