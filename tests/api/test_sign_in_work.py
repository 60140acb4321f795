"""A failed sign-in costs the same work whatever the account: one password hash for an
unknown name, a wrong password, a banned account (right password or wrong) and an
account without a usable password, so that the time of an answer tells nothing. The
work is counted (hashes computed), not timed: a busy machine's clock proves nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.core.cache import cache
from django.utils import timezone

from .helpers import error_code

pytestmark = pytest.mark.django_db


@pytest.fixture
def hashes(monkeypatch):
    """How many password hashes were computed (the test settings hash with MD5)."""
    counted = {"n": 0}
    original = MD5PasswordHasher.encode

    def encode(self, password, salt):
        counted["n"] += 1
        return original(self, password, salt)

    monkeypatch.setattr(MD5PasswordHasher, "encode", encode)
    cache.clear()
    yield counted
    cache.clear()


def _sign_in(client, username, password, hashes):
    before = hashes["n"]
    res = client.post("/api/v1/auth/token", {"username": username, "password": password}, format="json")
    return res, hashes["n"] - before


def test_every_failed_sign_in_costs_one_hash(api_client, make_user, hashes):
    from accounts.services.registration import guest_create

    make_user("plain")
    make_user("outcast", banned_at=timezone.now(), ban_reason="Cheating.", is_active=False)
    make_user("asleep", is_active=False)
    guest, _ = guest_create(display_name="Guest")
    client = api_client()
    cases = {
        "unknown name": ("nobody-here", "whatever-1"),
        "wrong password": ("plain", "wrong-password"),
        "banned, wrong password": ("outcast", "wrong-password"),
        "banned, right password": ("outcast", "correct-horse-9"),
        "inactive, right password": ("asleep", "correct-horse-9"),
        "no usable password": (guest.username, "whatever-1"),
    }
    work = {}
    for case, (username, password) in cases.items():
        res, spent = _sign_in(client, username, password, hashes)
        assert res.status_code == 401, (case, res.content)
        work[case] = spent
    assert work == dict.fromkeys(cases, 1)
    # Only the right password learns of the ban.
    assert error_code(_sign_in(client, "outcast", "correct-horse-9", hashes)[0]) == "banned"
    assert error_code(_sign_in(client, "outcast", "wrong-password", hashes)[0]) == "authentication_failed"


def test_a_right_password_signs_in(api_client, make_user, hashes):
    make_user("plain")
    res, spent = _sign_in(api_client(), "PLAIN", "correct-horse-9", hashes)
    assert res.status_code == 200 and res.json()["token"]
    assert spent == 1
