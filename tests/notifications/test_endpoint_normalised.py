"""Push endpoints are compared as URLs, not as strings: another spelling of an endpoint
an account registered (`:443`, an empty query or fragment, the scheme or host in
capitals, a final dot on the host, a percent-escape in lower case) is that endpoint, so
another account cannot register it again beside its owner, and its owner's second
spelling updates the one subscription."""

from __future__ import annotations

from datetime import timedelta
from importlib import import_module
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from core.errors import ServiceError
from notifications.endpoints import endpoint_check, normalised
from notifications.models import PushSubscription
from tests.api.helpers import errors

from .push_service import Browser

SUBS = "/api/v1/me/push-subscriptions"
ENDPOINT = "https://fcm.googleapis.com/fcm/send/abc:def-123"
SPELLINGS = [
    "https://fcm.googleapis.com:443/fcm/send/abc:def-123",
    "https://fcm.googleapis.com/fcm/send/abc:def-123?",
    "https://fcm.googleapis.com/fcm/send/abc:def-123#",
    "https://fcm.googleapis.com:443/fcm/send/abc:def-123?#",
    "HTTPS://FCM.GoogleAPIs.com/fcm/send/abc:def-123",
    "https://fcm.googleapis.com/fcm/send/%61bc:def-123",
]


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_a_spelling_is_the_endpoint(spelling):
    assert normalised(spelling) == ENDPOINT
    assert endpoint_check(spelling) == ENDPOINT


@pytest.mark.parametrize(
    "other",
    [
        "https://fcm.googleapis.com/fcm/send/ABC:def-123",  # the path is the push service's, case and all
        "https://fcm.googleapis.com/fcm/send/abc:def-123/",
        "https://fcm.googleapis.com/fcm/send/abc:def-123?x",
        "https://fcm.googleapis.com/fcm/send/abc%253Adef-123",
        # An escaped reserved character is not the character (RFC 3986 6.2.2.2).
        "https://fcm.googleapis.com/fcm/send/abc%3Adef-123",
    ],
)
def test_another_url_stays_another(other):
    assert normalised(other) != ENDPOINT


def test_a_host_with_a_final_dot_is_refused_not_taken_as_another():
    spelling = "https://fcm.googleapis.com./fcm/send/abc:def-123"
    assert normalised(spelling) == ENDPOINT
    with pytest.raises(ServiceError) as refused:
        endpoint_check(spelling)
    assert refused.value.code == "bad_push_endpoint"


def test_escapes_keep_what_they_must():
    assert normalised("https://push.example.com/a%2fb%7e") == "https://push.example.com/a%2Fb~"
    assert normalised("https://push.example.com") == "https://push.example.com/"
    assert normalised("https://[2001:4860::1]:443/x") == "https://[2001:4860::1]/x"
    assert normalised("https://push.example.com:8443/x") == "https://push.example.com:8443/x"


HOSTS = st.sampled_from(["fcm.googleapis.com", "updates.push.services.mozilla.com", "web.push.apple.com"])
TOKEN = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_:"), min_size=1)


@st.composite
def spelt(draw: Any) -> tuple[str, str]:
    """(an endpoint, another spelling of it)."""
    host, token = draw(HOSTS), draw(TOKEN)
    plain = f"https://{host}/push/{token}"
    scheme = draw(st.sampled_from(["https", "HTTPS", "Https"]))
    shown_host = "".join(c.upper() if draw(st.booleans()) else c for c in host) + draw(st.sampled_from(["", "."]))
    port = draw(st.sampled_from(["", ":443"]))
    # Unreserved characters may be escaped (a reserved one, `:`, escaped is another URL).
    path = "".join(
        f"%{ord(c):02{draw(st.sampled_from('xX'))}}" if c != ":" and draw(st.booleans()) else c for c in token
    )
    tail = draw(st.sampled_from(["", "?", "#", "?#"]))
    return plain, f"{scheme}://{shown_host}{port}/push/{path}{tail}"


@settings(max_examples=300, deadline=None)
@given(pair=spelt())
def test_every_spelling_normalises_to_the_one_and_normalising_is_stable(pair):
    plain, spelling = pair
    assert normalised(spelling) == normalised(plain)
    assert normalised(normalised(spelling)) == normalised(spelling)


@pytest.mark.django_db
@pytest.mark.parametrize("spelling", SPELLINGS)
def test_another_spelling_of_an_accounts_endpoint_is_taken(api_client, make_user, spelling):
    alice, bob = make_user(), make_user()
    mine = Browser().subscription(ENDPOINT)
    assert api_client(alice).post(SUBS, mine, format="json").status_code == 201
    res = api_client(bob).post(SUBS, Browser().subscription(spelling), format="json")
    assert res.status_code == 409 and errors(res) == [("push_endpoint_taken", None)], res.content
    assert list(PushSubscription.objects.values_list("user", "endpoint")) == [(alice.pk, ENDPOINT)]
    # Alice's browser again, spelt otherwise: the same subscription (200), kept in one spelling.
    res = api_client(alice).post(SUBS, Browser().subscription(spelling), format="json")
    assert res.status_code == 200 and res.json()["endpoint"] == ENDPOINT, res.content
    assert PushSubscription.objects.count() == 1
    # And it is removed by any spelling of it.
    assert api_client(alice).delete(SUBS, {"endpoint": spelling}, format="json").status_code == 204
    assert not PushSubscription.objects.exists()


@pytest.mark.django_db
def test_stored_spellings_are_made_one_by_the_migration(make_user):
    """Rows stored before: each normalised, and of two spellings of one endpoint the first
    registered stays."""
    alice, bob, carol = make_user(), make_user(), make_user()
    now = timezone.now()
    rows = [
        (alice, "https://FCM.googleapis.com:443/fcm/send/abc:def-123?", now),
        (bob, ENDPOINT, now + timedelta(seconds=1)),
        (carol, "https://push.example.com:443/other", now),
    ]
    for user, endpoint, at in rows:
        PushSubscription.objects.create(user=user, endpoint=endpoint, p256dh="p", auth="a", created_at=at)
    migration = import_module("notifications.migrations.0004_normalise_push_endpoints")
    migration.normalise(django_apps, None)
    kept = sorted(PushSubscription.objects.values_list("user", "endpoint"))
    assert kept == sorted([(alice.pk, ENDPOINT), (carol.pk, "https://push.example.com/other")])
