"""Personal access tokens: a player makes, names, scopes, lists and revokes them; the
secret is shown once and only a digest of it is kept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grants.models import PersonalToken
from tests.yaml_text import read_yaml

pytestmark = pytest.mark.django_db

TOKENS = "/api/v1/me/tokens"
DOCUMENT = read_yaml((Path(__file__).resolve().parents[2] / "api" / "openapi.yaml").read_text())


def documented_codes(path: str, method: str, status: int) -> set[str]:
    """The codes the OpenAPI document says `method path` answers with `status`."""
    return set(DOCUMENT["paths"][path][method]["responses"][str(status)]["x-error-codes"])


def bearer(api_client: Any, secret: str) -> Any:
    client = api_client()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


def make(client: Any, name: str = "my bot", scopes: list[str] | None = None) -> dict[str, Any]:
    answer = client.post(TOKENS, {"name": name, "scopes": scopes or ["read"]}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def test_made_listed_and_the_secret_never_shown_again(make_user, api_client):
    client = api_client(make_user())
    made = make(client, "score bot", ["play", "read"])
    assert made["name"] == "score bot"
    assert made["scopes"] == ["read", "play"]
    assert made["token"].startswith("pat_") and len(made["token"]) > 40
    assert made["last_used_at"] is None
    listed = client.get(TOKENS)
    assert listed.status_code == 200
    assert [t["id"] for t in listed.json()] == [made["id"]]
    assert "token" not in listed.json()[0]
    assert made["token"] not in listed.content.decode()
    stored = PersonalToken.objects.get()
    assert made["token"] not in (stored.digest, stored.name, stored.scope)


def test_a_token_acts_within_its_scopes_and_notes_its_use(make_user, api_client):
    user = make_user()
    secret = make(api_client(user), scopes=["read"])["token"]
    reader = bearer(api_client, secret)
    me = reader.get("/api/v1/me")
    assert me.status_code == 200 and me.json()["username"] == user.username
    refused = reader.post("/api/v1/rooms/", {"game": "hearts"}, format="json")
    assert refused.status_code == 403
    assert refused.json()["errors"][0]["code"] == "insufficient_scope"
    assert PersonalToken.objects.get().last_used_at is not None


def test_revoked_token_answers_401(make_user, api_client):
    client = api_client(make_user())
    made = make(client)
    assert client.delete(f"{TOKENS}/{made['id']}").status_code == 204
    assert client.get(TOKENS).json() == []
    answer = bearer(api_client, made["token"]).get("/api/v1/me")
    assert answer.status_code == 401
    assert answer.json()["errors"][0]["code"] == "authentication_failed"


def test_another_players_token_cannot_be_revoked(make_user, api_client):
    made = make(api_client(make_user()))
    answer = api_client(make_user()).delete(f"{TOKENS}/{made['id']}")
    assert answer.status_code == 404
    assert bearer(api_client, made["token"]).get("/api/v1/me").status_code == 200


def test_a_token_cannot_make_or_revoke_tokens(make_user, api_client):
    made = make(api_client(make_user()), scopes=["read", "play", "notifications"])
    mine = bearer(api_client, made["token"])
    assert mine.post(TOKENS, {"name": "more", "scopes": ["read"]}, format="json").status_code == 403
    assert mine.delete(f"{TOKENS}/{made['id']}").status_code == 403


def test_a_banned_players_tokens_stop(make_user, api_client):
    user = make_user()
    secret = make(api_client(user))["token"]
    user.is_active = False
    user.save()
    assert bearer(api_client, secret).get("/api/v1/me").status_code == 401


def test_anonymous_cannot_list(api_client):
    assert api_client().get(TOKENS).status_code == 401


def test_every_api_view_declares_the_scope_of_every_method():
    """A method left out would be refused to every app's token: declared on purpose only."""
    from django.urls import URLPattern, get_resolver

    from grants.authentication import BearerAuthentication
    from grants.scopes import METHODS

    api = next(p for p in get_resolver().url_patterns if str(p.pattern) == "api/v1/")
    for pattern in api.url_patterns:  # type: ignore[union-attr]
        assert isinstance(pattern, URLPattern)
        view = pattern.callback.view_class  # type: ignore[attr-defined]
        authenticators = [a.__class__ for a in view().get_authenticators()]
        if BearerAuthentication not in authenticators:
            continue  # sign-up and sign-in take no credentials at all
        served = {m for m in METHODS if hasattr(view, m.lower())}
        assert set(getattr(view, "required_scopes", {})) == served, view.__name__


HYPOTHESIS = settings(
    max_examples=100,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=80),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=10,
)
SCOPE_NAMES = st.sampled_from(["read", "play", "notifications", "admin", "", "READ", "read play", "\x00"])
BODIES = st.fixed_dictionaries(
    {},
    optional={
        "name": st.one_of(st.text(max_size=80), JSON),
        "scopes": st.one_of(st.lists(SCOPE_NAMES, max_size=5), JSON),
        "extra": JSON,
    },
)


@HYPOTHESIS
@given(body=st.one_of(BODIES, JSON))
def test_arbitrary_bodies_make_a_working_token_or_change_nothing(api_client, make_user, body):
    user = make_user()
    client = api_client(user)
    answer = client.post(TOKENS, json.dumps(body), content_type="application/json")
    assert answer.status_code < 500, answer.content[:300]
    if answer.status_code == 201:
        made = answer.json()
        assert isinstance(body, dict) and made["name"] == body["name"]
        assert set(made["scopes"]) == set(body["scopes"]) <= {"read", "play", "notifications"}
        assert bearer(api_client, made["token"]).get(TOKENS).status_code == 403  # the player's own page
        return
    assert answer.status_code == 400, answer.content
    assert not PersonalToken.objects.filter(user=user).exists()
    codes = {error["code"] for error in answer.json()["errors"]}
    assert codes and codes <= documented_codes("/api/v1/me/tokens", "post", 400), answer.content


@HYPOTHESIS
@given(token_id=st.one_of(st.integers(min_value=-5, max_value=2**63), st.text(max_size=20)))
def test_arbitrary_token_ids_to_revoke_change_nothing(api_client, make_user, token_id):
    client = api_client(make_user())
    made = make(client)
    answer = client.delete(f"{TOKENS}/{token_id}")
    assert answer.status_code < 500, answer.content[:300]
    if answer.status_code == 204:
        assert str(token_id) == str(made["id"])
    else:
        assert answer.status_code == 404
        assert answer.json()["errors"][0]["code"] in documented_codes("/api/v1/me/tokens/{token_id}", "delete", 404)
        assert PersonalToken.objects.filter(pk=made["id"]).exists()
