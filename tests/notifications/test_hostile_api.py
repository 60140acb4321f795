"""The notification endpoints against arbitrary bodies (Hypothesis), as a hostile client
sends them: near-valid subscriptions and settings bent one field at a time, arbitrary
JSON, and bytes that are not JSON.

For every answer: never a 5xx; a refusal is in the error shape with a code the OpenAPI
document lists for that operation and status, and changes nothing; an acceptance stores
exactly what was sent (a subscription only for an https endpoint on a public host).
"""

from __future__ import annotations

import ipaddress
import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notifications.endpoints import normalised
from notifications.models import NotificationSettings, PushSubscription
from tests.yaml_text import read_yaml

from .push_service import Browser

pytestmark = pytest.mark.django_db

DOCUMENT = read_yaml((Path(__file__).resolve().parents[2] / "api" / "openapi.yaml").read_text())
SUBS = "/api/v1/me/push-subscriptions"
SETTINGS = "/api/v1/me/notifications"
BROWSER = Browser()
VALID_SUB = BROWSER.subscription("https://fcm.googleapis.com/fcm/send/x")

HOSTS = [
    "fcm.googleapis.com",
    "127.0.0.1",
    "127.1",
    "2130706433",
    "0x7f000001",
    "[::1]",
    "[::ffff:7f00:1]",
    "10.0.0.1",
    "169.254.169.254",
    "localhost",
    "redis",
    "a.internal",
    "8.8.8.8",
    "[2001:4860:4860::8888]",
    "user@fcm.googleapis.com",
    "fcm.googleapis.com:80",
    "fcm.googleapis.com:443",
    "xn--bcher-kva.example",
    "",
]
FULLWIDTH_TIME = "\uff12\uff12:\uff10\uff10"
SPECIAL = [
    "",
    "\x00",
    "a\x00b",
    "\u202e",
    "\udc00",
    "\x85",
    "٣",
    FULLWIDTH_TIME,
    "22:00",
    "07:00",
    "UTC",
    "Europe/Paris",
]
TEXT = st.one_of(st.sampled_from(SPECIAL), st.text(max_size=12))
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70), st.floats(), TEXT)
JSON = st.recursive(
    SCALARS, lambda children: st.lists(children, max_size=3) | st.dictionaries(TEXT, children, max_size=3), max_leaves=8
)
ENDPOINTS = st.one_of(
    st.builds(
        lambda scheme, host, path: f"{scheme}://{host}/{path}",
        st.sampled_from(["https", "http", "HTTPS", "ftp", "javascript"]),
        st.sampled_from(HOSTS),
        st.text(alphabet="abc/?#%:@.-_", max_size=12),
    ),
    TEXT,
)


def _bent(valid: dict[str, Any], draw_key: str, value: Any, how: str) -> dict[str, Any]:
    body = json.loads(json.dumps(valid))
    if how == "add":
        body[draw_key] = value
    elif how == "replace" and body:
        body[sorted(body)[len(draw_key) % len(body)]] = value
    elif how == "drop" and body:
        del body[sorted(body)[len(draw_key) % len(body)]]
    elif how == "keys" and isinstance(body.get("keys"), dict):
        body["keys"][sorted(body["keys"])[len(draw_key) % 2]] = value
    return body


SUB_BODIES = st.one_of(
    st.builds(lambda e: {**VALID_SUB, "endpoint": e}, ENDPOINTS),
    st.builds(_bent, st.just(VALID_SUB), TEXT, JSON, st.sampled_from(["as_is", "add", "replace", "drop", "keys"])),
    JSON,
)
QUIET = st.one_of(
    st.none(),
    st.fixed_dictionaries(
        {
            "start": st.sampled_from(["22:00", "07:00", "24:00", "7:00", "22:60", ""]) | TEXT,
            "end": st.sampled_from(["07:00", "22:00", "00:00"]) | TEXT,
            "timezone": st.sampled_from(["UTC", "Europe/Paris", "europe/paris", "Mars/Base", "/etc/passwd"]) | TEXT,
        }
    ),
    JSON,
)
SETTINGS_BODIES = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "push": st.booleans() | JSON,
            "email": st.booleans() | JSON,
            "email_address": st.sampled_from(["", "a@example.org", "a@b", "a@" + "x" * 300]) | TEXT | JSON,
            "quiet": QUIET,
        },
    ),
    st.dictionaries(TEXT, JSON, max_size=3),
    JSON,
)
RAW = st.one_of(st.binary(max_size=40), st.sampled_from([b"{", b"[" * 50, b'{"endpoint": NaN}', b"\xff\xfe"]))


def documented(path: str, method: str, status: int) -> set[str]:
    response = DOCUMENT["paths"][path][method]["responses"].get(str(status))
    assert response is not None, (path, method, status)
    return set(response["x-error-codes"])


def snapshot() -> tuple[list[Any], list[Any]]:
    subs = list(
        PushSubscription.objects.order_by("id").values_list("user_id", "endpoint", "p256dh", "auth", "expires_at")
    )
    prefs = list(NotificationSettings.objects.order_by("user_id").values())
    return subs, prefs


def send(client: Any, method: str, path: str, body: Any) -> Any:
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    return client.generic(method, path, content, content_type="application/json")


