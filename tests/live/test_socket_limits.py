"""The token buckets of api/socket_limits.py, on a clock the test turns."""

from __future__ import annotations

from api.socket_limits import AccountBuckets, TokenBucket


def test_a_bucket_gives_its_burst_then_its_rate():
    bucket = TokenBucket(rate=2, burst=3)
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.take(0.4) is False  # 0.8 of a token
    assert bucket.take(0.5) is True  # one
    assert bucket.take(0.5) is False
    # Never more than the burst, however long it waited.
    assert [bucket.take(100.0) for _ in range(4)] == [True, True, True, False]


def test_a_bucket_without_refill_gives_its_burst_once():
    bucket = TokenBucket(rate=0, burst=2)
    assert [bucket.take(t) for t in (0.0, 1.0, 1000.0)] == [True, True, False]


def test_accounts_have_a_bucket_each_and_full_ones_are_forgotten():
    now = [0.0]
    accounts = AccountBuckets(rate=1, burst=2, clock=lambda: now[0])
    assert [accounts.take(1) for _ in range(3)] == [True, True, False]
    assert accounts.take(2) is True  # another account's own bucket
    now[0] = 10.0  # both full again by now
    assert accounts.take(3) is True
    assert set(accounts.buckets) == {3}
    assert [accounts.take(1) for _ in range(3)] == [True, True, False]
