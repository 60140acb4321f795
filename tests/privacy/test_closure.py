"""A person closes their account: at once it acts nowhere and its open seats go as a
ban's do; signing in within the grace period restores it; after it, its personal data is
erased while finished matches stay whole for the other players."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone
from rest_framework.test import APIClient

import notifications.tasks  # noqa: F401  (registers the tasks, as the worker does)
from accounts.models import Block, SignIn, User
from games.models import Room, Seat
from games.services import lobby
from notifications.models import NotificationSettings
from privacy import closure
from talk.models import ChatMessage
from tests.api.helpers import errors
from tests.notifications.conftest import BASE_URL, confirm_email
from tests.ratings.play import play_out, room_ready

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-9"
CLOSE = "/api/v1/me/close"


def sign_in(username: str) -> Any:
    return APIClient().post("/api/v1/auth/token", {"username": username, "password": PASSWORD}, format="json")


def test_closing_ends_everything_at_once_and_signing_in_restores_it(
    make_user, api_client, settings, queued, django_capture_on_commit_callbacks
):
    settings.PUBLIC_BASE_URL = BASE_URL
    ana, bo, cy, di = (make_user(n) for n in ("ana", "bo", "cy", "di"))
    api_client(ana).patch("/api/v1/me/notifications", {"email_address": "ana@example.org"}, format="json")
    confirm_email(ana)
    mail.outbox.clear()
    playing = room_ready("hearts", {}, [bo, ana, cy, di])
    lobby_room = lobby.room_create(host=bo, game="hearts", options={})
    lobby.room_join(code=lobby_room.code, user=ana)
    client = api_client(ana)
    wrong = client.post(CLOSE, {"password": "nope"}, format="json")
    assert wrong.status_code == 400 and errors(wrong) == [("wrong_password", "password")]
    assert User.objects.get(pk=ana.pk).closed_at is None

    with django_capture_on_commit_callbacks(execute=True):
        closed = client.post(CLOSE, {"password": PASSWORD}, format="json")
    assert closed.status_code == 200, closed.content
    until = closed.json()["restorable_until"]
    assert until > closed.json()["closed_at"]
    assert client.get("/api/v1/me").status_code == 401
    assert not SignIn.objects.filter(user=ana).exists()
    # A computer player took the seat in play; the lobby's seat is free; the others play on.
    assert Seat.objects.get(room=playing, index=1).user_id is None
    assert not Seat.objects.filter(room=lobby_room, user=ana).exists()
    assert api_client(bo).get(f"/api/v1/rooms/{playing.code}/state").status_code == 200
    (notice,) = [m for m in mail.outbox if m.to == ["ana@example.org"]]
    assert notice.subject == "Your account is closed"

    restored = sign_in("ana")
    assert restored.status_code == 200
    assert APIClient().get("/api/v1/me", HTTP_AUTHORIZATION=f"Token {restored.json()['token']}").status_code == 200
    assert User.objects.get(pk=ana.pk).closed_at is None


def test_after_the_grace_the_data_goes_and_finished_matches_read_as_before(make_user, api_client, queued):
    ana, bo, cy, di = (make_user(n) for n in ("ana", "bo", "cy", "di"))
    api_client(ana).patch("/api/v1/me/notifications", {"email_address": "ana@example.org"}, format="json")
    room = play_out(room_ready("hearts", {"target": 20}, [ana, bo, cy, di]), [ana, bo, cy, di], seed=5)
    assert room.status == "finished"
    others = [api_client(u) for u in (bo, cy, di)]

    def read() -> list[str]:
        return [
            json.dumps([c.get(f"/api/v1/rooms/{room.code}/{p}").json() for p in ("state", "replay", "rounds")])
            for c in others
        ]

    before = read()
    api_client(ana).post(f"/api/v1/rooms/{room.code}/chat", {"phrase": "good_game"}, format="json")
    api_client(ana).post("/api/v1/me/blocks", {"username": "bo"}, format="json")
    api_client(ana).post(CLOSE, {"password": PASSWORD}, format="json")
    # Within the grace period nothing is erased.
    assert closure.closed_accounts_erase(now=timezone.now() + timedelta(days=6)) == 0
    assert closure.closed_accounts_erase(now=timezone.now() + timedelta(days=7, minutes=1)) == 1
    ana.refresh_from_db()
    assert (ana.username, ana.display_name, ana.email) == (f"closed-account-{ana.pk}", f"closed account {ana.pk}", "")
    assert not ana.has_usable_password() and ana.erased_at is not None
    assert not NotificationSettings.objects.filter(user=ana).exists()
    assert not ChatMessage.objects.filter(author=ana).exists() and not Block.objects.exists()
    assert sign_in("ana").status_code == 401
    # The other players read the match exactly as before, but for the closed account's name.
    after = read()
    assert '"Ana"' in before[0] and f'"closed account {ana.pk}"' in after[0]
    assert after == [
        text.replace('"Ana"', f'"closed account {ana.pk}"').replace('"ana"', f'"closed-account-{ana.pk}"')
        for text in before
    ]
    assert closure.closed_accounts_erase(now=timezone.now() + timedelta(days=30)) == 0
    assert Room.objects.filter(pk=room.pk).exists()


def test_a_guest_closes_without_a_password_and_an_app_cannot_close(make_user, api_client, queued):
    guest = APIClient()
    guest.credentials(
        HTTP_AUTHORIZATION="Token "
        + guest.post("/api/v1/auth/guest", {"display_name": "G"}, format="json").json()["token"]
    )
    assert guest.post(CLOSE, {"password": ""}, format="json").status_code == 200
    assert guest.get("/api/v1/me").status_code == 401
    bo = make_user("bo")
    secret = api_client(bo).post("/api/v1/me/tokens", {"name": "b", "scopes": ["read", "play"]}, format="json")
    app = APIClient()
    app.credentials(HTTP_AUTHORIZATION=f"Bearer {secret.json()['token']}")
    assert app.post(CLOSE, {"password": PASSWORD}, format="json").status_code == 403
    assert User.objects.get(pk=bo.pk).closed_at is None
