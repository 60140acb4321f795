import pytest

from .helpers import error_code

pytestmark = pytest.mark.django_db


def test_register_returns_user_and_working_token(api_client):
    res = api_client().post("/api/v1/auth/register", {"username": "alice", "password": "s3cret-enough"}, format="json")
    assert res.status_code == 201
    body = res.json()
    assert body["user"]["username"] == "alice"
    me = api_client().get("/api/v1/me", HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert me.status_code == 200 and me.json()["username"] == "alice"


def test_register_refuses_taken_name_and_weak_password(api_client, make_user):
    make_user("bob")
    taken = api_client().post("/api/v1/auth/register", {"username": "BOB", "password": "s3cret-enough"}, format="json")
    assert taken.status_code == 400
    assert taken.json()["type"] == "validation_error"
    assert taken.json()["errors"][0] == {
        "code": "username_taken",
        "detail": "That username is taken.",
        "attr": "username",
    }
    weak = api_client().post("/api/v1/auth/register", {"username": "carol", "password": "12345678"}, format="json")
    assert weak.status_code == 400 and weak.json()["errors"][0]["attr"] == "password"


def test_token_login_and_wrong_password(api_client, make_user):
    make_user("dave")
    ok = api_client().post("/api/v1/auth/token", {"username": "dave", "password": "correct-horse-9"}, format="json")
    assert ok.status_code == 200 and len(ok.json()["token"]) == 40
    bad = api_client().post("/api/v1/auth/token", {"username": "dave", "password": "nope-nope-1"}, format="json")
    assert bad.status_code == 401
    assert error_code(bad) == "authentication_failed"


def test_guest_account_from_display_name(api_client):
    res = api_client().post("/api/v1/auth/guest", {"display_name": "Priya"}, format="json")
    assert res.status_code == 201
    user = res.json()["user"]
    assert user["is_guest"] is True and user["display_name"] == "Priya"
    empty = api_client().post("/api/v1/auth/guest", {"display_name": ""}, format="json")
    assert empty.status_code == 400


def test_logout_revokes_token(api_client, make_user):
    user = make_user()
    client = api_client(user)
    assert client.post("/api/v1/auth/logout").status_code == 204
    res = client.get("/api/v1/me")
    assert res.status_code == 401
    assert error_code(res) == "authentication_failed"


def test_unauthenticated_gets_401_in_error_shape(api_client):
    res = api_client().get("/api/v1/rooms/")
    assert res.status_code == 401
    assert res.json() == {
        "type": "client_error",
        "errors": [
            {"code": "not_authenticated", "detail": "Authentication credentials were not provided.", "attr": None}
        ],
    }


def test_malformed_json_is_parse_error(api_client):
    res = api_client().post("/api/v1/auth/register", data="{nope", content_type="application/json")
    assert res.status_code == 400
    assert error_code(res) == "parse_error"
