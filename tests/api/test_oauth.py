"""Apps act for players without their password: the authorization code flow with PKCE,
scopes enforced, revocation."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
import time_machine
from django.test import Client

from tests.api.helpers import act, concrete, state
from tests.oauth import (
    allow,
    authorize_query,
    authorize_url,
    code_from,
    make_app,
    pkce_pair,
    signed_in,
    token_for,
    token_form,
)

pytestmark = pytest.mark.django_db


def bearer(api_client: Any, token: str) -> Any:
    client = api_client()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def test_authorize_page_asks_a_stranger_to_sign_in_first(make_user):
    app = make_app()
    _, challenge = pkce_pair()
    answer = Client().get(authorize_url(app, challenge, "read"))
    assert answer.status_code == 302
    assert answer["Location"].startswith("/oauth/login/?next=/oauth/authorize/")


def test_sign_in_page_leads_back_to_the_authorize_page(make_user):
    make_user("alice")
    app = make_app()
    _, challenge = pkce_pair()
    browser = Client()
    back = authorize_url(app, challenge, "read")
    answer = browser.post("/oauth/login/", {"username": "alice", "password": "correct-horse-9", "next": back})
    assert answer.status_code == 302 and answer["Location"] == back
    assert b"Score Keeper" in browser.get(back).content


def test_authorize_page_names_the_app_and_the_scopes_in_words(make_user):
    app = make_app()
    _, challenge = pkce_pair()
    page = signed_in(make_user()).get(authorize_url(app, challenge, "read play")).content.decode()
    assert 'Allow <span class="app-name">Score Keeper</span> to act for you?' in page
    assert "See rooms, game states, events and your profile" in page
    assert "Play for you: make moves" in page
    assert "notification settings" not in page  # not asked for


def test_the_whole_flow_gives_a_token_that_plays(make_user, api_client, hearts_table):
    code, _, users = hearts_table()
    _, token = token_for(users[0], "read play")
    app_client = bearer(api_client, token)
    view = state(app_client, code)
    assert view["you"]["seat"] == 0  # the player's own view, hand and all
    assert 0 in view["to_act"]  # Hearts opens with every seat passing cards
    legal = view["you"]["legal_actions"][0]
    answer = act(app_client, code, view["version"], concrete(legal))
    assert answer.status_code == 200, answer.content


def test_a_read_token_cannot_play(make_user, api_client, hearts_table):
    code, _, users = hearts_table()
    _, token = token_for(users[0], "read")
    app_client = bearer(api_client, token)
    view = state(app_client, code)
    answer = act(app_client, code, view["version"], concrete(view["you"]["legal_actions"][0]))
    assert answer.status_code == 403
    assert answer.json()["errors"][0]["code"] == "insufficient_scope"
    assert state(app_client, code)["version"] == view["version"]  # nothing was played


def test_a_play_token_without_read_cannot_see_the_state(make_user, api_client, hearts_table):
    code, _, users = hearts_table()
    _, token = token_for(users[0], "play")
    answer = bearer(api_client, token).get(f"/api/v1/rooms/{code}/state")
    assert answer.status_code == 403
    assert answer.json()["errors"][0]["code"] == "insufficient_scope"


def test_scopes_on_lobby_and_notifications(make_user, api_client):
    user = make_user()
    _, reader = token_for(user, "read")
    _, player = token_for(user, "play")
    _, notifier = token_for(user, "notifications")
    assert bearer(api_client, reader).get("/api/v1/me").status_code == 200
    assert bearer(api_client, reader).post("/api/v1/rooms/", {"game": "hearts"}, format="json").status_code == 403
    assert bearer(api_client, player).post("/api/v1/rooms/", {"game": "hearts"}, format="json").status_code == 201
    assert bearer(api_client, reader).get("/api/v1/me/notifications").status_code == 403
    assert bearer(api_client, notifier).get("/api/v1/me/notifications").status_code == 200


def test_the_players_own_operations_refuse_every_app_token(make_user, api_client):
    user = make_user()
    _, token = token_for(user, "read play notifications")
    app_client = bearer(api_client, token)
    for answer in (
        app_client.get("/api/v1/me/tokens"),
        app_client.post("/api/v1/me/tokens", {"name": "x", "scopes": ["read"]}, format="json"),
        app_client.patch("/api/v1/me", {"auto_play_forced": True}, format="json"),
        app_client.post("/api/v1/auth/logout"),
    ):
        assert answer.status_code == 403, answer.content
        assert answer.json()["errors"][0]["code"] == "insufficient_scope"


def test_the_players_own_token_and_session_keep_full_access(make_user, api_client):
    user = make_user()
    assert api_client(user).get("/api/v1/me/tokens").status_code == 200
    assert signed_in(user).get("/api/v1/me/tokens").status_code == 200


def test_a_wrong_verifier_is_refused(make_user):
    app = make_app()
    _, challenge = pkce_pair()
    other_verifier, _ = pkce_pair()
    answer = allow(signed_in(make_user()), app, challenge, "read")
    token = Client().post("/oauth/token/", token_form(app, code_from(answer["Location"]), other_verifier))
    assert token.status_code == 400
    assert token.json()["error"] == "invalid_grant"


def test_no_verifier_is_refused(make_user):
    app = make_app()
    verifier, challenge = pkce_pair()
    answer = allow(signed_in(make_user()), app, challenge, "read")
    form = token_form(app, code_from(answer["Location"]), verifier)
    del form["code_verifier"]
    assert Client().post("/oauth/token/", form).status_code == 400


def test_the_plain_method_is_refused(make_user):
    app = make_app()
    verifier, _ = pkce_pair()
    answer = allow(signed_in(make_user()), app, verifier, "read", method="plain")
    # No code is given: the app is told why at its redirect URI.
    assert answer.status_code == 302
    assert "code=" not in answer["Location"]
    assert "error=invalid_request" in answer["Location"]


def test_no_challenge_at_all_is_refused(make_user):
    app = make_app()
    query = {k: v for k, v in authorize_query(app, "x", "read").items() if not k.startswith("code_challenge")}
    answer = signed_in(make_user()).post("/oauth/authorize/", {**query, "allow": "Authorize"})
    assert "code=" not in answer.get("Location", "")


def test_denying_gives_the_app_no_code(make_user):
    app = make_app()
    _, challenge = pkce_pair()
    answer = signed_in(make_user()).post("/oauth/authorize/", authorize_query(app, challenge, "read"))
    assert answer.status_code == 302
    assert "error=access_denied" in answer["Location"] and "code=" not in answer["Location"]


def test_a_revoked_token_is_refused(make_user, api_client):
    app, token = token_for(make_user(), "read")
    app_client = bearer(api_client, token)
    assert app_client.get("/api/v1/me").status_code == 200
    revoked = Client().post("/oauth/revoke_token/", {"token": token, "client_id": app.client_id})
    assert revoked.status_code == 200
    answer = app_client.get("/api/v1/me")
    assert answer.status_code == 401
    assert answer.json()["errors"][0]["code"] == "authentication_failed"


def test_deleting_the_app_revokes_its_tokens(make_user, api_client):
    app, token = token_for(make_user(), "read")
    app.delete()
    assert bearer(api_client, token).get("/api/v1/me").status_code == 401


def test_a_banned_players_app_token_says_why(make_user, api_client):
    user = make_user()
    _, token = token_for(user, "read")
    user.is_active = False
    user.banned_at = user.date_joined
    user.ban_reason = "cheating"
    user.save()
    answer = bearer(api_client, token).get("/api/v1/me")
    assert answer.status_code == 401
    assert answer.json()["errors"][0]["code"] == "banned"


def test_tokens_are_stored_only_as_checksums(make_user):
    from oauth2_provider.models import get_access_token_model

    _, token = token_for(make_user(), "read")
    stored = get_access_token_model().objects.get()
    assert token not in (stored.token, stored.token_checksum)


def test_no_challenge_leaves_an_error_not_a_code(make_user):
    app = make_app()
    query = {k: v for k, v in authorize_query(app, "x", "read").items() if not k.startswith("code_challenge")}
    answer = signed_in(make_user()).get("/oauth/authorize/", query)
    assert answer.status_code == 302 and "error=invalid_request" in answer["Location"]


def first_pair(user: Any, scope: str = "read") -> tuple[Any, dict[str, Any]]:
    """An app and the token answer its code was traded for."""
    app = make_app()
    verifier, challenge = pkce_pair()
    answer = allow(signed_in(user), app, challenge, scope)
    pair = Client().post("/oauth/token/", token_form(app, code_from(answer["Location"]), verifier))
    assert pair.status_code == 200, pair.content
    return app, pair.json()


def refresh(app: Any, refresh_token: str) -> Any:
    form = {"grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": app.client_id}
    return Client().post("/oauth/token/", form)


def test_a_refresh_token_gives_a_new_pair(make_user, api_client):
    app, first = first_pair(make_user())
    second = refresh(app, first["refresh_token"])
    assert second.status_code == 200, second.content
    assert second.json()["scope"] == "read"
    assert bearer(api_client, second.json()["access_token"]).get("/api/v1/me").status_code == 200
    assert bearer(api_client, first["access_token"]).get("/api/v1/me").status_code == 401  # replaced
    third = refresh(app, second.json()["refresh_token"])
    assert third.status_code == 200, third.content
    assert len({first["refresh_token"], second.json()["refresh_token"], third.json()["refresh_token"]}) == 3


def test_a_refresh_replayed_within_the_window_gets_the_same_pair_again(make_user, api_client, settings):
    settings.OAUTH_REFRESH_REPLAY_GRACE_SECONDS = 120
    app, first = first_pair(make_user(), "read play")
    with time_machine.travel(datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC), tick=False):
        lost = refresh(app, first["refresh_token"]).json()
    with time_machine.travel(datetime(2026, 3, 1, 12, 1, 59, tzinfo=UTC), tick=False):
        retried = refresh(app, first["refresh_token"])
        assert retried.status_code == 200, retried.content
        again = retried.json()
        assert (again["access_token"], again["refresh_token"]) == (lost["access_token"], lost["refresh_token"])
        assert again["scope"] == "read play" and again["expires_in"] == lost["expires_in"] - 119
        # The pair is valid, whichever answer reached the app: it plays and refreshes once.
        assert bearer(api_client, again["access_token"]).get("/api/v1/me").status_code == 200
        assert refresh(app, again["refresh_token"]).status_code == 200


def test_a_refresh_replayed_after_the_window_signs_the_app_out(make_user, api_client, settings):
    settings.OAUTH_REFRESH_REPLAY_GRACE_SECONDS = 120
    app, first = first_pair(make_user())
    with time_machine.travel(datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC), tick=False):
        new = refresh(app, first["refresh_token"]).json()
    with time_machine.travel(datetime(2026, 3, 1, 12, 2, 1, tzinfo=UTC), tick=False):
        late = refresh(app, first["refresh_token"])
        assert late.status_code == 400 and late.json()["error"] == "invalid_grant"
        # A stolen token replayed late revokes the whole family: the new pair too.
        assert bearer(api_client, new["access_token"]).get("/api/v1/me").status_code == 401
        assert refresh(app, new["refresh_token"]).status_code == 400


def test_a_replay_after_the_new_token_was_used_signs_the_app_out(make_user, api_client):
    app, first = first_pair(make_user())
    second = refresh(app, first["refresh_token"]).json()
    third = refresh(app, second["refresh_token"]).json()
    # Within the window, but the app already moved on: only a thief still holds the first.
    replay = refresh(app, first["refresh_token"])
    assert replay.status_code == 400 and replay.json()["error"] == "invalid_grant"
    assert bearer(api_client, third["access_token"]).get("/api/v1/me").status_code == 401
    assert refresh(app, third["refresh_token"]).status_code == 400


def test_without_a_window_a_replay_signs_the_app_out(make_user, api_client, settings):
    settings.OAUTH_REFRESH_REPLAY_GRACE_SECONDS = 0
    app, first = first_pair(make_user())
    new = refresh(app, first["refresh_token"]).json()
    assert refresh(app, first["refresh_token"]).status_code == 400
    assert bearer(api_client, new["access_token"]).get("/api/v1/me").status_code == 401


def test_a_revoked_refresh_token_gets_no_grace(make_user, api_client):
    app, first = first_pair(make_user())
    revoked = Client().post(
        "/oauth/revoke_token/",
        {"token": first["refresh_token"], "token_type_hint": "refresh_token", "client_id": app.client_id},
    )
    assert revoked.status_code == 200
    assert refresh(app, first["refresh_token"]).status_code == 400


def test_another_app_cannot_replay_a_refresh_token(make_user):
    app, first = first_pair(make_user())
    refresh(app, first["refresh_token"])
    assert refresh(make_app("Other"), first["refresh_token"]).status_code == 400


def test_the_code_works_once(make_user):
    app = make_app()
    verifier, challenge = pkce_pair()
    answer = allow(signed_in(make_user()), app, challenge, "read")
    form = token_form(app, code_from(answer["Location"]), verifier)
    assert Client().post("/oauth/token/", form).status_code == 200
    assert Client().post("/oauth/token/", form).status_code == 400


def test_an_app_cannot_ask_for_a_scope_that_does_not_exist(make_user):
    app = make_app()
    _, challenge = pkce_pair()
    answer = signed_in(make_user()).get(authorize_url(app, challenge, "read admin"))
    assert answer.status_code == 302 and "error=invalid_scope" in answer["Location"]


def test_a_player_lists_and_takes_back_the_apps_they_allowed(make_user, api_client):
    user = make_user()
    app, token = token_for(user, "read play")
    own = api_client(user)
    listed = own.get("/api/v1/me/apps")
    assert listed.status_code == 200
    [allowed] = listed.json()
    assert (allowed["id"], allowed["name"], allowed["scopes"]) == (app.pk, "Score Keeper", ["read", "play"])
    assert api_client(make_user()).get("/api/v1/me/apps").json() == []  # nobody else's
    assert api_client(make_user()).delete(f"/api/v1/me/apps/{app.pk}").status_code == 404
    assert bearer(api_client, token).delete(f"/api/v1/me/apps/{app.pk}").status_code == 403  # the app cannot
    assert own.delete(f"/api/v1/me/apps/{app.pk}").status_code == 204
    assert bearer(api_client, token).get("/api/v1/me").status_code == 401
    assert own.get("/api/v1/me/apps").json() == []
    assert own.delete(f"/api/v1/me/apps/{app.pk}").status_code == 404


def test_the_sign_in_page_counts_against_the_sign_in_limits(make_user, monkeypatch):
    from django.core.cache import cache
    from rest_framework.throttling import SimpleRateThrottle

    cache.clear()
    make_user("alice")
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "auth_account": "2/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    browser = Client()
    # All in one window of the limit (it counts per minute): the clock stands still.
    with time_machine.travel(datetime(2026, 1, 1, 12, 0, 10, tzinfo=UTC), tick=False):
        tries = [browser.post("/oauth/login/", {"username": "ALICE", "password": "wrong-guess-1"}) for _ in range(3)]
        assert [t.status_code for t in tries] == [200, 200, 429]
        assert "Too many sign-in attempts" in tries[-1].content.decode() and int(tries[-1]["Retry-After"]) > 0
        # Even the right password waits out the window: the limit is on the name, not the guess.
        right = browser.post("/oauth/login/", {"username": "alice", "password": "correct-horse-9"})
        assert right.status_code == 429
    cache.clear()
