"""A ban is not one sign-up away: a browser a banned account was made from makes no new
account, a banned account's confirmed address confirms no other, and moderators see the
accounts made from one browser."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import User
from moderation.services import user_ban
from notifications.services import confirmation, preferences
from tests.api.helpers import errors
from tests.notifications.conftest import confirm_email

pytestmark = pytest.mark.django_db

SIGN_UP = {"username": "fresh-start", "password": "s3cret-enough"}


def test_a_browser_a_banned_account_was_made_from_makes_no_new_one(make_user, client, moderators_group):
    browser = APIClient()
    made = browser.post("/api/v1/auth/register", {"username": "troll", "password": "s3cret-enough"}, format="json")
    assert made.status_code == 201 and made.cookies["browser"]["httponly"]
    second = browser.post("/api/v1/auth/guest", {"display_name": "Sock"}, format="json")
    assert second.status_code == 201
    troll = User.objects.get(username="troll")
    mod = make_user("mod", is_staff=True)
    mod.groups.add(moderators_group)
    user_ban(moderator=mod, user=troll, reason="spamming the table")

    # Never told "banned" in this browser, and still refused, with the reason; nothing made.
    for path, body in (("/api/v1/auth/register", SIGN_UP), ("/api/v1/auth/guest", {"display_name": "New me"})):
        refused = browser.post(path, body, format="json")
        assert refused.status_code == 401 and errors(refused) == [("banned", None)], path
        assert "spamming the table" in refused.json()["errors"][0]["detail"]
    assert not User.objects.filter(username="fresh-start").exists()
    # Another browser is another person as far as the server can tell.
    assert APIClient().post("/api/v1/auth/register", SIGN_UP, format="json").status_code == 201

    # The moderator sees the accounts made from the troll's browser, and their standing.
    client.force_login(mod)
    sock = User.objects.get(pk=second.json()["user"]["id"])
    page = client.get(reverse("admin:accounts_user_change", args=[sock.pk])).content.decode()
    assert "Accounts made from the same browser" in page and "troll</a> (banned)" in page
    assert "fresh-start" not in page


def test_a_banned_accounts_confirmed_address_confirms_no_other(make_user, moderators_group):
    troll, newcomer = make_user("troll"), make_user("newcomer")
    preferences.preferences_update(user=troll, changes={"email_address": "troll@example.org"})
    confirm_email(troll)
    mod = make_user("mod", is_staff=True)
    mod.groups.add(moderators_group)
    user_ban(moderator=mod, user=troll, reason="cheating")
    preferences.preferences_update(user=newcomer, changes={"email_address": "TROLL@example.org"})
    token = confirmation.confirmation_token(user_id=newcomer.pk, address="TROLL@example.org")
    refused = APIClient().post("/api/v1/email-confirmations", {"token": token}, format="json")
    assert refused.status_code == 403 and errors(refused) == [("address_of_banned_account", None)]
    other = make_user("other")
    preferences.preferences_update(user=other, changes={"email_address": "other@example.org"})
    assert confirm_email(other) == "other@example.org"
