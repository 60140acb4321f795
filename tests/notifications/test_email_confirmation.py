"""Double opt-in for e-mail notices: the link mailed to a new address, asking for it
again (and its cap), confirming with the token, and deliveries that mail only a
confirmed address.

The tasks a request queues after commit run here at once, as a worker would: the
Celery app's `send_task` is replaced by a call of the task it names (there is no broker
in these tests), and every call is recorded."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail, signing
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

import notifications.tasks
from notifications.models import NotificationSettings
from notifications.services import account_notices, confirmation, preferences, turns
from tests.api.helpers import errors

from .conftest import BASE_URL, after_wait, confirm_email, start_room
from .play import act_and_wait_again

pytestmark = pytest.mark.django_db

SETTINGS = "/api/v1/me/notifications"
RESEND = "/api/v1/me/notifications/email-confirmation"
CONFIRM = "/api/v1/email-confirmations"
LOCMEM = "django.core.mail.backends.locmem.EmailBackend"
LINK = re.compile(re.escape(f"{BASE_URL}/confirm-email#") + r"(\S+)")


def token_in(message: Any) -> str:
    [token] = LINK.findall(message.body)
    return token


def patch(client: Any, capture: Callable[..., Any], body: dict[str, Any]) -> Any:
    with capture(execute=True):
        res = client.patch(SETTINGS, body, format="json")
    assert res.status_code == 200, res.content
    return res


def resend(client: Any, capture: Callable[..., Any]) -> Any:
    with capture(execute=True):
        return client.post(RESEND, {}, format="json")


# -- the token -----------------------------------------------------------------------


def test_the_link_of_a_new_address_confirms_it_from_anywhere(
    api_client, make_user, queued, django_capture_on_commit_callbacks
):
    player = make_user(email="account@example.org")
    client = api_client(player)
    res = patch(client, django_capture_on_commit_callbacks, {"email_address": "me@example.org"})
    assert res.json()["email_address"] == "me@example.org" and res.json()["email_confirmed"] is False
    assert queued == [(confirmation.SEND_EMAIL_CONFIRMATION, (player.pk, "me@example.org"))]
    [message] = mail.outbox
    assert message.to == ["me@example.org"]
    assert message.subject == "Confirm your e-mail address"
    assert "3 days" in message.body
    token = token_in(message)
    assert signing.loads(token, salt=confirmation.SALT) == {"u": player.pk, "a": "me@example.org"}

    # Opened on another device: no sign-in needed.
    res = api_client().post(CONFIRM, {"token": token}, format="json")
    assert res.status_code == 200, res.content
    assert res.json() == {"email_address": "me@example.org", "confirmed": True}
    assert client.get(SETTINGS).json()["email_confirmed"] is True
    # Opened twice: still confirmed, nothing more sent.
    assert api_client().post(CONFIRM, {"token": token}, format="json").status_code == 200
    assert len(mail.outbox) == 1 and len(queued) == 1


def test_the_confirmation_mail_says_nothing_of_any_game(
    api_client, make_user, queued, django_capture_on_commit_callbacks
):
    player = make_user()
    room = start_room(player, name="Secret table")
    patch(api_client(player), django_capture_on_commit_callbacks, {"email_address": "me@example.org"})
    [message] = mail.outbox
    for text in (message.subject, message.body):
        assert room.code not in text and "Secret table" not in text and "turn" not in text.lower()
    assert message.body.count(BASE_URL) == 1


def test_every_bad_token_gets_the_same_answer(api_client, make_user, settings, django_capture_on_commit_callbacks):
    player = make_user(email="me@example.org")
    other = make_user(email="other@example.org")
    good = confirmation.confirmation_token(user_id=player.pk, address="me@example.org")
    signed, signature = good.rsplit(":", 1)
    flipped = signature[:-1] + ("A" if signature[-1] != "A" else "B")
    others = confirmation.confirmation_token(user_id=other.pk, address="other@example.org").rsplit(":", 1)[0]
    banned = make_user(email="banned@example.org", is_active=False)
    tokens = {
        "tampered signature": f"{signed}:{flipped}",
        "another's payload": f"{others}:{signature}",
        "another salt": signing.dumps({"u": player.pk, "a": "me@example.org"}, salt="accounts.other"),
        "unknown account": confirmation.confirmation_token(user_id=10**9, address="me@example.org"),
        "banned account": confirmation.confirmation_token(user_id=banned.pk, address="banned@example.org"),
        "another's address": confirmation.confirmation_token(user_id=player.pk, address="other@example.org"),
        "not a dict": signing.dumps(["me@example.org"], salt=confirmation.SALT),
        "id not a number": signing.dumps({"u": str(player.pk), "a": "me@example.org"}, salt=confirmation.SALT),
        "not a token": "hello",
    }
    details = set()

    def refused(token: str, why: str) -> None:
        res = api_client().post(CONFIRM, {"token": token}, format="json")
        assert res.status_code == 400, (why, res.content)
        assert errors(res) == [("bad_confirmation_token", "token")], why
        details.add(res.json()["errors"][0]["detail"])

    for why, token in tokens.items():
        refused(token, why)
    # Nothing was written for any of them (not even the settings row made to check).
    assert not NotificationSettings.objects.exists()

    # The address changed since the link was sent.
    client = api_client(player)
    patch(client, django_capture_on_commit_callbacks, {"email_address": "new@example.org"})
    refused(good, "address changed")
    assert client.get(SETTINGS).json()["email_confirmed"] is False

    # Expired: the same token works while young enough, not after.
    fresh = confirmation.confirmation_token(user_id=other.pk, address="other@example.org")
    settings.EMAIL_CONFIRMATION_MAX_AGE_SECONDS = 0
    time.sleep(1.1)
    refused(fresh, "expired")
    settings.EMAIL_CONFIRMATION_MAX_AGE_SECONDS = 3600
    assert api_client().post(CONFIRM, {"token": fresh}, format="json").status_code == 200
    assert len(details) == 1, details


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({}, ("required", "token")),
        ({"token": ""}, ("blank", "token")),
        ({"token": 12}, ("invalid", "token")),
        ({"token": None}, ("null", "token")),
        ({"token": "x" * 513}, ("max_length", "token")),
        ({"token": "x", "user": 1}, ("invalid", "user")),
    ],
)
def test_confirmation_bodies_are_checked(api_client, body, expected):
    res = api_client().post(CONFIRM, body, format="json")
    assert res.status_code == 400 and errors(res) == [expected]


# -- the link again, and its cap -----------------------------------------------------


def test_the_link_again_and_no_more_than_one_per_window(
    api_client, make_user, queued, settings, django_capture_on_commit_callbacks
):
    settings.EMAIL_CONFIRMATION_RESEND_SECONDS = 300
    player = make_user(email="me@example.org")
    client = api_client(player)
    res = resend(client, django_capture_on_commit_callbacks)
    assert res.status_code == 202, res.content
    assert res.json() == client.get(SETTINGS).json()
    assert res.json()["email_address"] == "me@example.org" and res.json()["email_confirmed"] is False
    assert [m.to for m in mail.outbox] == [["me@example.org"]]

    res = resend(client, django_capture_on_commit_callbacks)
    assert res.status_code == 429 and errors(res) == [("confirmation_sent_recently", None)]
    assert "5 minutes" in res.json()["errors"][0]["detail"]
    # When asking again can work, as a throttle says it.
    assert 290 <= int(res["Retry-After"]) <= 300
    # A change of address within the window is saved, and no link goes to it yet.
    res = patch(client, django_capture_on_commit_callbacks, {"email_address": "new@example.org"})
    assert res.json()["email_address"] == "new@example.org"
    assert len(mail.outbox) == 1 and len(queued) == 1

    # Once the window is over, the link goes again, to the address as it is now.
    NotificationSettings.objects.filter(user=player).update(
        email_confirmation_sent_at=timezone.now() - timedelta(seconds=301)
    )
    assert resend(client, django_capture_on_commit_callbacks).status_code == 202
    assert mail.outbox[-1].to == ["new@example.org"] and len(queued) == 2
    assert api_client().post(CONFIRM, {"token": token_in(mail.outbox[-1])}, format="json").status_code == 200

    res = resend(client, django_capture_on_commit_callbacks)
    assert res.status_code == 409 and errors(res) == [("already_confirmed", None)]
    patch(client, django_capture_on_commit_callbacks, {"email_address": ""})
    res = resend(client, django_capture_on_commit_callbacks)
    assert res.status_code == 409 and errors(res) == [("no_email_address", None)]
    # No link more: only the notice to the confirmed address that was taken away.
    assert len(mail.outbox) == 3 and len(queued) == 3
    assert mail.outbox[-1].to == ["new@example.org"] and mail.outbox[-1].subject == "Your e-mail address was changed"


def test_the_link_again_needs_a_sign_in_and_an_empty_body(api_client, make_user):
    res = api_client().post(RESEND, {}, format="json")
    assert res.status_code == 401
    res = api_client(make_user(email="me@example.org")).post(RESEND, {"email_address": "x@example.org"}, format="json")
    assert res.status_code == 400 and errors(res) == [("invalid", "email_address")]
    assert not NotificationSettings.objects.exists()


def test_a_new_address_is_unconfirmed_and_gets_one_link(
    api_client, make_user, queued, django_capture_on_commit_callbacks
):
    player = make_user(email="first@example.org")
    confirm_email(player)
    client = api_client(player)
    assert client.get(SETTINGS).json()["email_confirmed"] is True

    res = patch(client, django_capture_on_commit_callbacks, {"email_address": "second@example.org", "push": False})
    assert res.json()["email_confirmed"] is False
    # The link to the new address, and a notice to the confirmed one it replaced.
    assert queued == [
        (confirmation.SEND_EMAIL_CONFIRMATION, (player.pk, "second@example.org")),
        (account_notices.SEND_ADDRESS_CHANGED, (player.pk, "first@example.org")),
    ]
    assert [m.to for m in mail.outbox] == [["second@example.org"], ["first@example.org"]]
    # Saving the same address again, or other settings, sends nothing more.
    patch(client, django_capture_on_commit_callbacks, {"email_address": "second@example.org", "email": True})
    patch(client, django_capture_on_commit_callbacks, {"push": True})
    # Back to the address confirmed before: confirmed at once, no link needed.
    res = patch(client, django_capture_on_commit_callbacks, {"email_address": "first@example.org"})
    assert res.json()["email_confirmed"] is True
    assert len(queued) == 2 and len(mail.outbox) == 2


def test_a_task_queued_before_a_change_links_the_address_of_now(api_client, make_user, push_on):
    player = make_user()
    preferences.preferences_update(user=player, changes={"email_address": "old@example.org"})
    preferences.preferences_update(user=player, changes={"email_address": "now@example.org"})
    assert notifications.tasks.send_email_confirmation(player.pk) is True
    [message] = mail.outbox
    assert message.to == ["now@example.org"]
    assert signing.loads(token_in(message), salt=confirmation.SALT)["a"] == "now@example.org"
    confirm_email(player)
    # Confirmed meanwhile, or no address: nothing to send.
    assert notifications.tasks.send_email_confirmation(player.pk) is False
    preferences.preferences_update(user=player, changes={"email_address": ""})
    assert notifications.tasks.send_email_confirmation(player.pk) is False
    assert len(mail.outbox) == 1


def test_without_a_public_address_no_link_is_mailed(make_user, push_on, settings):
    settings.PUBLIC_BASE_URL = ""
    player = make_user(email="me@example.org")
    assert notifications.tasks.send_email_confirmation(player.pk) is False
    assert mail.outbox == []


@pytest.mark.parametrize("missing", ["PUBLIC_BASE_URL", "MAILERS"])
def test_a_server_that_mails_nobody_says_so_and_never_counts_a_link_as_sent(
    api_client, make_user, queued, settings, django_capture_on_commit_callbacks, missing
):
    # No public address to link to, or no mailer at all (production without EMAIL_HOST).
    setattr(settings, missing, "" if missing == "PUBLIC_BASE_URL" else {})
    player = make_user(email="me@example.org")
    client = api_client(player)
    assert client.get(SETTINGS).json()["email_available"] is False
    res = patch(client, django_capture_on_commit_callbacks, {"email_address": "new@example.org"})
    assert res.json()["email_available"] is False and queued == []
    res = resend(client, django_capture_on_commit_callbacks)
    assert res.status_code == 409 and errors(res) == [("email_unavailable", None)]
    assert queued == [] and mail.outbox == []
    assert NotificationSettings.objects.get(user=player).email_confirmation_sent_at is None
    # Once it can mail, the first ask sends the link at once: nothing was counted as sent.
    setattr(settings, missing, BASE_URL if missing == "PUBLIC_BASE_URL" else {"default": {"BACKEND": LOCMEM}})
    assert client.get(SETTINGS).json()["email_available"] is True
    assert resend(client, django_capture_on_commit_callbacks).status_code == 202
    assert [m.to for m in mail.outbox] == [["new@example.org"]]


# -- deliveries ----------------------------------------------------------------------


def test_turn_notices_are_mailed_only_to_a_confirmed_address(push_on, make_user, notify):
    player = make_user(email="me@example.org")
    room = start_room(player, name="Evening")
    [delivery] = notify()
    assert delivery.notice is not None and delivery.emailed_to == "" and mail.outbox == []

    confirm_email(player)
    act_and_wait_again(player, room)
    [delivery] = notify()
    assert delivery.emailed_to == "me@example.org"
    assert [m.to for m in mail.outbox] == [["me@example.org"]]

    # A new address is not mailed until it is confirmed in turn.
    preferences.preferences_update(user=player, changes={"email_address": "new@example.org"})
    act_and_wait_again(player, room)
    [delivery] = notify()
    assert delivery.emailed_to == "" and len(mail.outbox) == 1


def test_the_scan_and_a_delivery_cost_the_same_queries_for_more_players(push_on, make_user):
    def scan_and_deliver(players: int) -> tuple[int, int]:
        users = [make_user(email=f"p{players}-{i}@example.org") for i in range(players)]
        for i, user in enumerate(users):
            start_room(user)
            if i % 2 == 0:
                confirm_email(user)
        now = after_wait()
        with CaptureQueriesContext(connection) as scan:
            told = turns.waiting_turns_claim(now=now)
        assert sorted(told) == sorted(u.pk for u in users)
        with CaptureQueriesContext(connection) as delivery:
            turns.turn_notice_delivered(user_id=users[0].pk, now=now)
        return len(scan), len(delivery)

    one = scan_and_deliver(1)
    mail.outbox.clear()
    three = scan_and_deliver(3)
    assert one == three
