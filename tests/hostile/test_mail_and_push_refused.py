"""Mail and push refusals through gunicorn: addresses whose domain is no public DNS
name, the cap on confirmation links one address gets from many accounts, push endpoints
that carry an internal address, and an endpoint another account registered. Each is
refused in the error shape with its code, and changes nothing."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from notifications.models import NotificationSettings, PushSubscription
from tests.notifications.push_service import Browser
from tests.servers import database_url, free_port, server_env, serving

from .conftest import LOGS
from .support import assert_error_shape, token_client

ADDRESS_MAX = 2
SETTINGS = "/api/v1/me/notifications"
SUBS = "/api/v1/me/push-subscriptions"


@pytest.fixture(scope="module")
def mail_url(django_db_setup: Any, django_db_blocker: Any) -> Iterator[str]:
    port = free_port()
    with django_db_blocker.unblock():
        env = server_env(
            database_url(),
            DEBUG="0",
            # A server that mails (a mailer and its own address for the links); the links
            # are queued to an in-memory broker, which no worker reads: the cap counts them
            # as they are queued.
            PUBLIC_BASE_URL="https://games.example.org",
            CELERY_BROKER_URL="memory://",
            EMAIL_CONFIRMATION_ADDRESS_MAX=str(ADDRESS_MAX),
        )
    argv = [sys.executable, "-m", "gunicorn", "config.wsgi", "-w", "1", "-b", f"127.0.0.1:{port}"]
    log_path = LOGS / f"gunicorn-mail-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    with serving("gunicorn", argv, port=port, env=env, log_path=log_path) as url:
        yield url


def refused(res: httpx.Response, status: int, code: str, attr: str | None = None) -> None:
    assert res.status_code == status, (res.status_code, res.text[:300])
    error = assert_error_shape(res)
    assert (error["code"], error["attr"]) == (code, attr), error


@pytest.mark.parametrize("address", ["a@[127.0.0.1]", "a@localhost", "a@printer.local", "a@x.internal", "a@x.test"])
def test_addresses_of_no_public_domain_are_refused(mail_url, transactional_db, make_user, address):
    client = token_client(mail_url, make_user())
    before = client.get(SETTINGS).json()
    res = client.patch(SETTINGS, json={"email_address": address, "email": False})
    refused(res, 400, "email_domain_not_public", "email_address")
    assert client.get(SETTINGS).json() == before


def test_fresh_accounts_cannot_mail_a_stranger_past_the_cap(mail_url, transactional_db, make_user):
    clients = [token_client(mail_url, make_user()) for _ in range(ADDRESS_MAX + 2)]
    spellings = ["stranger@example.org", "Stranger@Example.org", "STRANGER@EXAMPLE.ORG", "stranger@example.ORG"]
    for client, spelling in zip(clients, spellings, strict=True):
        res = client.patch(SETTINGS, json={"email_address": spelling})
        assert res.status_code == 200, res.text
    # The first accounts' links were counted as sent; the later ones' were not sent.
    sent = NotificationSettings.objects.filter(email_confirmation_sent_at__isnull=False)
    assert sent.count() == ADDRESS_MAX
    res = clients[-1].post(f"{SETTINGS}/email-confirmation", json={})
    refused(res, 429, "confirmation_sent_recently")
    assert int(res.headers["Retry-After"]) >= 1
    assert sent.count() == ADDRESS_MAX


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://[::127.0.0.1]/push",
        "https://[::7f00:1]/push",
        "https://[64:ff9b:1::a9fe:a9fe]/push",
        "https://[64:ff9b::a9fe:a9fe]/push",
        "https://[::ffff:a9fe:a9fe]/push",
        "https://[2002:a9fe:a9fe::1]/push",
        "https://push.internal/push",
    ],
)
def test_endpoints_that_carry_an_internal_address_are_refused(mail_url, transactional_db, make_user, endpoint):
    client = token_client(mail_url, make_user())
    res = client.post(SUBS, json=Browser().subscription(endpoint))
    refused(res, 400, "bad_push_endpoint", "endpoint")
    assert not PushSubscription.objects.exists()


def test_a_subscription_stays_with_the_account_that_registered_it(mail_url, transactional_db, make_user):
    owner, other = make_user(), make_user()
    browser = Browser().subscription("https://fcm.googleapis.com/fcm/send/owner-browser")
    assert token_client(mail_url, owner).post(SUBS, json=browser).status_code == 201
    # Knowing the endpoint is not holding the browser: other keys are refused.
    stranger = Browser().subscription(browser["endpoint"])
    refused(token_client(mail_url, other).post(SUBS, json=stranger), 409, "push_endpoint_taken")
    assert PushSubscription.objects.get().user == owner
    gone = {"endpoint": browser["endpoint"]}
    refused(token_client(mail_url, other).request("DELETE", SUBS, json=gone), 404, "not_found")
    # The owner still removes it.
    assert token_client(mail_url, owner).request("DELETE", SUBS, json=gone).status_code == 204
