"""Sign-in limits through gunicorn, with the limits of production and one trusted proxy
(NUM_PROXIES=1: the address a request counts as is the last X-Forwarded-For entry, as
nginx would append it): an attack from many addresses keeps neither the owner out nor
the attacker in, and the admin's sign-in page is limited the same way.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.servers import database_url, free_port, server_env, serving

from .conftest import LOGS
from .support import assert_error_shape

PASSWORD = "correct-horse-9"
ACCOUNT_LIMIT, ACCOUNT_ADDRESS_LIMIT, ADDRESS_LIMIT = 10, 5, 30


@pytest.fixture(scope="module")
def limited_url(django_db_setup: Any, django_db_blocker: Any) -> Iterator[str]:
    port = free_port()
    with django_db_blocker.unblock():
        env = server_env(
            database_url(),
            DEBUG="0",
            NUM_PROXIES="1",
            THROTTLE_AUTH=f"{ADDRESS_LIMIT}/min",
            THROTTLE_AUTH_ACCOUNT=f"{ACCOUNT_LIMIT}/min",
            THROTTLE_AUTH_ACCOUNT_ADDRESS=f"{ACCOUNT_ADDRESS_LIMIT}/min",
        )
    # One worker: its in-memory cache holds every counter (production's are in Redis).
    argv = [sys.executable, "-m", "gunicorn", "config.wsgi", "-w", "1", "-b", f"127.0.0.1:{port}"]
    log_path = LOGS / f"gunicorn-sign-in-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    with serving("gunicorn", argv, port=port, env=env, log_path=log_path) as url:
        yield url


def sign_in(url: str, address: str, username: str, password: str) -> httpx.Response:
    return httpx.post(
        f"{url}/api/v1/auth/token",
        json={"username": username, "password": password},
        headers={"X-Forwarded-For": address},
        timeout=30,
    )


def windows(started: float) -> int:
    """How many one-minute windows of the limits the test has touched since `started`."""
    return int(time.time() // 60) - int(started // 60) + 1


def test_the_owner_signs_in_during_an_attack_from_twenty_addresses(limited_url, transactional_db, make_user):
    make_user("victim")
    owner = "198.51.100.7"
    started = time.time()
    assert sign_in(limited_url, owner, "victim", PASSWORD).status_code == 200  # the owner's address, known now
    attackers = [f"203.0.113.{i}" for i in range(1, 21)]
    answers: list[int] = []
    for round_ in range(3):
        for address in attackers:
            res = sign_in(limited_url, address, "VICTIM" if round_ else "victim", f"guess-{round_}-{address}")
            if res.status_code == 429:
                error = assert_error_shape(res)
                assert error["code"] == "throttled" and int(res.headers["Retry-After"]) >= 1
            answers.append(res.status_code)
        # In the middle of the attack, the owner signs in with the right password.
        mine = sign_in(limited_url, owner, "victim", PASSWORD)
        assert mine.status_code == 200, mine.text
    assert set(answers) <= {401, 429}
    # The attack as a whole gets at most the account's limit of guesses per window.
    assert answers.count(401) <= ACCOUNT_LIMIT * windows(started)
    assert answers.count(429) >= len(answers) - ACCOUNT_LIMIT * windows(started) > 0
    # The right password from an attacker's address does not get in through the limit
    # either: that address never signed in to the account.
    if windows(started) == 1:
        assert sign_in(limited_url, attackers[0], "victim", PASSWORD).status_code == 429


def test_one_address_guesses_at_one_account_at_most_its_limit(limited_url, transactional_db, make_user):
    make_user("owner2")
    home = "192.0.2.44"
    started = time.time()
    assert sign_in(limited_url, home, "owner2", PASSWORD).status_code == 200
    # Even the owner's own address (a shared one: a household, an office) fails only so often.
    tries = [sign_in(limited_url, home, "owner2", "wrong-wrong").status_code for _ in range(ACCOUNT_ADDRESS_LIMIT + 2)]
    assert tries.count(401) <= ACCOUNT_ADDRESS_LIMIT * windows(started)
    if windows(started) == 1:
        assert tries == [401] * ACCOUNT_ADDRESS_LIMIT + [429] * 2


def _admin_form(client: httpx.Client, url: str) -> str:
    page = client.get(f"{url}/admin/login/")
    assert page.status_code == 200
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert token is not None
    return token[1]


def admin_sign_in(client: httpx.Client, url: str, address: str, username: str, password: str) -> httpx.Response:
    token = _admin_form(client, url)
    return client.post(
        f"{url}/admin/login/?next=/admin/",
        data={"username": username, "password": password, "csrfmiddlewaretoken": token, "next": "/admin/"},
        headers={"X-Forwarded-For": address, "Referer": f"{url}/admin/login/"},
    )


def test_the_admin_sign_in_is_limited(limited_url, transactional_db, make_user):
    make_user("moderator", is_staff=True, is_superuser=True)
    with httpx.Client(timeout=30) as client:
        # Within one minute's window of the limits (a run that crossed into the next is
        # made again from an address of its own: the counts begin anew there).
        for attempt in range(2):
            started = time.time()
            tries = [
                admin_sign_in(client, limited_url, f"203.0.113.{99 + attempt}", "moderator", f"wrong-{i}")
                for i in range(ACCOUNT_ADDRESS_LIMIT + 3)
            ]
            if windows(started) == 1:
                break
        # A wrong password shows the form again (200); past the limit, 429 with Retry-After.
        codes = [t.status_code for t in tries]
        assert set(codes) <= {200, 429}
        assert codes.count(200) <= ACCOUNT_ADDRESS_LIMIT * windows(started)
        assert tries[-1].status_code == 429 and int(tries[-1].headers["Retry-After"]) >= 1
        assert "Too many sign-in attempts" in tries[-1].text
        # The moderator's own address signs in, attack or not.
        signed_in = admin_sign_in(client, limited_url, "198.51.100.200", "moderator", PASSWORD)
        assert signed_in.status_code == 302 and signed_in.headers["Location"] == "/admin/"


def test_one_address_is_limited_across_names_on_the_admin_page(limited_url, transactional_db):
    with httpx.Client(timeout=30) as client:
        for attempt in range(2):  # within one window, as above
            started = time.time()
            codes = [
                admin_sign_in(
                    client, limited_url, f"203.0.113.{150 + attempt}", f"nobody-{i}", "wrong-wrong"
                ).status_code
                for i in range(ADDRESS_LIMIT + 2)
            ]
            if windows(started) == 1:
                break
    assert codes.count(200) <= ADDRESS_LIMIT * windows(started)
    assert codes[-1] == 429
