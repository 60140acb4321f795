"""Inputs the API used to take loosely, refused through gunicorn in the error shape with
a stable code, and nothing changed by the refusal: time zones that name no place, a
body of `null`, an object naming a key twice, a multipart body with a bad boundary; and
a PATCH that names nothing changes nothing (200)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from .support import Table, assert_error_shape, snapshot, token_client

QUIET = {"start": "22:00", "end": "07:00"}


def settings_of(client: httpx.Client) -> dict[str, Any]:
    res = client.get("/api/v1/me/notifications")
    assert res.status_code == 200, res.text
    return res.json()


def refused(res: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert res.status_code == status, (res.status_code, res.text[:300])
    error = assert_error_shape(res)
    assert error["code"] == code, error
    return error


@pytest.fixture
def player(gunicorn_url: str, transactional_db: Any, make_user: Any) -> httpx.Client:
    return token_client(gunicorn_url, make_user())


@pytest.mark.parametrize("zone", ["localtime", "Factory", "posixrules", "posix/Europe/Paris", "Europe/Nowhere"])
def test_time_zones_that_name_no_place_are_refused(player: httpx.Client, zone: str) -> None:
    before = settings_of(player)
    error = refused(
        player.patch("/api/v1/me/notifications", json={"quiet": {**QUIET, "timezone": zone}}), 400, "bad_time_zone"
    )
    assert error["attr"] == "quiet.timezone"
    assert settings_of(player) == before


@pytest.mark.parametrize("zone", ["Europe/Paris", "America/Argentina/Buenos_Aires", "UTC", "US/Eastern"])
def test_iana_names_are_taken(player: httpx.Client, zone: str) -> None:
    res = player.patch("/api/v1/me/notifications", json={"quiet": {**QUIET, "timezone": zone}})
    assert res.status_code == 200, res.text
    assert res.json()["quiet"]["timezone"] == zone


@pytest.mark.parametrize("path", ["/api/v1/me/notifications", "/api/v1/me"])
def test_a_body_of_null_is_refused(player: httpx.Client, path: str) -> None:
    before = (settings_of(player), player.get("/api/v1/me").json())
    res = player.patch(path, content=b"null", headers={"Content-Type": "application/json"})
    refused(res, 400, "null")
    assert (settings_of(player), player.get("/api/v1/me").json()) == before


def test_a_patch_that_names_nothing_changes_nothing(player: httpx.Client) -> None:
    me = player.get("/api/v1/me").json()
    res = player.patch("/api/v1/me", json={})
    assert res.status_code == 200, res.text
    assert res.json() == me
    assert player.patch("/api/v1/me/notifications", json={}).json() == settings_of(player)


@pytest.mark.parametrize(
    "body",
    [
        '{"push": false, "push": true}',
        '{"push": true, "email": false, "push": true}',
        '{"quiet": {"start": "22:00", "end": "07:00", "timezone": "UTC", "end": "08:00"}}',
    ],
)
def test_a_key_named_twice_is_refused(player: httpx.Client, body: str) -> None:
    before = settings_of(player)
    res = player.patch("/api/v1/me/notifications", content=body, headers={"Content-Type": "application/json"})
    error = refused(res, 400, "duplicate_key")
    assert error["attr"] is None
    assert settings_of(player) == before


def test_a_key_named_twice_in_an_action_is_refused(table: Table) -> None:
    before = snapshot(table.code)
    view = table.clients[0].get(table.path("state")).json()
    cards = json.dumps(view["you"]["hand"][:3])
    body = f'{{"version": {view["version"]}, "action": {{"type": "pass_cards", "cards": {cards}, "cards": []}}}}'
    res = table.clients[0].post(table.path("actions"), content=body, headers={"Content-Type": "application/json"})
    refused(res, 400, "duplicate_key")
    assert snapshot(table.code) == before


@pytest.mark.parametrize(
    "content_type",
    [
        "multipart/form-data",
        "multipart/form-data; boundary=",
        'multipart/form-data; boundary=""',
        "multipart/form-data; boundary=" + "a" * 71,
        "multipart/form-data; boundary=a@b",
        "multipart/form-data; boundary={braces}",
        "multipart/mixed; boundary=<>",
        "Multipart/Form-Data; charset=utf-8",
    ],
)
def test_a_multipart_body_with_a_bad_boundary_answers_400_in_the_shape(table: Table, content_type: str) -> None:
    before = snapshot(table.code)
    for method, path in [("POST", table.path("actions")), ("PATCH", "/api/v1/me"), ("POST", "/api/v1/auth/token")]:
        res = table.clients[0].request(method, path, content=b"--x\r\nfoo\r\n", headers={"Content-Type": content_type})
        error = refused(res, 400, "bad_request")
        assert error["attr"] == "Content-Type"
    assert snapshot(table.code) == before


def test_a_multipart_body_with_a_good_boundary_is_still_not_json(table: Table) -> None:
    res = table.clients[0].post(
        table.path("actions"),
        content=b"--abc\r\n\r\n--abc--\r\n",
        headers={"Content-Type": "multipart/form-data; boundary=abc"},
    )
    refused(res, 415, "unsupported_media_type")
