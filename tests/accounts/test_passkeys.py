"""Passkeys over HTTP, with a software authenticator making real signatures: added with
the password, signing in alone (its person verified) and as the second step after the
password, each ceremony's challenge once; removed with the password. Hostile answers
(replayed, another site's, another account's, a cloned key's, garbled) are refused with
a stable code and change nothing."""

from __future__ import annotations

import copy
import json
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from accounts.models import Passkey, PasskeyCeremony
from tests.api.helpers import errors

from .soft_authenticator import SoftAuthenticator, b64, unb64

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-9"


def added(client: Any, authenticator: SoftAuthenticator, name: str = "Laptop") -> Any:
    """A passkey added from `client` by `authenticator`; the answer."""
    options = client.post("/api/v1/me/passkeys/options", {"password": PASSWORD}, format="json")
    assert options.status_code == 200, options.content
    answer = authenticator.create(options.json()["publicKey"])
    return client.post("/api/v1/me/passkeys", {"credential": answer, "name": name}, format="json")


def sign_in_options(second_step: bool = False) -> dict[str, Any]:
    answer = APIClient().post("/api/v1/auth/passkey/options", {"second_step": second_step}, format="json")
    assert answer.status_code == 200, answer.content
    options: dict[str, Any] = answer.json()["publicKey"]
    return options


def passkey_sign_in(credential: dict[str, Any]) -> Any:
    return APIClient().post("/api/v1/auth/passkey", {"credential": credential}, format="json")


def password_sign_in(username: str, **second: Any) -> Any:
    body = {"username": username, "password": PASSWORD, **second}
    return APIClient().post("/api/v1/auth/token", body, format="json")


def me_with(token: str) -> Any:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client.get("/api/v1/me")


def test_a_passkey_added_with_the_password_signs_in_alone_once_per_challenge(make_user, api_client):
    bo = make_user("bo")
    client = api_client(bo)
    key = SoftAuthenticator()
    options = client.post("/api/v1/me/passkeys/options", {"password": PASSWORD}, format="json").json()["publicKey"]
    assert options["rp"]["id"] == "testserver" and options["user"]["name"] == "bo"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    answer = client.post("/api/v1/me/passkeys", {"credential": key.create(options), "name": "Laptop"}, format="json")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["passkey"]["name"] == "Laptop" and body["passkey"]["last_used_at"] is None
    assert answer["Location"].endswith(f"/api/v1/me/passkeys/{body['passkey']['id']}")
    assert len(body["recovery_codes"]) == 10
    assert client.get("/api/v1/me/factors").json() == {"totp": False, "passkeys": 1, "recovery_codes_left": 10}
    assert [p["name"] for p in client.get("/api/v1/me/passkeys").json()] == ["Laptop"]

    # No username, no password: the passkey names its account.
    options = sign_in_options()
    assert options["userVerification"] == "required" and options["allowCredentials"] == []
    assertion = key.get(options)
    signed = passkey_sign_in(assertion)
    assert signed.status_code == 200, signed.content
    assert me_with(signed.json()["token"]).json()["username"] == "bo"
    assert next(s["how"] for s in client.get("/api/v1/me/sign-ins").json()) == "passkey"
    assert client.get("/api/v1/me/passkeys").json()[0]["last_used_at"] is not None
    # The same answer again finds its challenge spent.
    replayed = passkey_sign_in(assertion)
    assert replayed.status_code == 401 and errors(replayed) == [("passkey_refused", None)]


