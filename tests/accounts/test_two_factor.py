"""Two-step sign-in: an authenticator app's codes after the password, recovery codes for
a lost phone, asked by `auth/token` and by every form sign-in (an app's authorize page,
the admin), turned on and off by the person alone with their password."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pyotp
import pytest
import time_machine
from django.utils import timezone
from rest_framework.test import APIClient

from tests.api.helpers import errors

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-9"


def sign_in(username: str, code: str | None = None) -> Any:
    body = {"username": username, "password": PASSWORD} | ({"code": code} if code is not None else {})
    return APIClient().post("/api/v1/auth/token", body, format="json")


def turned_on(client: Any) -> tuple[str, list[str]]:
    """Two-step sign-in turned on from `client`; the app's secret and the recovery codes."""
    begun = client.post("/api/v1/me/factors/totp", {"password": PASSWORD}, format="json")
    assert begun.status_code == 200, begun.content
    secret = begun.json()["secret"]
    assert begun.json()["otpauth_uri"].startswith("otpauth://totp/") and secret in begun.json()["otpauth_uri"]
    assert begun.json()["qr_svg_data_uri"].startswith("data:image/svg+xml")
    confirmed = client.post("/api/v1/me/factors/totp/confirm", {"code": pyotp.TOTP(secret).now()}, format="json")
    assert confirmed.status_code == 200, confirmed.content
    return secret, confirmed.json()["recovery_codes"]


def test_signing_in_takes_the_apps_code_of_now_once(make_user, api_client):
    make_user("ana")
    client = api_client(make_user("bo"))
    secret, codes = turned_on(client)
    assert len(codes) == len(set(codes)) == 10
    assert client.get("/api/v1/me/factors").json() == {"totp": True, "passkeys": 0, "recovery_codes_left": 10}
    # The password alone no longer signs in; a wrong code neither; each counts as a failure.
    missing = sign_in("bo")
    assert missing.status_code == 401 and errors(missing) == [("second_factor_required", None)]
    assert missing["WWW-Authenticate"] == "Token"
    wrong = sign_in("bo", "000000" if pyotp.TOTP(secret).now() != "000000" else "111111")
    assert wrong.status_code == 401 and errors(wrong) == [("wrong_second_factor", None)]
    # The next step's code works (the one that confirmed the app is used), once.
    with time_machine.travel(timezone.now() + timedelta(seconds=31), tick=False):
        code = pyotp.TOTP(secret).now()
        assert sign_in("bo", code).status_code == 200
        replayed = sign_in("bo", code)
    assert replayed.status_code == 401 and errors(replayed) == [("wrong_second_factor", None)]
    # Another account is untouched.
    assert sign_in("ana").status_code == 200


def test_a_recovery_code_signs_in_once_and_new_ones_retire_the_old(make_user, api_client):
    client = api_client(make_user("bo"))
    _, codes = turned_on(client)
    assert sign_in("bo", codes[0].upper()).status_code == 200
    assert sign_in("bo", codes[0]).status_code == 401
    assert client.get("/api/v1/me/factors").json()["recovery_codes_left"] == 9
    wrong = client.post("/api/v1/me/factors/recovery-codes", {"password": "nope"}, format="json")
    assert wrong.status_code == 400 and errors(wrong) == [("wrong_password", "password")]
    renewed = client.post("/api/v1/me/factors/recovery-codes", {"password": PASSWORD}, format="json").json()
    assert sign_in("bo", codes[1]).status_code == 401
    assert sign_in("bo", renewed["recovery_codes"][1]).status_code == 200


def test_turning_it_on_asks_the_password_and_a_right_code(make_user, api_client):
    client = api_client(make_user("bo"))
    wrong = client.post("/api/v1/me/factors/totp", {"password": "nope"}, format="json")
    assert wrong.status_code == 400 and errors(wrong) == [("wrong_password", "password")]
    unstarted = client.post("/api/v1/me/factors/totp/confirm", {"code": "123456"}, format="json")
    assert unstarted.status_code == 409 and errors(unstarted) == [("no_totp_setup", None)]
    secret = client.post("/api/v1/me/factors/totp", {"password": PASSWORD}, format="json").json()["secret"]
    for bad in ("abcdef", "12345", pyotp.TOTP(secret).at(timezone.now() - timedelta(minutes=5))):
        answer = client.post("/api/v1/me/factors/totp/confirm", {"code": bad}, format="json")
        assert answer.status_code == 400 and errors(answer) == [("wrong_code", "code")], bad
    # Not in force before it is confirmed.
    assert sign_in("bo").status_code == 200
    client.post("/api/v1/me/factors/totp/confirm", {"code": pyotp.TOTP(secret).now()}, format="json")
    again = client.post("/api/v1/me/factors/totp", {"password": PASSWORD}, format="json")
    assert again.status_code == 409 and errors(again) == [("totp_on_already", None)]
    off = client.post("/api/v1/me/factors/totp/off", {"password": PASSWORD}, format="json")
    assert off.status_code == 200 and off.json() == {"totp": False, "passkeys": 0, "recovery_codes_left": 0}
    assert sign_in("bo").status_code == 200
    renew = client.post("/api/v1/me/factors/recovery-codes", {"password": PASSWORD}, format="json")
    assert renew.status_code == 409 and errors(renew) == [("totp_off", None)]


def test_guests_and_apps_cannot_touch_it(make_user, api_client):
    guest = APIClient()
    guest.credentials(
        HTTP_AUTHORIZATION="Token "
        + guest.post("/api/v1/auth/guest", {"display_name": "G"}, format="json").json()["token"]
    )
    answer = guest.post("/api/v1/me/factors/totp", {"password": ""}, format="json")
    assert answer.status_code == 409 and errors(answer) == [("no_password", None)]
    bo = make_user("bo")
    secret = api_client(bo).post("/api/v1/me/tokens", {"name": "b", "scopes": ["read", "play"]}, format="json")
    app = APIClient()
    app.credentials(HTTP_AUTHORIZATION=f"Bearer {secret.json()['token']}")
    assert app.get("/api/v1/me/factors").status_code == 403
    assert app.post("/api/v1/me/factors/totp/off", {"password": PASSWORD}, format="json").status_code == 403


@pytest.mark.parametrize("path", ["/admin/login/", "/oauth/login/"])
def test_form_sign_ins_ask_the_code_too(client, make_user, api_client, path):
    bo = make_user("bo", is_staff=True, is_superuser=True)
    _, codes = turned_on(api_client(bo))
    page = client.post(path, {"username": "bo", "password": PASSWORD})
    assert page.status_code == 200 and "two steps" in page.content.decode()
    assert "_auth_user_id" not in client.session
    page = client.post(path, {"username": "bo", "password": PASSWORD, "code": "000000"})
    assert "_auth_user_id" not in client.session
    assert client.post(path, {"username": "bo", "password": PASSWORD, "code": codes[0]}).status_code == 302
    assert client.session["_auth_user_id"] == str(bo.pk)


def test_staff_need_two_steps_when_the_setting_asks(client, make_user, api_client, settings):
    settings.ADMIN_SECOND_FACTOR_REQUIRED = True
    make_user("mod", is_staff=True)
    page = client.post("/admin/login/", {"username": "mod", "password": PASSWORD})
    assert "turn on two-step sign-in" in page.content.decode() and "_auth_user_id" not in client.session
    page = client.post("/oauth/login/", {"username": "mod", "password": PASSWORD})
    assert "_auth_user_id" not in client.session
    # Players are not staff: the setting asks nothing of them.
    make_user("player")
    assert client.post("/oauth/login/", {"username": "player", "password": PASSWORD}).status_code == 302
