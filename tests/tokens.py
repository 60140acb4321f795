"""Account tokens for tests: a sign-in of the account (accounts.services.sign_ins.sign_in_create),
the same one each time it is asked for while it still works, as a client that signed in
once keeps its token."""

from __future__ import annotations

from typing import Any

_KEYS: dict[int, str] = {}


def account_token(user: Any) -> str:
    """A working token of `user`'s: the one this process gave before, if it still works
    (the database may have been emptied since), else a new sign-in's."""
    from accounts.models import SignIn
    from accounts.services.sign_ins import sign_in_create

    key = _KEYS.get(user.pk)
    if key is not None and SignIn.objects.filter(user=user, digest=SignIn.digest_of(key)).exists():
        return key
    key = sign_in_create(user=user, how=SignIn.How.PASSWORD)
    _KEYS[user.pk] = key
    return key


def new_token(user: Any) -> str:
    """A token of a new sign-in of `user`'s."""
    from accounts.models import SignIn
    from accounts.services.sign_ins import sign_in_create

    return sign_in_create(user=user, how=SignIn.How.PASSWORD)
