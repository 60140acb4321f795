"""Moderators see the apps registered for OAuth2 and players' personal tokens in the
admin, and revoke them: the tokens stop working at once."""

from __future__ import annotations

import pytest
from django.urls import reverse

from grants import services
from grants.models import PersonalToken
from tests.oauth import token_for

pytestmark = pytest.mark.django_db


def moderator(client, make_user, moderators_group):
    user = make_user("mod", is_staff=True)
    user.groups.add(moderators_group)
    client.force_login(user)
    return user


def test_a_moderator_sees_and_revokes_an_app_and_its_tokens(client, make_user, moderators_group, api_client):
    app, token = token_for(make_user("alice"), "read")
    moderator(client, make_user, moderators_group)
    listing = client.get(reverse("admin:oauth2_provider_application_changelist"))
    assert listing.status_code == 200 and "Score Keeper" in listing.content.decode()
    tokens = client.get(reverse("admin:oauth2_provider_accesstoken_changelist"))
    assert tokens.status_code == 200 and "alice" in tokens.content.decode()
    changelist = reverse("admin:oauth2_provider_application_changelist")
    revoked = client.post(changelist, {"action": "revoke", "_selected_action": [app.pk]}, follow=True)
    assert "Revoked 1 app; its tokens no longer work." in revoked.content.decode()
    assert not type(app).objects.exists()
    app_client = api_client()
    app_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert app_client.get("/api/v1/me").status_code == 401


def test_a_moderator_sees_and_revokes_a_players_personal_token(client, make_user, moderators_group, api_client):
    token, secret = services.personal_token_create(user=make_user("bob"), name="bob's bot", scope=["read"])
    moderator(client, make_user, moderators_group)
    listing = client.get(reverse("admin:grants_personaltoken_changelist") + "?q=bob").content.decode()
    assert "bob&#x27;s bot" in listing and secret not in listing and token.digest not in listing
    page = client.get(reverse("admin:grants_personaltoken_change", args=[token.pk])).content.decode()
    assert token.digest not in page
    assert client.get(reverse("admin:grants_personaltoken_add")).status_code == 403
    delete = reverse("admin:grants_personaltoken_delete", args=[token.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 302
    assert not PersonalToken.objects.exists()
    app_client = api_client()
    app_client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert app_client.get("/api/v1/me").status_code == 401
