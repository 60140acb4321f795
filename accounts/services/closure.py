"""Writes: an account closed by its owner, restored, and erased for good (what the
account itself holds; privacy.closure reaches the other apps)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Q

from ..models import Block, NameChange, Passkey, SecondFactor, User
from .passwords import password_confirm
from .sign_ins import sessions_end, sign_ins_end


@transaction.atomic
def account_close(*, user: User, password: str, now: datetime) -> User:
    """Close the account at its owner's word (their password, when it has one): it signs
    in nowhere and acts nowhere from now, and signing in with the password within
    ACCOUNT_CLOSURE_GRACE_DAYS restores it (`account_restore`). What else it held is
    ended by privacy.closure."""
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    if user.has_usable_password():
        password_confirm(user, password, attr="password")
    user.closed_at = now
    user.is_active = False
    user.save(update_fields=["closed_at", "is_active"])
    sign_ins_end(user=user)
    sessions_end(user=user)
    return user


def account_restore(*, user: User) -> User:
    """Open again an account closed within the grace period (its owner signed in)."""
    user.closed_at = None
    user.is_active = True
    user.save(update_fields=["closed_at", "is_active"])
    return user


@transaction.atomic
def account_erase(*, user: User, now: datetime) -> None:
    """Erase for good what the account itself holds of its person: its names become
    "closed account N", its address, password, sign-ins, second factors, passkeys, blocks and earlier
    names go. The row stays, so that matches, ratings and others' logs keep their
    player (and moderation entries their account id)."""
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    user.username = f"closed-account-{user.pk}"
    user.display_name = f"closed account {user.pk}"
    user.email = user.first_name = user.last_name = ""
    user.set_unusable_password()
    user.is_active = False
    user.erased_at = now
    user.save()
    sign_ins_end(user=user)
    SecondFactor.objects.filter(user=user).delete()
    Passkey.objects.filter(user=user).delete()
    Block.objects.filter(Q(blocker=user) | Q(blocked=user)).delete()
    NameChange.objects.filter(user=user).delete()
