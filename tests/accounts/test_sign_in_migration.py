"""Migration 0008 on accounts: every account token of before signs in as it did, as a
sign-in of its own, and nothing of the token itself is kept."""

import hashlib

import pytest

from tests.migrations import latest, migrated_to, schema_back_to_the_latest  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("accounts", "0007_sign_ins_name_changes"), ("authtoken", "0004_alter_tokenproxy_options")]


def test_tokens_of_before_keep_signing_in(api_client):
    old = migrated_to(BEFORE)
    User, Token = old.get_model("accounts", "User"), old.get_model("authtoken", "Token")
    keys = {}
    for name in ("ana", "bo"):
        user = User.objects.create(username=name, username_key=name, username_skeleton=name)
        keys[name] = Token.objects.create(user=user, key=hashlib.sha1(name.encode()).hexdigest()).key
    migrated_to(latest())

    from accounts.models import SignIn

    assert sorted(SignIn.objects.values_list("user__username", "how")) == [("ana", "earlier"), ("bo", "earlier")]
    assert not any(key in str(list(SignIn.objects.values())) for key in keys.values())
    for name, key in keys.items():
        me = api_client().get("/api/v1/me", HTTP_AUTHORIZATION=f"Token {key}")
        assert me.status_code == 200 and me.json()["username"] == name