def check_refusal(res: Any, path: str, method: str, before: Any) -> None:
    assert 400 <= res.status_code < 500, res.content[:300]
    body = res.json()
    assert set(body) == {"type", "errors"}, body
    for error in body["errors"]:
        assert set(error) == {"code", "detail", "attr"}
        assert error["code"] in documented(path, method, res.status_code), (res.status_code, error)
    assert snapshot() == before


def public_https(endpoint: str) -> bool:
    parts = urlsplit(endpoint)
    host = parts.hostname or ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return parts.scheme == "https" and "." in host and not host.endswith(".internal")
    return parts.scheme == "https" and address.is_global


HYPOTHESIS = settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@HYPOTHESIS
@given(body=st.one_of(SUB_BODIES, RAW))
def test_arbitrary_subscriptions(api_client, make_user, body):
    client = api_client(make_user())
    before = snapshot()
    res = send(client, "post", SUBS, body)
    assert res.status_code < 500, res.content[:300]
    if res.status_code in (200, 201):
        # Kept in its one spelling (notifications.endpoints.normalised).
        stored = PushSubscription.objects.get(endpoint=normalised(body["endpoint"]))
        assert public_https(stored.endpoint), stored.endpoint
        assert res.json()["endpoint"] == normalised(body["endpoint"])
        assert (stored.p256dh, stored.auth) == (body["keys"]["p256dh"].rstrip("="), body["keys"]["auth"].rstrip("="))
        return
    check_refusal(res, SUBS, "post", before)


@HYPOTHESIS
@given(body=st.one_of(st.builds(lambda e: {"endpoint": e}, ENDPOINTS), JSON, RAW))
def test_arbitrary_unsubscriptions(api_client, make_user, body):
    user = make_user()
    client = api_client(user)
    mine = send(client, "post", SUBS, VALID_SUB)
    assert mine.status_code in (200, 201)
    before = snapshot()
    res = send(client, "delete", SUBS, body)
    assert res.status_code < 500, res.content[:300]
    if res.status_code == 204:
        assert isinstance(body, dict) and list(body) == ["endpoint"]
        assert normalised(body["endpoint"]) == normalised(VALID_SUB["endpoint"])
        assert not PushSubscription.objects.filter(user=user).exists()
        return
    check_refusal(res, SUBS, "delete", before)


@HYPOTHESIS
@given(body=st.one_of(SETTINGS_BODIES, RAW))
def test_arbitrary_settings(api_client, make_user, body):
    client = api_client(make_user())
    was = client.get(SETTINGS).json()
    before = snapshot()
    res = send(client, "patch", SETTINGS, body)
    assert res.status_code < 500, res.content[:300]
    if res.status_code == 200:
        now = res.json()
        assert now == client.get(SETTINGS).json()
        # An empty body is read as an empty object, as everywhere in the API.
        assert now == {**was, **(body or {})}
        return
    check_refusal(res, SETTINGS, "patch", before)


RESEND = "/api/v1/me/notifications/email-confirmation"
CONFIRM = "/api/v1/email-confirmations"


def _token_bent(token: str, at: int, char: str) -> str:
    at %= len(token)
    return token[:at] + char + token[at + 1 :]


@HYPOTHESIS
@given(body=st.one_of(st.just({}), JSON, st.dictionaries(TEXT, JSON, max_size=3), RAW))
def test_arbitrary_bodies_asking_for_the_link_again(api_client, make_user, body):
    user = make_user(email="me@example.org")
    client = api_client(user)
    was = client.get(SETTINGS).json()
    before = snapshot()
    res = send(client, "post", RESEND, body)
    assert res.status_code < 500, res.content[:300]
    if res.status_code == 202:
        # Nothing but no body, or an empty object, asks for the link.
        assert body in ({}, b""), body
        assert res.json() == was
        assert NotificationSettings.objects.get(user=user).email_confirmation_sent_at is not None
        return
    check_refusal(res, RESEND, "post", before)


@HYPOTHESIS
@given(
    how=st.sampled_from(["valid", "bent", "other", "text", "json", "raw", "extra"]),
    at=st.integers(min_value=0, max_value=500),
    char=st.sampled_from(["A", "_", "-", ":", ".", "=", "\x00", "é", " "]),
    value=st.one_of(TEXT, JSON),
    raw=RAW,
)
def test_arbitrary_confirmation_tokens(api_client, make_user, how, at, char, value, raw):
    from notifications.services import confirmation

    user = make_user(email="me@example.org")
    token = confirmation.confirmation_token(user_id=user.pk, address="me@example.org")
    body: Any = {
        "valid": {"token": token},
        "bent": {"token": _token_bent(token, at, char)},
        "other": {"token": confirmation.confirmation_token(user_id=user.pk, address="other@example.org")},
        "text": {"token": value},
        "json": value,
        "raw": raw,
        "extra": {"token": token, str(value): value},
    }[how]
    before = snapshot()
    res = send(api_client(), "post", CONFIRM, body)
    assert res.status_code < 500, res.content[:300]
    if res.status_code == 200:
        # Only the very token made for the account's address confirms it.
        assert body == {"token": token}, body
        assert res.json() == {"email_address": "me@example.org", "confirmed": True}
        assert NotificationSettings.objects.get(user=user).email_confirmed_address == "me@example.org"
        return
    check_refusal(res, CONFIRM, "post", before)
    if how in ("bent", "other"):
        assert [e["code"] for e in res.json()["errors"]] in (["bad_confirmation_token"], ["invalid_character"])
