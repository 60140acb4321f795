"""A guest keeps what they played: their guest account becomes an account with a
username and password, the same account, seats and sign-ins included."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import SignIn, User
from games.models import Seat
from games.services import lobby
from tests.api.helpers import errors

pytestmark = pytest.mark.django_db

KEEP = "/api/v1/me/account"


def guest(name: str = "Visitor") -> tuple[APIClient, Any]:
    client = APIClient()
    answer = client.post("/api/v1/auth/guest", {"display_name": name}, format="json")
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    return client, User.objects.get(pk=answer.json()["user"]["id"])


def test_a_guest_keeps_seats_and_sign_in_and_signs_in_with_the_new_password(make_user, api_client):
    host = make_user("host")
    room = lobby.room_create(host=host, game="hearts", options={})
    client, visitor = guest()
    assert client.post(f"/api/v1/rooms/{room.code}/join", {}, format="json").status_code in (200, 201)
    kept = client.post(
        KEEP,
        {"username": "visitor", "password": "kept-horse-42", "display_name": "Vis", "email_address": "v@example.org"},
        format="json",
    )
    assert kept.status_code == 200, kept.content
    body = kept.json()
    assert (body["id"], body["username"], body["is_guest"], body["has_password"]) == (
        visitor.pk,
        "visitor",
        False,
        True,
    )
    # The same sign-in works, the seat is theirs, others read the new name.
    assert client.get("/api/v1/me").status_code == 200
    assert Seat.objects.get(room=room, user=visitor)
    seats = api_client(host).get(f"/api/v1/rooms/{room.code}/").json()["seats"]
    assert "Vis" in [s["display_name"] for s in seats]
    assert client.get("/api/v1/me/notifications").json()["email_address"] == "v@example.org"
    signed = APIClient().post("/api/v1/auth/token", {"username": "visitor", "password": "kept-horse-42"}, format="json")
    assert signed.status_code == 200
    assert SignIn.objects.filter(user=visitor).count() == 2
    # Once is enough.
    again = client.post(KEEP, {"username": "visitor2", "password": "kept-horse-42"}, format="json")
    assert again.status_code == 409 and errors(again) == [("not_a_guest", None)]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"username": "taken", "password": "kept-horse-42"}, [("username_taken", "username")]),
        ({"username": "guest-me", "password": "kept-horse-42"}, [("reserved_name", "username")]),
        ({"username": "fine-name", "password": "fine-name"}, None),  # too like the username
        ({"username": "fine-name", "password": "kept-horse-42", "email_address": "nope"}, None),
        ({"username": "fine-name", "password": "kept-horse-42", "display_name": "Seat 3"}, None),
    ],
)
def test_a_refused_field_changes_nothing(make_user, body, expected):
    make_user("taken")
    client, visitor = guest()
    answer = client.post(KEEP, body, format="json")
    assert answer.status_code == 400, answer.content
    if expected is not None:
        assert errors(answer) == expected
    visitor.refresh_from_db()
    assert visitor.is_guest and visitor.username.startswith("guest-") and not visitor.has_usable_password()
    assert visitor.display_name == "Visitor"
    assert client.get("/api/v1/me/notifications").json()["email_address"] == ""


def test_an_account_or_an_app_cannot_use_it(make_user, api_client):
    ana = make_user("ana")
    own = api_client(ana)
    answer = own.post(KEEP, {"username": "ana2", "password": "kept-horse-42"}, format="json")
    assert answer.status_code == 409 and errors(answer) == [("not_a_guest", None)]
    client, _ = guest()
    secret = client.post("/api/v1/me/tokens", {"name": "b", "scopes": ["read", "play"]}, format="json").json()["token"]
    app = APIClient()
    app.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert app.post(KEEP, {"username": "sneaky", "password": "kept-horse-42"}, format="json").status_code == 403