def test_signing_in_alone_needs_the_person_verified_the_second_step_only_presence(make_user, api_client):
    client = api_client(make_user("bo"))
    touch_only = SoftAuthenticator(verifies=False)
    assert added(client, touch_only).status_code == 201
    refused = passkey_sign_in(touch_only.get(sign_in_options()))
    assert refused.status_code == 401 and errors(refused) == [("passkey_refused", None)]
    # The password signs in no more alone; with the touch of the key it does.
    alone = password_sign_in("bo")
    assert alone.status_code == 401 and errors(alone) == [("second_factor_required", None)]
    second = sign_in_options(second_step=True)
    # A key that cannot verify its person (no PIN) is asked only for presence.
    assert second["userVerification"] == "discouraged"
    step = touch_only.get(second)
    assert password_sign_in("bo", passkey=step).status_code == 200
    again = password_sign_in("bo", passkey=step)
    assert again.status_code == 401 and errors(again) == [("wrong_second_factor", None)]


def test_another_accounts_passkey_is_no_second_step(make_user, api_client):
    mine, theirs = SoftAuthenticator(), SoftAuthenticator()
    added(api_client(make_user("bo")), mine)
    added(api_client(make_user("cy")), theirs)
    wrong = password_sign_in("bo", passkey=theirs.get(sign_in_options(second_step=True)))
    assert wrong.status_code == 401 and errors(wrong) == [("wrong_second_factor", None)]
    # A sign-in ceremony's answer, its person verified, is more than a second step needs.
    assert password_sign_in("bo", passkey=mine.get(sign_in_options())).status_code == 200
    # A second step's answer signs nobody in alone.
    alone = passkey_sign_in(mine.get(sign_in_options(second_step=True)))
    assert alone.status_code == 401 and errors(alone) == [("passkey_refused", None)]


def test_answers_from_another_site_a_cloned_key_or_too_late_are_refused(make_user, api_client):
    client = api_client(make_user("bo"))
    key = SoftAuthenticator()
    options = client.post("/api/v1/me/passkeys/options", {"password": PASSWORD}, format="json").json()["publicKey"]
    phished = client.post(
        "/api/v1/me/passkeys",
        {"credential": key.create(options, origin="https://evil.example")},
        format="json",
    )
    assert phished.status_code == 400 and errors(phished) == [("bad_passkey_answer", "credential")]
    assert added(client, key).status_code == 201
    assert passkey_sign_in(key.get(sign_in_options(), origin="https://evil.example")).status_code == 401
    # A counter that goes back is a copy of the key.
    first = key.get(sign_in_options())
    key.credentials[-1].sign_count = 0
    cloned = key.get(sign_in_options())
    assert passkey_sign_in(first).status_code == 200
    assert passkey_sign_in(cloned).status_code == 401
    # A ceremony outlives WEBAUTHN_CEREMONY_SECONDS by nothing.
    options = sign_in_options()
    with time_machine.travel(timezone.now() + timedelta(seconds=301)):
        late = passkey_sign_in(key.get(options))
    assert late.status_code == 401 and errors(late) == [("passkey_refused", None)]


def test_a_synced_passkey_without_a_counter_signs_in_each_time(make_user, api_client):
    key = SoftAuthenticator(counts=False)
    added(api_client(make_user("bo")), key)
    for _ in range(3):
        assert passkey_sign_in(key.get(sign_in_options())).status_code == 200


def test_adding_asks_the_password_and_a_fresh_ceremony_of_ones_own(make_user, api_client):
    bo, cy = api_client(make_user("bo")), api_client(make_user("cy"))
    wrong = bo.post("/api/v1/me/passkeys/options", {"password": "nope"}, format="json")
    assert wrong.status_code == 400 and errors(wrong) == [("wrong_password", "password")]
    key = SoftAuthenticator()
    options = bo.post("/api/v1/me/passkeys/options", {"password": PASSWORD}, format="json").json()["publicKey"]
    made = key.create(options)
    # Cy cannot keep the passkey Bo's ceremony made; Bo can, once.
    stolen = cy.post("/api/v1/me/passkeys", {"credential": made}, format="json")
    assert stolen.status_code == 400 and errors(stolen) == [("bad_passkey_answer", "credential")]
    assert bo.post("/api/v1/me/passkeys", {"credential": made}, format="json").status_code == 201
    twice = bo.post("/api/v1/me/passkeys", {"credential": made}, format="json")
    assert twice.status_code == 400 and errors(twice) == [("bad_passkey_answer", "credential")]
    assert Passkey.objects.count() == 1
    # The same authenticator is excluded from adding itself again.
    options = bo.post("/api/v1/me/passkeys/options", {"password": PASSWORD}, format="json").json()["publicKey"]
    assert len(options["excludeCredentials"]) == 1
    # A second passkey brings no new recovery codes.
    second = added(bo, SoftAuthenticator(), name="")
    assert second.status_code == 201 and second.json()["recovery_codes"] == []
    assert second.json()["passkey"]["name"] == "Passkey"


