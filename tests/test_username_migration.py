"""Migration 0004 on accounts made before usernames compared alike: nothing breaks."""

import pytest

from tests.migrations import latest, migrated_to, schema_back_to_the_latest  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("accounts", "0003_banned_tokens")]
AFTER = [("accounts", "0005_username_keys_unique")]


def test_colliding_old_accounts_keep_their_names_and_sign_in(api_client):
    from django.contrib.auth.hashers import make_password

    old = migrated_to(BEFORE).get_model("accounts", "User")
    password = make_password("correct-horse-9")
    for name in ("Bob", "bob", "\u0430dmin", "admin"):  # the second of each pair collides
        old.objects.create(username=name, password=password)
    migrated_to(AFTER)
    # The code of today reads the accounts with every later migration applied too.
    migrated_to(latest())

    from accounts.models import User

    keys = dict(User.objects.values_list("username", "username_key"))
    assert keys == {"Bob": "bob", "bob": None, "\u0430dmin": "\u0430dmin", "admin": "admin"}
    assert User.objects.get(username="admin").username_skeleton is None
    client = api_client()
    for name in ("Bob", "bob", "admin", "\u0430dmin"):
        res = client.post("/api/v1/auth/token", {"username": name, "password": "correct-horse-9"}, format="json")
        assert res.status_code == 200, name
    # Signing in by another case finds the account that holds the key.
    token = client.post("/api/v1/auth/token", {"username": "BOB", "password": "correct-horse-9"}, format="json")
    assert token.status_code == 200
    # Saving a keyless old account leaves it keyless, and no new account can collide.
    legacy = User.objects.get(username="bob")
    legacy.display_name = "Bobby"
    legacy.save()
    assert User.objects.get(username="bob").username_key is None
    res = client.post("/api/v1/auth/register", {"username": "BOB", "password": "s3cret-enough"}, format="json")
    assert res.json()["errors"][0]["code"] == "username_taken"
