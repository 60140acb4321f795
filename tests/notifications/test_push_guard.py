"""What stands between a stored endpoint and the request the server sends to it."""

from __future__ import annotations

import ipaddress

import pytest

from notifications.endpoints import host_resolves_public, is_public
from notifications.models import PushSubscription
from notifications.push import Outcome, push_send

from .conftest import start_room

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("8.8.8.8", True),
        ("2001:4860:4860::8888", True),
        ("127.0.0.1", False),
        ("10.0.0.1", False),
        ("100.64.0.1", False),
        ("169.254.169.254", False),
        ("224.0.0.251", False),
        ("255.255.255.255", False),
        ("::1", False),
        ("fe80::1", False),
        ("fd00::1", False),
        ("ff02::1", False),
        ("::ffff:127.0.0.1", False),
        ("::ffff:8.8.8.8", True),
        ("2002:7f00:1::", False),
        ("64:ff9b::a9fe:a9fe", False),
        ("64:ff9b::808:808", True),
    ],
)
def test_public_addresses(address, public):
    assert is_public(ipaddress.ip_address(address)) is public


def test_names_that_resolve_to_this_machine_are_not_public(settings):
    # Resolved here, without the network: these names are the machine's own.
    assert host_resolves_public("https://localhost/x") is False
    assert host_resolves_public("https://127.0.0.1/x") is False
    assert host_resolves_public("https://[::1]/x") is False
    assert host_resolves_public("https://8.8.8.8/x") is True
    settings.PUSH_ALLOW_LOOPBACK = True
    assert host_resolves_public("http://127.0.0.1:9/x") is True


def test_a_stored_endpoint_that_now_points_inside_is_not_sent_to(push_on, push_service, make_user, settings):
    """An endpoint checked when it was stored, whose host resolves to a loopback address
    when the server sends: nothing leaves."""
    settings.PUSH_ALLOW_LOOPBACK = False
    user = make_user()
    start_room(user)
    port = push_service.server.server_address[1]
    sub = PushSubscription.objects.create(
        user=user,
        endpoint=f"https://localhost:{port}/push",
        p256dh="BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
        auth="tBHItJI5svbpez7KI4CCXg",
        created_at=user.date_joined,
    )
    outcome = push_send(
        endpoint=sub.endpoint, p256dh=sub.p256dh, auth=sub.auth, payload={"title": "x"}, ttl=60, topic="t"
    )
    assert outcome is Outcome.FAILED
    assert push_service.received == []
