"""`GET state` signed in by an account token reads the token with the table, in one
statement (api/table_auth.py); every other way in, and every refusal, is as before."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient
from rest_framework.throttling import UserRateThrottle

from tests.tokens import account_token

from .helpers import act, error_code, state

pytestmark = pytest.mark.django_db


def _bearer(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


def _without_time(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("server_time", "now")}


def test_a_token_state_call_is_one_statement(hearts_table, django_assert_num_queries):
    code, clients, _ = hearts_table()
    with django_assert_num_queries(1):
        answer = clients[0].get(f"/api/v1/rooms/{code}/state")
    assert answer.status_code == 200
    assert answer.json()["you"]["seat"] == 0


def test_every_way_in_sees_the_same_view(hearts_table):
    code, clients, users = hearts_table()
    by_token = clients[1].get(f"/api/v1/rooms/{code}/state")
    by_bearer = _bearer(account_token(users[1])).get(f"/api/v1/rooms/{code}/state")
    session = APIClient()
    session.force_login(users[1])
    by_session = session.get(f"/api/v1/rooms/{code}/state")
    assert by_token.status_code == by_bearer.status_code == by_session.status_code == 200
    assert _without_time(by_token.json()) == _without_time(by_bearer.json()) == _without_time(by_session.json())
    assert by_token["ETag"] == by_bearer["ETag"] == by_session["ETag"]
    assert by_token.json()["you"]["hand"] and by_token.json()["you"]["seat"] == 1


def test_an_unknown_token_is_refused_before_the_room_is_looked_up(hearts_table):
    code, _, _ = hearts_table()
    for path in (f"/api/v1/rooms/{code}/state", "/api/v1/rooms/ZZZZZZ/state"):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
        answer = client.get(path)
        assert answer.status_code == 401
        assert answer["WWW-Authenticate"] == "Token"
        assert error_code(answer) == "authentication_failed"


def test_a_good_token_and_no_room_is_404(make_user, api_client):
    answer = api_client(make_user()).get("/api/v1/rooms/ZZZZZZ/state")
    assert answer.status_code == 404
    assert error_code(answer) == "not_found"


def test_a_banned_accounts_token_is_refused_on_state_and_move(hearts_table, make_user):
    from moderation.services import user_ban

    code, clients, users = hearts_table()
    view = state(clients[2], code)
    user_ban(moderator=make_user(is_staff=True, is_superuser=True), user=users[2], reason="cheating")
    for answer in (clients[2].get(f"/api/v1/rooms/{code}/state"), act(clients[2], code, view["version"], {})):
        assert answer.status_code == 401
        assert error_code(answer) == "banned"
        assert "cheating" in answer.json()["errors"][0]["detail"]
        assert "banned" in answer.cookies  # the browser is marked, as on every call


def test_a_banned_account_whose_token_survived_is_refused_with_its_reason(hearts_table):
    """Should a token outlive its account's ban (written by hand), the state call's joint
    read still refuses it as every call does."""
    code, clients, users = hearts_table()
    users[3].is_active, users[3].banned_at, users[3].ban_reason = False, timezone.now(), "spam"
    users[3].save()
    answer = clients[3].get(f"/api/v1/rooms/{code}/state")
    assert answer.status_code == 401
    assert error_code(answer) == "banned"
    assert "spam" in answer.json()["errors"][0]["detail"]


def test_an_inactive_accounts_token_is_refused(hearts_table):
    code, clients, users = hearts_table()
    users[1].is_active = False
    users[1].save()
    answer = clients[1].get(f"/api/v1/rooms/{code}/state")
    assert answer.status_code == 401
    assert answer.json()["errors"][0]["detail"] == "User inactive or deleted."


def test_the_rate_limit_counts_the_tokens_account(hearts_table, monkeypatch):
    code, clients, _ = hearts_table()
    cache.clear()
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {**UserRateThrottle.THROTTLE_RATES, "user": "3/min"})
    answers = [clients[0].get(f"/api/v1/rooms/{code}/state") for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    # Another player has a counter of their own.
    assert clients[1].get(f"/api/v1/rooms/{code}/state").status_code == 200
    cache.clear()


def test_a_personal_token_needs_its_read_scope(hearts_table):
    code, clients, _ = hearts_table()
    made = clients[0].post("/api/v1/me/tokens", {"name": "bot", "scopes": ["play"]}, format="json").json()
    refused = _bearer(made["token"]).get(f"/api/v1/rooms/{code}/state")
    assert refused.status_code == 403
    assert error_code(refused) == "insufficient_scope"
    made = clients[0].post("/api/v1/me/tokens", {"name": "reader", "scopes": ["read"]}, format="json").json()
    allowed = _bearer(made["token"]).get(f"/api/v1/rooms/{code}/state")
    assert allowed.status_code == 200
    assert allowed.json()["you"]["seat"] == 0
