"""A browser frontend on another site uses the API when `CORS_ALLOWED_ORIGINS` lists its
origin: the preflight allows the headers it sends (the token's Authorization, an
Idempotency-Key), answers name the origin and let its script read the headers it acts on.
An origin not listed gets none of that, and the browser then keeps the answers from it."""

from __future__ import annotations

import pytest
from django.test import override_settings

from games.services import lobby
from tests.tokens import new_token

pytestmark = pytest.mark.django_db

FRONTEND = "https://frontend.example"
ALLOW = override_settings(CORS_ALLOWED_ORIGINS=[FRONTEND])


def listed(header: str) -> set[str]:
    return {name.strip().lower() for name in header.split(",")}


def preflight(client, path: str, origin: str):
    return client.options(
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
        },
    )


@ALLOW
def test_a_preflight_from_an_allowed_origin_allows_the_apis_headers(client, make_user):
    room = lobby.room_create(host=make_user(), game="hearts", options={})
    answer = preflight(client, f"/api/v1/rooms/{room.code}/actions", FRONTEND)
    assert answer.status_code == 200
    assert answer["Access-Control-Allow-Origin"] == FRONTEND
    assert {"authorization", "content-type", "idempotency-key"} <= listed(answer["Access-Control-Allow-Headers"])
    assert "post" in listed(answer["Access-Control-Allow-Methods"])
    # A frontend signs in with a token: the site's cookies are never lent to it.
    assert "Access-Control-Allow-Credentials" not in answer


@ALLOW
def test_answers_to_an_allowed_origin_name_it_and_expose_what_clients_act_on(client, make_user):
    token = new_token(make_user())
    answer = client.post(
        "/api/v1/rooms/",
        {"game": "hearts"},
        content_type="application/json",
        headers={"Origin": FRONTEND, "Authorization": f"Token {token}"},
    )
    assert answer.status_code == 201, answer.content
    assert answer["Access-Control-Allow-Origin"] == FRONTEND
    assert {"retry-after", "www-authenticate", "link"} <= listed(answer["Access-Control-Expose-Headers"])
    # Errors too, so that the frontend can read why it was refused.
    refused = client.get("/api/v1/me/turns", headers={"Origin": FRONTEND, "Authorization": "Token not-a-token"})
    assert refused.status_code == 401
    assert refused["Access-Control-Allow-Origin"] == FRONTEND


@ALLOW
def test_an_origin_not_allowed_gets_no_cors_headers(client, make_user):
    room = lobby.room_create(host=make_user(), game="hearts", options={})
    for origin in ("https://elsewhere.example", FRONTEND + ":8443", "http://frontend.example"):
        answer = preflight(client, f"/api/v1/rooms/{room.code}/actions", origin)
        assert "Access-Control-Allow-Origin" not in answer
        assert "Access-Control-Allow-Headers" not in answer
        answer = client.get("/api/v1/games/", headers={"Origin": origin})
        assert answer.status_code == 200
        assert "Access-Control-Allow-Origin" not in answer


def test_by_default_no_origin_is_allowed(client):
    answer = client.get("/api/v1/games/", headers={"Origin": FRONTEND})
    assert "Access-Control-Allow-Origin" not in answer


@ALLOW
def test_the_web_clients_pages_are_not_shared(client):
    # CORS covers the API alone; the site's own pages are for its own origin.
    answer = client.get("/", headers={"Origin": FRONTEND})
    assert "Access-Control-Allow-Origin" not in answer


@ALLOW
def test_a_poll_from_an_allowed_origin_may_name_its_tag_and_read_the_new_one(client, make_user):
    user = make_user()
    token = new_token(user)
    room = lobby.room_create(host=user, game="hearts", options={})
    path = f"/api/v1/rooms/{room.code}/state"
    allowed = client.options(
        path,
        headers={
            "Origin": FRONTEND,
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "authorization, if-none-match",
        },
    )
    assert allowed.status_code == 200
    assert {"authorization", "if-none-match"} <= listed(allowed["Access-Control-Allow-Headers"])
    answer = client.get(path, headers={"Origin": FRONTEND, "Authorization": f"Token {token}"})
    assert answer.status_code == 200
    assert "etag" in listed(answer["Access-Control-Expose-Headers"])
    held = client.get(
        path, headers={"Origin": FRONTEND, "Authorization": f"Token {token}", "If-None-Match": answer["ETag"]}
    )
    assert held.status_code == 304
    assert held["Access-Control-Allow-Origin"] == FRONTEND
    assert "etag" in listed(held["Access-Control-Expose-Headers"])
