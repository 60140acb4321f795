"""The server refuses what the OpenAPI document does not allow, as the document says."""

import pytest

from .helpers import error_code

pytestmark = pytest.mark.django_db


def _error(res):
    assert res.status_code == 400, res.content
    return res.json()["errors"][0]


def test_text_fields_take_strings_only(api_client, make_user):
    assert _error(api_client().post("/api/v1/auth/guest", {"display_name": 0}, format="json"))["attr"] == (
        "display_name"
    )
    register = {"username": "alice", "password": 12345678901}
    assert _error(api_client().post("/api/v1/auth/register", register, format="json"))["attr"] == "password"
    host = api_client(make_user())
    assert _error(host.post("/api/v1/rooms/", {"game": "hearts", "public": "true"}, format="json"))["attr"] == (
        "public"
    )
    assert host.post("/api/v1/rooms/", {"game": "hearts", "public": False}, format="json").status_code == 201


def test_bodies_refuse_fields_they_do_not_define(api_client, make_user):
    error = _error(api_client().post("/api/v1/auth/guest", {"display_name": "Al", "admin": True}, format="json"))
    assert (error["code"], error["attr"]) == ("invalid", "admin")
    # A name that could be anything is not quoted back.
    res = api_client(make_user()).post("/api/v1/rooms/", {"game": "hearts", "x y": 1}, format="json")
    assert _error(res)["attr"] == "non_field_errors"


def test_the_mine_flag_is_one_of_four_words(api_client, make_user):
    alice = make_user()
    client = api_client(alice)
    code = client.post("/api/v1/rooms/", {"game": "hearts", "public": False}, format="json").json()["code"]
    for word in ("1", "true"):
        assert [r["code"] for r in client.get(f"/api/v1/rooms/?mine={word}").json()["results"]] == [code]
    for word in ("0", "false"):
        assert client.get(f"/api/v1/rooms/?mine={word}").json()["results"] == []
    for word in ("null", "", "yes", "True"):
        error = _error(client.get(f"/api/v1/rooms/?mine={word}"))
        assert (error["code"], error["attr"]) == ("invalid", "mine"), word


def test_pages_are_whole_numbers_from_one(api_client, make_user):
    client = api_client(make_user())
    assert client.get("/api/v1/rooms/?page=1").status_code == 200
    for page in ("", "0", "01", " 1", "last", "1.0"):
        res = client.get("/api/v1/rooms/", {"page": page})
        assert res.status_code == 404, page
        assert error_code(res) == "not_found"
