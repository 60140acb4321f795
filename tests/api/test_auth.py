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


def test_a_password_weak_for_several_reasons_is_refused_with_each(api_client):
    res = api_client().post("/api/v1/auth/register", {"username": "carol", "password": "12345678"}, format="json")
    assert res.status_code == 400 and res.json()["type"] == "validation_error"
    assert res.json()["errors"] == [
        {"code": "weak_password", "detail": "This password is too common.", "attr": "password"},
        {"code": "weak_password", "detail": "This password is entirely numeric.", "attr": "password"},
    ]


def test_token_login_and_wrong_password(api_client, make_user):
    dave = make_user("dave")
    assert dave.last_login is None
    ok = api_client().post("/api/v1/auth/token", {"username": "dave", "password": "correct-horse-9"}, format="json")
    assert ok.status_code == 200 and len(ok.json()["token"]) == 40
    # A sign-in through the API is the account's last login, as the admin shows it.
    dave.refresh_from_db()
    signed_in = dave.last_login
    assert signed_in is not None
    bad = api_client().post("/api/v1/auth/token", {"username": "dave", "password": "nope-nope-1"}, format="json")
    assert bad.status_code == 401
    assert error_code(bad) == "authentication_failed"
    dave.refresh_from_db()
    assert dave.last_login == signed_in


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


def _register(client, username, display_name=None):
    body = {"username": username, "password": "s3cret-enough"}
    if display_name is not None:
        body["display_name"] = display_name
    return client.post("/api/v1/auth/register", body, format="json")


CYRILLIC_A = "\u0430"


@pytest.mark.parametrize(
    ("second", "code"),
    [
        ("ADMIN", "username_taken"),
        ("\uff41\uff44\uff4d\uff49\uff4e", "username_taken"),  # fullwidth: NFKC makes it admin
        (f"{CYRILLIC_A}dmin", "username_confusable"),
        (f"{CYRILLIC_A.upper()}dmin", "username_confusable"),
    ],
)
def test_names_that_read_as_an_existing_one_are_refused(api_client, second, code):
    client = api_client()
    assert _register(client, "admin").status_code == 201
    res = _register(client, second)
    assert res.status_code == 400, res.content
    assert res.json()["errors"][0] == {"code": code, "detail": res.json()["errors"][0]["detail"], "attr": "username"}


def test_the_lookalike_registered_first_blocks_the_plain_name_too(api_client):
    client = api_client()
    assert _register(client, f"{CYRILLIC_A}dmin").status_code == 201
    assert error_code(_register(client, "admin")) == "username_confusable"


def test_usernames_are_stored_in_nfkc_and_sign_in_ignores_case(api_client):
    client = api_client()
    res = _register(client, "\uff21lice")  # a fullwidth A
    assert res.status_code == 201 and res.json()["user"]["username"] == "Alice"
    for typed in ("Alice", "alice", "ALICE", "\uff21lice"):
        login = client.post("/api/v1/auth/token", {"username": typed, "password": "s3cret-enough"}, format="json")
        assert login.status_code == 200, typed


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("display_name", "Bob\u202egnp.exe", "bidi_control"),
        ("display_name", "\u2067Bob", "bidi_control"),
        ("display_name", "Computer 2", "reserved_name"),
        ("display_name", "COMPUTER-3", "reserved_name"),
        ("display_name", "C\u043emputer 4", "reserved_name"),  # a Cyrillic o
        ("display_name", "Seat 1", "reserved_name"),
        ("display_name", "You", "reserved_name"),
        ("username", "computer_2", "reserved_name"),  # shown as the name when there is no display name
        ("username", "guest-123", "reserved_name"),
    ],
)
def test_misleading_names_are_refused(api_client, field, value, code):
    body = {"username": "carol", "password": "s3cret-enough", field: value}
    res = api_client().post("/api/v1/auth/register", body, format="json")
    assert res.status_code == 400, res.content
    error = res.json()["errors"][0]
    assert (error["code"], error["attr"]) == (code, field)


def test_a_guest_may_not_pose_as_a_computer_player_or_reverse_text(api_client):
    client = api_client()
    for name, code in (("Computer 1", "reserved_name"), ("eve\u202e", "bidi_control")):
        res = client.post("/api/v1/auth/guest", {"display_name": name}, format="json")
        assert res.status_code == 400 and error_code(res) == code
    for fine in ("Computer fan", "Youssef", "Seattle"):
        assert client.post("/api/v1/auth/guest", {"display_name": fine}, format="json").status_code == 201


def test_two_sign_ups_of_one_name_at_once_cannot_both_win(make_user):
    # The serializer's check passed for both; the unique key refuses the second row.
    from accounts.services import registration
    from core.errors import ServiceError

    make_user("dora")
    with pytest.raises(ServiceError) as refused:
        registration.user_register(username="DORA", password="s3cret-enough")
    assert (refused.value.code, refused.value.attr, refused.value.status) == ("username_taken", "username", 400)


def test_a_name_taken_between_the_check_and_the_insert_answers_400(api_client, make_user, monkeypatch):
    from accounts import selectors

    make_user("erin")
    monkeypatch.setattr(selectors, "username_clash", lambda **_: None)  # as when both checked at once
    res = _register(api_client(), "Erin")
    assert res.status_code == 400
    assert res.json()["errors"] == [{"code": "username_taken", "detail": "That username is taken.", "attr": "username"}]


def test_the_account_token_is_read_as_a_bearer_too_and_revoked_alike(api_client):
    # Generated clients send the document's scheme, `Bearer`; the web client sends `Token`.
    token = api_client().post("/api/v1/auth/guest", {"display_name": "Bea"}, format="json").json()["token"]
    for header in (f"Bearer {token}", f"Token {token}"):
        me = api_client().get("/api/v1/me", HTTP_AUTHORIZATION=header)
        assert me.status_code == 200 and me.json()["display_name"] == "Bea", header
    made = api_client().post("/api/v1/rooms/", {"game": "hearts"}, format="json", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert made.status_code == 201
    assert api_client().post("/api/v1/auth/logout", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 204
    for header in (f"Bearer {token}", f"Token {token}"):
        res = api_client().get("/api/v1/me", HTTP_AUTHORIZATION=header)
        assert res.status_code == 401 and error_code(res) == "authentication_failed", header
