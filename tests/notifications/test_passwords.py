"""A person's password: reset by a link mailed to their confirmed address (once, for a
short while, the same answer for any address, limited per address and per requester),
and changed when they know it (their other sign-ins and tokens end unless kept). Either
tells their confirmed address.

Tasks a request queues run at once here, as a worker would (the `queued` fixture)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.utils import timezone
from rest_framework.test import APIClient

import notifications.tasks  # noqa: F401  (registers the tasks, as the worker does)
from accounts.models import SignIn
from accounts.passwords import reset_token
from grants.models import PersonalToken
from notifications.services import preferences
from tests.api.helpers import errors

from .conftest import BASE_URL, confirm_email

pytestmark = pytest.mark.django_db

RESET = "/api/v1/auth/password-reset"
CONFIRM = "/api/v1/auth/password-reset/confirm"
CHANGE = "/api/v1/me/password"
LINK = re.compile(re.escape(f"{BASE_URL}/reset-password#") + r"(\S+)")


@pytest.fixture
def mailing(settings: Any, queued: Any) -> list[Any]:
    settings.PUBLIC_BASE_URL = BASE_URL
    return queued


def confirmed(make_user: Any, name: str, address: str) -> Any:
    user = make_user(name)
    preferences.preferences_update(user=user, changes={"email_address": address})
    confirm_email(user)
    mail.outbox.clear()
    return user


def signed_in(user: Any, password: str = "correct-horse-9") -> APIClient:
    client = APIClient()
    answer = client.post("/api/v1/auth/token", {"username": user.username, "password": password}, format="json")
    assert answer.status_code == 200, answer.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    return client


def test_a_forgotten_password_is_reset_from_the_mailed_link_once(
    make_user, mailing, django_capture_on_commit_callbacks
):
    ana = confirmed(make_user, "ana", "Ana@Example.org")
    phone = signed_in(ana)
    bot = phone.post("/api/v1/me/tokens", {"name": "bot", "scopes": ["read"]}, format="json").json()["token"]
    with django_capture_on_commit_callbacks(execute=True):
        asked = APIClient().post(RESET, {"email": "ana@example.ORG"}, format="json")
    assert asked.status_code == 202
    (message,) = mail.outbox
    assert message.to == ["ana@example.ORG"] and "ana" in message.body
    token = LINK.search(message.body).group(1)
    with django_capture_on_commit_callbacks(execute=True):
        reset = APIClient().post(CONFIRM, {"token": token, "new_password": "a-new-horse-42"}, format="json")
    assert reset.status_code == 200, reset.content
    assert reset.json()["user"]["username"] == "ana"
    # This device is signed in anew; every other sign-in and token ended; the address is told.
    fresh = APIClient()
    fresh.credentials(HTTP_AUTHORIZATION=f"Token {reset.json()['token']}")
    assert fresh.get("/api/v1/me").status_code == 200
    assert phone.get("/api/v1/me").status_code == 401
    assert APIClient().get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {bot}").status_code == 401
    assert list(SignIn.objects.filter(user=ana).values_list("how", flat=True)) == ["reset"]
    assert mail.outbox[-1].subject == "Your password was changed"
    # The new password signs in, the old one does not; the link does not work twice.
    signed_in(ana, "a-new-horse-42")
    old = {"username": "ana", "password": "correct-horse-9"}
    assert APIClient().post("/api/v1/auth/token", old, format="json").status_code == 401
    again = APIClient().post(CONFIRM, {"token": token, "new_password": "third-horse-77"}, format="json")
    assert again.status_code == 400 and errors(again) == [("bad_reset_token", "token")]


def test_the_answer_is_the_same_for_any_address_and_only_a_confirmed_one_gets_mail(make_user, mailing):
    confirmed(make_user, "ana", "ana@example.org")
    unconfirmed = make_user("bo")
    preferences.preferences_update(user=unconfirmed, changes={"email_address": "bo@example.org"})
    mail.outbox.clear()
    answers = [
        APIClient().post(RESET, {"email": address}, format="json")
        for address in ("ana@example.org", "bo@example.org", "nobody@example.org", "not an address")
    ]
    assert {a.status_code for a in answers} == {202}
    assert len({a.content for a in answers}) == 1
    assert [m.to for m in mail.outbox] == [["ana@example.org"]]


def test_bad_reset_tokens_and_weak_passwords_change_nothing(make_user, mailing):
    ana = confirmed(make_user, "ana", "ana@example.org")
    token = reset_token(ana)
    for bad in ("", "zz", "1-abc", f"{token}x", "9" * 99 + "-x", token.replace(token[0], "0", 1)):
        answer = APIClient().post(CONFIRM, {"token": bad, "new_password": "a-new-horse-42"}, format="json")
        assert answer.status_code == 400, bad
        assert errors(answer)[0][1] == "token", bad
    weak = APIClient().post(CONFIRM, {"token": token, "new_password": "ana"}, format="json")
    assert weak.status_code == 400 and {code for code, _ in errors(weak)} == {"weak_password"}
    ana.refresh_from_db()
    assert ana.check_password("correct-horse-9")
    # Too old: the link works for PASSWORD_RESET_TIMEOUT seconds.
    with time_machine.travel(timezone.now() + timedelta(hours=2)):
        late = APIClient().post(CONFIRM, {"token": token, "new_password": "a-new-horse-42"}, format="json")
    assert late.status_code == 400 and errors(late) == [("bad_reset_token", "token")]
    # A sign-in since the link was sent retires it too.
    signed_in(ana)
    used = APIClient().post(CONFIRM, {"token": token, "new_password": "a-new-horse-42"}, format="json")
    assert used.status_code == 400


def test_links_to_one_address_are_capped_whoever_asks(make_user, mailing, settings):
    settings.PASSWORD_RESET_ADDRESS_MAX = 2
    confirmed(make_user, "ana", "capped@example.org")
    codes = [APIClient().post(RESET, {"email": "Capped@example.org"}, format="json").status_code for _ in range(3)]
    assert codes == [202, 202, 429]
    assert len(mail.outbox) == 2


def test_changing_the_password_ends_the_other_sign_ins_and_tokens_unless_kept(
    make_user, mailing, django_capture_on_commit_callbacks
):
    ana = confirmed(make_user, "ana", "ana@example.org")
    here, there = signed_in(ana), signed_in(ana)
    here.post("/api/v1/me/tokens", {"name": "bot", "scopes": ["read"]}, format="json")
    wrong = here.post(CHANGE, {"current_password": "nope", "new_password": "a-new-horse-42"}, format="json")
    assert wrong.status_code == 400 and errors(wrong) == [("wrong_password", "current_password")]
    weak = here.post(CHANGE, {"current_password": "correct-horse-9", "new_password": "12345678"}, format="json")
    assert weak.status_code == 400 and {code for code, _ in errors(weak)} == {"weak_password"}
    assert there.get("/api/v1/me").status_code == 200 and PersonalToken.objects.filter(user=ana).exists()

    with django_capture_on_commit_callbacks(execute=True):
        done = here.post(
            CHANGE, {"current_password": "correct-horse-9", "new_password": "a-new-horse-42"}, format="json"
        )
    assert done.status_code == 200 and done.json() == {"ended": 2}
    assert here.get("/api/v1/me").status_code == 200 and there.get("/api/v1/me").status_code == 401
    assert not PersonalToken.objects.filter(user=ana).exists()
    assert mail.outbox[-1].to == ["ana@example.org"] and mail.outbox[-1].subject == "Your password was changed"

    elsewhere = signed_in(ana, "a-new-horse-42")
    kept = here.post(
        CHANGE,
        {"current_password": "a-new-horse-42", "new_password": "third-horse-77", "sign_out_others": False},
        format="json",
    )
    assert kept.status_code == 200 and kept.json() == {"ended": 0}
    assert elsewhere.get("/api/v1/me").status_code == 200


def test_a_guest_has_no_password_to_change_and_an_app_cannot_change_one(api_client, make_user):
    guest = APIClient()
    token = guest.post("/api/v1/auth/guest", {"display_name": "Visitor"}, format="json").json()["token"]
    guest.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert guest.get("/api/v1/me").json()["has_password"] is False
    answer = guest.post(CHANGE, {"current_password": "", "new_password": "a-new-horse-42"}, format="json")
    assert answer.status_code == 409 and errors(answer) == [("no_password", None)]
    ana = make_user("ana")
    secret = api_client(ana).post("/api/v1/me/tokens", {"name": "b", "scopes": ["read", "play"]}, format="json")
    app = APIClient()
    app.credentials(HTTP_AUTHORIZATION=f"Bearer {secret.json()['token']}")
    refused = app.post(CHANGE, {"current_password": "correct-horse-9", "new_password": "a-new-horse-42"}, format="json")
    assert refused.status_code == 403
    ana.refresh_from_db()
    assert ana.check_password("correct-horse-9")


def test_a_confirmed_address_is_told_when_the_account_goes_by_another(
    make_user, api_client, mailing, settings, django_capture_on_commit_callbacks
):
    settings.EMAIL_CONFIRMATION_RESEND_SECONDS = 0
    ana = confirmed(make_user, "ana", "old@example.org")
    client = api_client(ana)
    with django_capture_on_commit_callbacks(execute=True):
        changed = client.patch("/api/v1/me/notifications", {"email_address": "new@example.org"}, format="json")
    assert changed.status_code == 200
    told = [m for m in mail.outbox if m.to == ["old@example.org"]]
    assert [m.subject for m in told] == ["Your e-mail address was changed"]
    assert "new@example.org" not in told[0].body
    # The new address gets its confirmation link, and no reset until it is confirmed.
    assert [m.subject for m in mail.outbox if m.to == ["new@example.org"]] == ["Confirm your e-mail address"]
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        APIClient().post(RESET, {"email": "new@example.org"}, format="json")
        APIClient().post(RESET, {"email": "old@example.org"}, format="json")
    assert mail.outbox == []
    # An address never confirmed is not told when it changes.
    with django_capture_on_commit_callbacks(execute=True):
        client.patch("/api/v1/me/notifications", {"email_address": "third@example.org"}, format="json")
    assert not [m for m in mail.outbox if m.to == ["new@example.org"]]


def test_a_sign_in_from_a_new_place_is_told_to_the_confirmed_address(
    make_user, mailing, django_capture_on_commit_callbacks
):
    import secrets

    name = f"traveller-{secrets.token_hex(3)}"  # the addresses an account signed in from are remembered for days
    confirmed(make_user, name, "traveller@example.org")

    def from_(address: str) -> int:
        body = {"username": name, "password": "correct-horse-9"}
        with django_capture_on_commit_callbacks(execute=True):
            answer = APIClient().post("/api/v1/auth/token", body, format="json", REMOTE_ADDR=address)
        assert answer.status_code == 200
        return len([m for m in mail.outbox if m.subject == "A new sign-in to your account"])

    assert from_("203.0.113.5") == 1
    assert from_("203.0.113.5") == 1  # known now
    assert from_("198.51.100.9") == 2
    assert "network 198.51.100.0/24" in mail.outbox[-1].body


def test_a_passkey_added_and_removed_is_told_to_the_confirmed_address(
    make_user, api_client, mailing, django_capture_on_commit_callbacks
):
    from tests.accounts.soft_authenticator import SoftAuthenticator
    from tests.accounts.test_passkeys import added

    ana = confirmed(make_user, "ana", "ana@example.org")
    client = api_client(ana)
    with django_capture_on_commit_callbacks(execute=True):
        passkey = added(client, SoftAuthenticator()).json()["passkey"]
    with django_capture_on_commit_callbacks(execute=True):
        removed = client.post(
            f"/api/v1/me/passkeys/{passkey['id']}/remove", {"password": "correct-horse-9"}, format="json"
        )
    assert removed.status_code == 204
    told = [m.subject for m in mail.outbox if m.to == ["ana@example.org"]]
    assert told == ["A passkey was added", "A passkey was removed"]
    assert "signs in with no password" in mail.outbox[0].body
