"""The notification endpoints as clients use them, and the refusals they must give."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from notifications.models import NotificationSettings, PushSubscription
from tests.api.helpers import errors

from .push_service import Browser, b64url

pytestmark = pytest.mark.django_db

SUBS = "/api/v1/me/push-subscriptions"
SETTINGS = "/api/v1/me/notifications"
ENDPOINT = "https://fcm.googleapis.com/fcm/send/abc:def-123"


def subscription(endpoint: str = ENDPOINT, **keys: str) -> dict[str, Any]:
    sub = Browser().subscription(endpoint)
    sub["keys"].update(keys)
    return sub


# -- the push key --------------------------------------------------------------------


def test_the_push_key_is_null_until_configured_and_anyone_may_read_it(api_client, push_on, settings):
    res = api_client().get("/api/v1/push/key")
    assert res.status_code == 200
    key = res.json()["public_key"]
    assert key == push_on and "=" not in key
    raw = base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))
    assert len(raw) == 65 and raw[0] == 4
    settings.VAPID_PUBLIC_KEY = ""
    assert api_client().get("/api/v1/push/key").json() == {"public_key": None}
    bad = api_client()
    bad.credentials(HTTP_AUTHORIZATION="Token nope")
    assert bad.get("/api/v1/push/key").status_code == 401


# -- subscriptions -------------------------------------------------------------------


def test_subscribe_again_and_move_to_another_account(api_client, make_user):
    alice, bob = make_user(), make_user()
    sub = subscription()
    res = api_client(alice).post(SUBS, sub, format="json")
    assert res.status_code == 201, res.content
    assert set(res.json()) == {"endpoint", "created_at"} and res.json()["endpoint"] == ENDPOINT
    first = res.json()["created_at"]

    # The same browser again (its keys may have changed): 200, the same registration.
    again = subscription()
    res = api_client(alice).post(SUBS, again, format="json")
    assert res.status_code == 200 and res.json()["created_at"] == first
    stored = PushSubscription.objects.get(endpoint=ENDPOINT)
    assert (stored.user, stored.p256dh, stored.auth) == (alice, again["keys"]["p256dh"], again["keys"]["auth"])

    # Someone who knows only the endpoint cannot take it: Alice keeps it.
    res = api_client(bob).post(SUBS, sub, format="json")
    assert res.status_code == 409 and errors(res) == [("push_endpoint_taken", None)]
    stored = PushSubscription.objects.get(endpoint=ENDPOINT)
    assert (stored.user, stored.p256dh, stored.auth) == (alice, again["keys"]["p256dh"], again["keys"]["auth"])

    # The browser now signed in as Bob (it sends its own keys): the endpoint is his.
    res = api_client(bob).post(SUBS, again, format="json")
    assert res.status_code == 201
    assert PushSubscription.objects.get(endpoint=ENDPOINT).user == bob
    res = api_client(alice).delete(SUBS, {"endpoint": ENDPOINT}, format="json")
    assert res.status_code == 404 and errors(res) == [("not_found", None)]
    assert api_client(bob).delete(SUBS, {"endpoint": ENDPOINT}, format="json").status_code == 204
    assert not PushSubscription.objects.exists()
    assert api_client(bob).delete(SUBS, {"endpoint": ENDPOINT}, format="json").status_code == 404


def test_expiration_time_is_kept(api_client, make_user):
    user = make_user()
    sub = Browser().subscription(ENDPOINT, expiration=1893456000000)
    assert api_client(user).post(SUBS, sub, format="json").status_code == 201
    assert PushSubscription.objects.get().expires_at.year == 2030
    sub["expirationTime"] = 1893456000000.5
    assert api_client(user).post(SUBS, sub, format="json").status_code == 200
    for bad in (-1, 2**53, "1893456000000", True, [1]):
        res = api_client(user).post(SUBS, {**sub, "expirationTime": bad}, format="json")
        assert res.status_code == 400 and errors(res) == [("invalid", "expirationTime")], bad


def test_an_account_has_a_bounded_number_of_subscriptions(api_client, make_user, settings):
    settings.PUSH_SUBSCRIPTIONS_MAX = 2
    user, client = make_user(), None
    client = api_client(user)
    for n in range(2):
        assert client.post(SUBS, subscription(f"{ENDPOINT}/{n}"), format="json").status_code == 201
    res = client.post(SUBS, subscription(f"{ENDPOINT}/2"), format="json")
    assert res.status_code == 409 and errors(res) == [("too_many_push_subscriptions", None)]
    # One already registered is still taken again; nothing else was stored.
    assert client.post(SUBS, subscription(f"{ENDPOINT}/1"), format="json").status_code == 200
    assert PushSubscription.objects.filter(user=user).count() == 2


REFUSED_ENDPOINTS = [
    "https://[::127.0.0.1]/x",  # IPv4-compatible, as typed
    "https://[::7f00:1]/x",  # the same in hex
    "https://[64:ff9b:1::a9fe:a9fe]/x",  # local-use NAT64 of 169.254.169.254
    "https://[::8.8.8.8]/x",  # IPv4-compatible addresses are deprecated, whatever they carry
    "https://[3fff::1]/x",  # documentation (RFC 9637), not in every Python's list
    "https://push.test/x",
    "https://push.example/x",
    "https://push.invalid/x",
    "https://router.home/x",
    "http://fcm.googleapis.com/fcm/send/x",  # not https
    "ftp://fcm.googleapis.com/x",
    "https://127.0.0.1/x",
    "https://127.1/x",  # 127.0.0.1, as resolvers read it
    "https://2130706433/x",  # the same, as a number
    "https://0x7f.0.0.1/x",
    "https://0177.0.0.1/x",
    "https://0x7f.0.0.0x1/x",  # no label of digits alone, and still 127.0.0.1 to a resolver
    "https://0xa9.0xfe.0xa9.0xfe/x",
    "https://0.0.0.0/x",
    "https://10.1.2.3/x",
    "https://172.16.0.1/x",
    "https://192.168.1.1/x",
    "https://100.64.0.1/x",  # shared address space
    "https://169.254.169.254/latest/meta-data",  # cloud metadata
    "https://224.0.0.1/x",
    "https://[::1]/x",
    "https://[fe80::1]/x",
    "https://[fc00::1]/x",
    "https://[::ffff:127.0.0.1]/x",
    "https://[::ffff:10.0.0.1]/x",
    "https://[64:ff9b::a9fe:a9fe]/x",  # NAT64 of 169.254.169.254
    "https://[2002:7f00:1::]/x",  # 6to4 of 127.0.0.1
    "https://localhost/x",
    "https://push.localhost/x",
    "https://redis/x",  # one label: a name of the local network
    "https://metadata.google.internal/x",
    "https://printer.local/x",
    "https://fcm.googleapis.com:8443/x",
    "https://user:secret@fcm.googleapis.com/x",
    "https://fcm.googleapis.com./x",
    "https://fcm.googleapis.com/x#fragment",
    "https://fcm..googleapis.com/x",
    "https:///x",
    "https://",
    "not a url",
    "https://fcm.googleapis.com/\u00e9",
    "https://fcm.googleapis.com:99999/x",
    "https://" + "a" * 2040 + ".com/",
]


@pytest.mark.parametrize("endpoint", REFUSED_ENDPOINTS)
def test_endpoints_the_server_must_not_post_to_are_refused(api_client, make_user, endpoint):
    res = api_client(make_user()).post(SUBS, subscription(endpoint), format="json")
    assert res.status_code == 400, (endpoint, res.content)
    assert errors(res) in ([("bad_push_endpoint", "endpoint")], [("max_length", "endpoint")]), errors(res)
    assert not PushSubscription.objects.exists()


def test_loopback_is_for_the_tests_only_and_private_networks_never(api_client, make_user, settings):
    client = api_client(make_user())
    assert client.post(SUBS, subscription("http://127.0.0.1:8080/p"), format="json").status_code == 400
    settings.PUSH_ALLOW_LOOPBACK = True
    assert client.post(SUBS, subscription("http://127.0.0.1:8080/p"), format="json").status_code == 201
    assert client.post(SUBS, subscription("http://localhost:9/p"), format="json").status_code == 201
    for endpoint in ("http://10.0.0.1/p", "http://fcm.googleapis.com/p", "https://192.168.0.2/p"):
        res = client.post(SUBS, subscription(endpoint), format="json")
        assert errors(res) == [("bad_push_endpoint", "endpoint")], endpoint


def test_the_list_of_push_hosts_when_one_is_set(api_client, make_user, settings):
    settings.PUSH_ENDPOINT_HOSTS = ["fcm.googleapis.com", "push.services.mozilla.com"]
    client = api_client(make_user())
    for endpoint, status in [
        ("https://fcm.googleapis.com/fcm/send/1", 201),
        ("https://updates.push.services.mozilla.com/wpush/v2/1", 201),
        ("https://push.example.com/1", 400),
        ("https://evilfcm.googleapis.com.example/1", 400),
        ("https://8.8.8.8/1", 400),
    ]:
        assert client.post(SUBS, subscription(endpoint), format="json").status_code == status, endpoint


def test_public_addresses_and_names_are_taken(api_client, make_user):
    client = api_client(make_user())
    for endpoint in (
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk",
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB%2f",
        "https://web.push.apple.com/QGuQyavXutnMH",
        "https://8.8.8.8/push",
        "https://[2001:4860:4860::8888]/push",
        "https://FCM.googleapis.com:443/fcm/send/x",
    ):
        assert client.post(SUBS, subscription(endpoint), format="json").status_code == 201, endpoint


def _point(compressed: bool = False) -> bytes:
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    form = serialization.PublicFormat.CompressedPoint if compressed else serialization.PublicFormat.UncompressedPoint
    return key.public_bytes(serialization.Encoding.X962, form)


@pytest.mark.parametrize(
    ("keys", "attr"),
    [
        ({"p256dh": b64url(_point(compressed=True))}, "keys.p256dh"),
        ({"p256dh": b64url(b"\x04" + bytes(64))}, "keys.p256dh"),  # not on the curve
        ({"p256dh": b64url(b"\x05" + _point()[1:])}, "keys.p256dh"),
        ({"p256dh": b64url(_point() + b"\x00")}, "keys.p256dh"),
        ({"p256dh": b64url(_point())[:-2]}, "keys.p256dh"),
        ({"p256dh": "+" + b64url(_point())[1:]}, "keys.p256dh"),  # base64, not base64url
        ({"p256dh": b64url(_point()) + "==="}, "keys.p256dh"),
        ({"auth": b64url(bytes(15))}, "keys.auth"),
        ({"auth": b64url(bytes(17))}, "keys.auth"),
        ({"auth": "%%%%"}, "keys.auth"),
    ],
)
def test_keys_that_are_not_a_browser_s_are_refused(api_client, make_user, keys, attr):
    res = api_client(make_user()).post(SUBS, subscription(**keys), format="json")
    assert res.status_code == 400 and errors(res) == [("bad_push_key", attr)], res.content
    assert not PushSubscription.objects.exists()


def test_padded_keys_are_stored_as_browsers_write_them(api_client, make_user):
    sub = subscription()
    plain = dict(sub["keys"])
    sub["keys"] = {name: value + "=" * (-len(value) % 4) for name, value in plain.items()}
    assert api_client(make_user()).post(SUBS, sub, format="json").status_code == 201
    stored = PushSubscription.objects.get()
    assert (stored.p256dh, stored.auth) == (plain["p256dh"], plain["auth"])


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({}, [("required", "endpoint"), ("required", "keys")]),
        ({"endpoint": ENDPOINT}, [("required", "keys")]),
        ({"endpoint": ENDPOINT, "keys": None}, [("null", "keys")]),
        ({"endpoint": ENDPOINT, "keys": "x"}, [("invalid", "keys.non_field_errors")]),
        ({"endpoint": 5, "keys": {"p256dh": "a", "auth": "b"}}, [("invalid", "endpoint")]),
        ({"endpoint": ENDPOINT, "keys": {"p256dh": "a"}}, [("required", "keys.auth")]),
        ({**subscription(), "extra": 1}, [("invalid", "extra")]),
        ({**subscription(), "keys": {**subscription()["keys"], "extra": 1}}, [("invalid", "keys.extra")]),
    ],
)
def test_malformed_subscriptions_are_refused_by_field(api_client, make_user, body, expected):
    res = api_client(make_user()).post(SUBS, body, format="json")
    assert res.status_code == 400
    assert sorted(errors(res)) == sorted(expected)


def test_delete_needs_a_body_naming_the_endpoint(api_client, make_user):
    client = api_client(make_user())
    res = client.delete(SUBS)
    assert res.status_code == 400 and errors(res) == [("required", "endpoint")]
    res = client.delete(SUBS, {"endpoint": ENDPOINT, "more": 1}, format="json")
    assert res.status_code == 400 and errors(res) == [("invalid", "more")]
    res = client.delete(SUBS, "endpoint=x", content_type="application/x-www-form-urlencoded")
    assert res.status_code == 415


# -- settings --------------------------------------------------------------------------


def test_settings_default_and_change_by_parts(api_client, make_user):
    user = make_user(email="me@example.org")
    client = api_client(user)
    # The test settings name no PUBLIC_BASE_URL: this server mails nobody, and says so.
    defaults = {
        "push": True,
        "email": True,
        "email_address": "me@example.org",
        "email_confirmed": False,
        "email_available": False,
        "quiet": None,
    }
    assert client.get(SETTINGS).json() == defaults
    assert not NotificationSettings.objects.exists()

    res = client.patch(SETTINGS, {"push": False}, format="json")
    assert res.status_code == 200 and res.json() == {**defaults, "push": False}
    quiet = {"start": "22:30", "end": "07:00", "timezone": "America/Argentina/Buenos_Aires"}
    res = client.patch(SETTINGS, {"quiet": quiet}, format="json")
    assert res.json() == {**defaults, "push": False, "quiet": quiet}
    res = client.patch(SETTINGS, {"email_address": "", "email": False}, format="json")
    assert res.json() == {**defaults, "push": False, "email": False, "email_address": "", "quiet": quiet}
    # The account's own address no longer counts once one (even none) is given here.
    type(user).objects.filter(pk=user.pk).update(email="new@example.org")
    assert client.get(SETTINGS).json()["email_address"] == ""
    res = client.patch(SETTINGS, {"quiet": None, "email_address": "Elsewhere@Example.org"}, format="json")
    # The domain is kept lowercased, the local part as typed (notifications/addresses.py).
    assert res.json() == {
        "push": False,
        "email": False,
        "email_address": "Elsewhere@example.org",
        "email_confirmed": False,
        "email_available": False,
        "quiet": None,
    }
    assert client.patch(SETTINGS, {}, format="json").json() == client.get(SETTINGS).json()
    # Settings are each account's own.
    assert api_client(make_user()).get(SETTINGS).json()["push"] is True


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"email_address": "not an address"}, ("bad_email_address", "email_address")),
        ({"email_address": "a@b"}, ("bad_email_address", "email_address")),
        ({"email_address": "x" * 250 + "@example.org"}, ("max_length", "email_address")),
        ({"quiet": {"start": "24:00", "end": "07:00", "timezone": "UTC"}}, ("bad_time", "quiet.start")),
        ({"quiet": {"start": "22:00", "end": "7:00", "timezone": "UTC"}}, ("bad_time", "quiet.end")),
        # Twenty-two hundred in fullwidth digits, which a regex of \d would take.
        (
            {"quiet": {"start": "\uff12\uff12:\uff10\uff10", "end": "07:00", "timezone": "UTC"}},
            ("bad_time", "quiet.start"),
        ),
        (
            {"quiet": {"start": "22:00", "end": "07:00", "timezone": "Mars/Olympus"}},
            ("bad_time_zone", "quiet.timezone"),
        ),
        (
            {"quiet": {"start": "22:00", "end": "07:00", "timezone": "../etc/passwd"}},
            ("bad_time_zone", "quiet.timezone"),
        ),
        (
            {"quiet": {"start": "22:00", "end": "07:00", "timezone": "europe/paris"}},
            ("bad_time_zone", "quiet.timezone"),
        ),
        ({"quiet": {"start": "22:00", "end": "22:00", "timezone": "UTC"}}, ("quiet_period_empty", "quiet.end")),
        ({"quiet": {"start": "22:00", "end": "07:00"}}, ("required", "quiet.timezone")),
        ({"quiet": "22:00-07:00"}, ("invalid", "quiet.non_field_errors")),
        ({"push": "yes"}, ("invalid", "push")),
        ({"push": None}, ("null", "push")),
        ({"email": 1}, ("invalid", "email")),
        ({"email_address": None}, ("null", "email_address")),
        ({"sms": True}, ("invalid", "sms")),
    ],
)
def test_bad_settings_are_refused_and_nothing_is_half_applied(api_client, make_user, body, expected):
    client = api_client(make_user())
    before = client.get(SETTINGS).json()
    res = client.patch(SETTINGS, {"push": False, **body}, format="json")
    assert res.status_code == 400, res.content
    assert errors(res) == [expected]
    assert client.get(SETTINGS).json() == before


# -- who may call --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [("post", SUBS), ("delete", SUBS), ("get", SETTINGS), ("patch", SETTINGS)],
)
def test_the_caller_s_own_endpoints_need_a_signed_in_caller(api_client, method, path):
    res = getattr(api_client(), method)(path, {}, format="json")
    assert res.status_code == 401 and errors(res) == [("not_authenticated", None)]
    bad = api_client()
    bad.credentials(HTTP_AUTHORIZATION="Token nope")
    res = getattr(bad, method)(path, {}, format="json")
    assert res.status_code == 401 and errors(res) == [("authentication_failed", None)]
