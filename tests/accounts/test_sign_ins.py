"""Where a person is signed in: every sign-in is a device of its own, listed with what
the person can recognise, and ended one by one, all but this one, or by signing out."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import SignIn

pytestmark = pytest.mark.django_db

PHONE = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36"
)
LAPTOP = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"


def sign_in(user: Any, agent: str, address: str = "203.0.113.7") -> APIClient:
    client = APIClient()
    answer = client.post(
        "/api/v1/auth/token",
        {"username": user.username, "password": "correct-horse-9"},
        format="json",
        HTTP_USER_AGENT=agent,
        REMOTE_ADDR=address,
    )
    assert answer.status_code == 200, answer.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    return client


def test_each_device_is_a_sign_in_of_its_own_shown_as_the_person_knows_it(make_user):
    user = make_user("ana")
    phone = sign_in(user, PHONE, "203.0.113.7")
    laptop = sign_in(user, LAPTOP, "2001:db8:1234:5678::1")
    listed = laptop.get("/api/v1/me/sign-ins").json()
    assert [(s["device"], s["address"], s["how"], s["current"]) for s in listed] == [
        ("Firefox on Linux", "2001:db8:1234::/48", "password", True),
        ("Chrome on Android", "203.0.113.0/24", "password", False),
    ]
    # The phone's list marks the phone; the address itself is nowhere in it.
    assert [s["current"] for s in phone.get("/api/v1/me/sign-ins").json()] == [False, True]
    assert "203.0.113.7" not in str(listed)
    # A call notes its use (to the minute).
    assert all(s["last_used_at"] is not None for s in phone.get("/api/v1/me/sign-ins").json())


def test_ending_one_sign_in_signs_that_device_out_alone(make_user):
    user = make_user("ana")
    phone, laptop = sign_in(user, PHONE), sign_in(user, LAPTOP)
    phone_id = next(s["id"] for s in phone.get("/api/v1/me/sign-ins").json() if s["current"])
    assert laptop.delete(f"/api/v1/me/sign-ins/{phone_id}").status_code == 204
    refused = phone.get("/api/v1/me")
    assert refused.status_code == 401 and refused.json()["errors"][0]["code"] == "authentication_failed"
    assert laptop.get("/api/v1/me").status_code == 200
    # Ended already, and anyone else's: not found, alike.
    gone = laptop.delete(f"/api/v1/me/sign-ins/{phone_id}")
    assert gone.status_code == 404 and gone.json()["errors"][0]["code"] == "not_found"
    stranger = sign_in(make_user("bo"), LAPTOP)
    laptop_id = SignIn.objects.get(user=user).pk
    assert stranger.delete(f"/api/v1/me/sign-ins/{laptop_id}").status_code == 404
    assert laptop.get("/api/v1/me").status_code == 200


def test_signing_out_everywhere_else_keeps_this_device(make_user):
    user = make_user("ana")
    others = [sign_in(user, PHONE) for _ in range(3)]
    here = sign_in(user, LAPTOP)
    answer = here.delete("/api/v1/me/sign-ins")
    assert answer.status_code == 200 and answer.json() == {"ended": 3}
    assert all(other.get("/api/v1/me").status_code == 401 for other in others)
    assert [s["device"] for s in here.get("/api/v1/me/sign-ins").json()] == ["Firefox on Linux"]


def test_signing_out_ends_this_sign_in_only(make_user):
    user = make_user("ana")
    phone, laptop = sign_in(user, PHONE), sign_in(user, LAPTOP)
    assert phone.post("/api/v1/auth/logout").status_code == 204
    assert phone.get("/api/v1/me").status_code == 401
    assert laptop.get("/api/v1/me").status_code == 200
    assert SignIn.objects.filter(user=user).count() == 1


def test_sign_up_and_guest_are_sign_ins_too(api_client):
    client = APIClient()
    account = {"username": "newbie", "password": "s3cret-enough"}
    made = client.post("/api/v1/auth/register", account, format="json", HTTP_USER_AGENT=PHONE)
    guest = client.post("/api/v1/auth/guest", {"display_name": "Visitor"}, format="json", HTTP_USER_AGENT="MyApp/2.1")
    assert made.status_code == guest.status_code == 201
    assert list(SignIn.objects.values_list("how", "device").order_by("id")) == [
        ("sign_up", "Chrome on Android"),
        ("guest", "MyApp/2.1"),
    ]


def test_no_app_token_reaches_the_sign_ins(make_user, api_client):
    user = make_user("ana")
    own = api_client(user)
    secret = own.post("/api/v1/me/tokens", {"name": "bot", "scopes": ["read", "play", "notifications"]}, format="json")
    bot = APIClient()
    bot.credentials(HTTP_AUTHORIZATION=f"Bearer {secret.json()['token']}")
    calls = (("get", "/api/v1/me/sign-ins"), ("delete", "/api/v1/me/sign-ins"), ("delete", "/api/v1/me/sign-ins/1"))
    for method, path in calls:
        answer = getattr(bot, method)(path)
        assert answer.status_code == 403 and answer.json()["errors"][0]["code"] == "insufficient_scope", path
    assert own.get("/api/v1/me").status_code == 200
