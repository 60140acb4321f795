import uuid
from datetime import UTC, datetime

import pytest
import time_machine
from django.core.cache import cache
from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle, SimpleRateThrottle

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

    import redis

    from core import counters

    settings.REDIS_URL = os.environ["CELERY_BROKER_URL"]
    key = f"test-{uuid.uuid4().hex}"
    assert [counters.count(key, 60) for _ in range(3)] == [1, 2, 3]
    assert counters.count(key + "-other", 60) == 1
    client = redis.Redis.from_url(settings.REDIS_URL)
    assert 0 < client.ttl(f"throttle:{key}") <= 60
    # The lifetime is set once per window, not pushed back by each request.
    client.expire(f"throttle:{key}", 5)
    counters.count(key, 60)
    assert client.ttl(f"throttle:{key}") <= 5
    # A success taken back leaves the window's lifetime as it was, and a window gone stays gone.
    counters.uncount(key)
    assert int(client.get(f"throttle:{key}")) == 3 and client.ttl(f"throttle:{key}") <= 5
    client.delete(f"throttle:{key}")
    counters.uncount(key)
    assert client.exists(f"throttle:{key}") == 0
    client.delete(f"throttle:{key}", f"throttle:{key}-other")


def test_a_large_limit_is_counted_in_batches_and_never_let_past(settings, monkeypatch):
    """`take`: a process reserves a hundredth of the limit at once; nobody is granted past
    the limit, and another process's unused reservation refuses at most a batch early."""
    import os

    import redis

    from core import counters

    settings.REDIS_URL = os.environ["CELERY_BROKER_URL"]
    counters._redis_counter()
    trips = []
    real = counters._clients.reserve
    monkeypatch.setattr(counters._clients, "reserve", lambda **kw: trips.append(kw) or real(**kw))
    key, limit = f"test-{uuid.uuid4().hex}", 1000
    # One process alone: exactly the limit, a round trip per batch of ten.
    assert all(counters.take(key, 60, limit) for _ in range(limit))
    assert len(trips) == limit // 10 and {tuple(t["args"]) for t in trips} == {(60, 10)}
    assert not any(counters.take(key, 60, limit) for _ in range(100))
    client = redis.Redis.from_url(settings.REDIS_URL)
    assert 0 < client.ttl(f"throttle:{key}") <= 60
    # Two processes, taking in turn, each with its own reservations.
    key = f"test-{uuid.uuid4().hex}"
    held: list[dict[str, int]] = [{}, {}]
    total = 0
    for i in range(1100):
        monkeypatch.setattr(counters, "_reserved", held[i % 2])
        total += counters.take(key, 60, limit)
    assert limit - 10 <= total <= limit
    # A small limit is counted one by one, exactly, with a take-back possible.
    key = f"test-{uuid.uuid4().hex}"
    assert [counters.take(key, 60, 150) for _ in range(151)] == [True] * 150 + [False]
    assert int(client.get(f"throttle:{key}")) == 151
    client.delete(f"throttle:{key}")


def _random_address():
    return ".".join(str(b) for b in uuid.uuid4().bytes[:4])


@pytest.fixture
def rates(monkeypatch):
    """Set some scopes' rates for one test; every counter starts from nothing."""

    def set_rates(**scoped):
        for cls in (SimpleRateThrottle, ScopedRateThrottle, AnonRateThrottle):
            monkeypatch.setattr(cls, "THROTTLE_RATES", {**cls.THROTTLE_RATES, **scoped})

    cache.clear()
    yield set_rates
    cache.clear()


def test_a_forged_forwarded_for_does_not_escape_the_login_limit(api_client, rates):
    rates(auth="3/min")
    client = api_client()
    answers = [
        client.post(
            "/api/v1/auth/token",
            # A new name each time too, so only the per-address limit can answer 429.
            {"username": f"nobody-{i}", "password": "y-y-y-y-y"},
            format="json",
            HTTP_X_FORWARDED_FOR=_random_address(),
        )
        for i in range(10)
    ]
    assert [r.status_code for r in answers] == [401] * 3 + [429] * 7
    assert error_code(answers[-1]) == "throttled"


