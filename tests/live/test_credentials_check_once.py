"""A transaction that ends many of an account's credentials (a ban ends every token and
session) tells its sockets once, after it commits (games.live.credentials_check_after_commit);
what a rolled-back savepoint ended is not told, and does not keep what follows from being told."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from accounts.models import SignIn
from games import live
from tests.tokens import new_token

pytestmark = pytest.mark.django_db


def checks(callbacks: list[Any]) -> list[int]:
    return sorted(c.user_id for c in callbacks if isinstance(c, live._CredentialsCheck))


def test_many_tokens_of_one_account_ended_at_once_make_one_check(make_user, django_capture_on_commit_callbacks):
    alice, bob = make_user(), make_user()
    for user in (alice, alice, alice, bob):
        new_token(user)
    sign_ins = SignIn.objects.filter(user__in=[alice, bob])
    assert sign_ins.count() == 4
    with django_capture_on_commit_callbacks() as callbacks, transaction.atomic():
        for sign_in in sign_ins:
            sign_in.delete()
    assert checks(callbacks) == sorted([alice.pk, bob.pk])


def test_a_rolled_back_savepoint_takes_its_check_and_leaves_the_next_one(make_user, django_capture_on_commit_callbacks):
    alice = make_user()
    new_token(alice), new_token(alice)
    first, second = SignIn.objects.filter(user=alice)
    kept = first.pk
    with django_capture_on_commit_callbacks() as callbacks, transaction.atomic():
        try:
            with transaction.atomic():
                first.delete()
                raise RuntimeError("undone")
        except RuntimeError:
            pass
        second.delete()
    assert checks(callbacks) == [alice.pk]
    assert list(SignIn.objects.filter(user=alice).values_list("pk", flat=True)) == [kept]