def test_renamed_and_removed_with_the_password(make_user, api_client):
    client = api_client(make_user("bo"))
    key = SoftAuthenticator()
    passkey_id = added(client, key).json()["passkey"]["id"]
    renamed = client.patch(f"/api/v1/me/passkeys/{passkey_id}", {"name": "Phone"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Phone"
    wrong = client.post(f"/api/v1/me/passkeys/{passkey_id}/remove", {"password": "nope"}, format="json")
    assert wrong.status_code == 400 and errors(wrong) == [("wrong_password", "password")]
    other = api_client(make_user("cy"))
    assert (
        other.post(f"/api/v1/me/passkeys/{passkey_id}/remove", {"password": PASSWORD}, format="json").status_code == 404
    )
    assert other.patch(f"/api/v1/me/passkeys/{passkey_id}", {"name": "x"}, format="json").status_code == 404
    gone = client.post(f"/api/v1/me/passkeys/{passkey_id}/remove", {"password": PASSWORD}, format="json")
    assert gone.status_code == 204
    # With the last factor the recovery codes go, and the password alone signs in again.
    assert client.get("/api/v1/me/factors").json() == {"totp": False, "passkeys": 0, "recovery_codes_left": 0}
    assert password_sign_in("bo").status_code == 200
    assert passkey_sign_in(key.get(sign_in_options())).status_code == 401


def test_a_recovery_code_stands_in_for_a_lost_passkey(make_user, api_client):
    codes = added(api_client(make_user("bo")), SoftAuthenticator()).json()["recovery_codes"]
    assert password_sign_in("bo", code=codes[0]).status_code == 200
    assert password_sign_in("bo", code=codes[0]).status_code == 401


def test_banned_closed_and_erased_accounts(make_user, api_client, settings):
    from accounts.models import User

    bo = make_user("bo")
    key = SoftAuthenticator()
    added(api_client(bo), key)
    User.objects.filter(pk=bo.pk).update(banned_at=timezone.now(), ban_reason="cheating")
    refused = passkey_sign_in(key.get(sign_in_options()))
    assert refused.status_code == 401 and errors(refused)[0][0] == "banned"
    User.objects.filter(pk=bo.pk).update(banned_at=None, ban_reason="")
    closed = api_client(bo).post("/api/v1/me/close", {"password": PASSWORD}, format="json")
    assert closed.status_code == 200, closed.content
    # Within the grace period the passkey restores the account, as the password does.
    restored = passkey_sign_in(key.get(sign_in_options()))
    assert restored.status_code == 200
    assert User.objects.get(pk=bo.pk).closed_at is None


def test_guests_and_apps_cannot_touch_them(make_user, api_client):
    guest = APIClient()
    token = guest.post("/api/v1/auth/guest", {"display_name": "G"}, format="json").json()["token"]
    guest.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    answer = guest.post("/api/v1/me/passkeys/options", {"password": ""}, format="json")
    assert answer.status_code == 409 and errors(answer) == [("no_password", None)]
    bo = make_user("bo")
    secret = api_client(bo).post("/api/v1/me/tokens", {"name": "b", "scopes": ["read", "play"]}, format="json")
    app = APIClient()
    app.credentials(HTTP_AUTHORIZATION=f"Bearer {secret.json()['token']}")
    assert app.get("/api/v1/me/passkeys").status_code == 403
    assert app.post("/api/v1/me/passkeys/options", {"password": PASSWORD}, format="json").status_code == 403


def test_garbled_answers_get_a_clear_refusal(make_user, api_client):
    client = api_client(make_user("bo"))
    key = SoftAuthenticator()
    added(client, key)
    good = key.get(sign_in_options())
    for bad in (
        {},
        {"id": 5, "rawId": 5, "type": "public-key", "response": {}},
        {**good, "type": "password"},
        {**good, "response": {**good["response"], "clientDataJSON": "not base64!"}},
        {**good, "response": {**good["response"], "clientDataJSON": b64(b"not json")}},
        {**good, "response": {**good["response"], "authenticatorData": b64(b"\x00" * 10)}},
        {**good, "response": {**good["response"], "signature": b64(b"\x00" * 70)}},
    ):
        answer = passkey_sign_in(bad)
        assert answer.status_code in (400, 401), (bad, answer.content)
        assert errors(answer)[0][0] in {"required", "invalid", "invalid_choice", "passkey_refused"}, answer.content
    # A garbled copy that reached the check spent the ceremony (an answer gets one try),
    # and changed nothing of the passkey.
    assert passkey_sign_in(good).status_code == 401
    assert not PasskeyCeremony.objects.exists()
    assert Passkey.objects.get().sign_count == 0 and Passkey.objects.get().last_used_at is None
    assert passkey_sign_in(key.get(sign_in_options())).status_code == 200


def test_no_changed_byte_of_an_answer_signs_in(make_user, api_client):
    key = SoftAuthenticator()
    added(api_client(make_user("bo")), key)

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(
        field=st.sampled_from(("clientDataJSON", "authenticatorData", "signature", "userHandle")),
        flip=st.integers(min_value=0, max_value=4000),
        bit=st.integers(min_value=0, max_value=7),
    )
    def flipped(field: str, flip: int, bit: int) -> None:
        good = key.get(sign_in_options())
        raw = bytearray(unb64(good["response"][field]))
        raw[flip % len(raw)] ^= 1 << bit
        bad = copy.deepcopy(good)
        bad["response"][field] = b64(bytes(raw))
        answer = passkey_sign_in(bad)
        assert answer.status_code == 401 and errors(answer) == [("passkey_refused", None)], answer.content

    flipped()


@pytest.mark.parametrize("path", ["/admin/login/", "/oauth/login/"])
def test_form_sign_ins_take_a_passkey_as_the_second_step(client, make_user, api_client, path, settings):
    settings.ADMIN_SECOND_FACTOR_REQUIRED = True
    mod = make_user("mod", is_staff=True, is_superuser=True)
    key = SoftAuthenticator()
    added(api_client(mod), key)
    page = client.post(path, {"username": "mod", "password": PASSWORD, "passkey": "{not json"})
    assert page.status_code == 200 and "_auth_user_id" not in client.session
    answer = json.dumps(key.get(sign_in_options(second_step=True)))
    assert client.post(path, {"username": "mod", "password": PASSWORD, "passkey": answer}).status_code == 302
    assert client.session["_auth_user_id"] == str(mod.pk)


def test_the_authenticator_app_goes_the_passkeys_recovery_codes_stay(make_user, api_client):
    import pyotp

    client = api_client(make_user("bo"))
    added(client, SoftAuthenticator())
    secret = client.post("/api/v1/me/factors/totp", {"password": PASSWORD}, format="json").json()["secret"]
    codes = client.post("/api/v1/me/factors/totp/confirm", {"code": pyotp.TOTP(secret).now()}, format="json").json()[
        "recovery_codes"
    ]
    off = client.post("/api/v1/me/factors/totp/off", {"password": PASSWORD}, format="json")
    assert off.json() == {"totp": False, "passkeys": 1, "recovery_codes_left": 10}
    assert password_sign_in("bo").status_code == 401
    assert password_sign_in("bo", code=codes[0]).status_code == 200