def test_a_forged_forwarded_for_does_not_escape_the_anonymous_limit(api_client, rates):
    rates(anon="3/min")
    client = api_client()
    answers = [client.get("/api/v1/games/", HTTP_X_FORWARDED_FOR=_random_address()) for _ in range(6)]
    assert [r.status_code for r in answers] == [200] * 3 + [429] * 3


def test_behind_trusted_proxies_the_address_they_saw_counts(api_client, rates, settings):
    # One proxy of ours (nginx with $proxy_add_x_forwarded_for) appends what it saw to
    # whatever the client sent; only that last entry is believed.
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    rates(anon="2/min")
    client = api_client()

    def via_proxy(client_address, forged=""):
        header = f"{forged}, {client_address}" if forged else client_address
        return client.get("/api/v1/games/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=header).status_code

    assert [via_proxy("203.0.113.5", forged=_random_address()) for _ in range(3)] == [200, 200, 429]
    # Another client behind the same proxy has a counter of its own.
    assert via_proxy("203.0.113.6") == 200


def test_one_account_cannot_be_guessed_at_from_many_addresses(api_client, make_user, rates):
    rates(auth="1000/min", auth_account="3/min")
    make_user("victim")
    client = api_client()
    names = ["victim", "VICTIM", "Victim", "victim", "victim"]
    answers = [
        client.post(
            "/api/v1/auth/token",
            {"username": name, "password": "guess-guess"},
            format="json",
            REMOTE_ADDR=_random_address(),
        )
        for name in names
    ]
    assert [r.status_code for r in answers] == [401] * 3 + [429] * 2
    assert error_code(answers[-1]) == "throttled" and int(answers[-1]["Retry-After"]) > 0
    # Another account is not locked by the attack on this one.
    make_user("bystander")
    res = client.post("/api/v1/auth/token", {"username": "bystander", "password": "correct-horse-9"}, format="json")
    assert res.status_code == 200


def _sign_in(client, username, password, address):
    return client.post(
        "/api/v1/auth/token", {"username": username, "password": password}, format="json", REMOTE_ADDR=address
    ).status_code


@pytest.fixture
def clock_stands_still():
    """One window of the limits for the whole test (they count per minute)."""
    with time_machine.travel(datetime(2026, 1, 1, 12, 0, 10, tzinfo=UTC), tick=False):
        yield


def test_only_failures_count_and_a_known_address_is_not_kept_out(api_client, make_user, rates, clock_stands_still):
    rates(auth="1000/min", auth_account="3/min", auth_account_address="1000/min")
    make_user("owner")
    client = api_client()
    # Successes from new addresses are not failures: they leave the account's counter as it was.
    assert [_sign_in(client, "owner", "correct-horse-9", _random_address()) for _ in range(5)] == [200] * 5
    home = "198.51.100.1"
    assert _sign_in(client, "owner", "correct-horse-9", home) == 200
    assert [_sign_in(client, "owner", "wrong-guess", _random_address()) for _ in range(4)] == [401] * 3 + [429]
    # The account's limit is spent, for addresses new to it only.
    assert _sign_in(client, "owner", "correct-horse-9", _random_address()) == 429
    assert _sign_in(client, "owner", "correct-horse-9", home) == 200
    # An account made here knows its address from the start.
    res = client.post(
        "/api/v1/auth/register",
        {"username": "newcomer", "password": "correct-horse-9"},
        format="json",
        REMOTE_ADDR="192.0.2.9",
    )
    assert res.status_code == 201
    assert [_sign_in(client, "newcomer", "wrong-guess", _random_address()) for _ in range(4)] == [401] * 3 + [429]
    assert _sign_in(client, "newcomer", "correct-horse-9", "192.0.2.9") == 200


def test_an_ipv6_client_counts_by_its_network(api_client, make_user, rates, clock_stands_still):
    rates(auth="1000/min", auth_account="1000/min", auth_account_address="2/min")
    make_user("owner")
    client = api_client()
    # Addresses of one /64 are one client: a new address per guess does not escape.
    tries = [_sign_in(client, "owner", "wrong-guess", f"2001:db8:1:2::{i:x}") for i in range(1, 5)]
    assert tries == [401, 401, 429, 429]
    assert _sign_in(client, "owner", "wrong-guess", "2001:db8:1:3::1") == 401
