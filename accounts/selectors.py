"""Reads for accounts: what a request that cannot sign in should be told."""

from __future__ import annotations

from dataclasses import dataclass

from . import usernames
from .models import BannedToken, User


@dataclass(frozen=True)
class Clash:
    code: str
    detail: str


TAKEN = Clash("username_taken", "That username is taken.")
CONFUSABLE = Clash("username_confusable", "That username looks like another account's; choose another.")


def username_clash(*, username: str) -> Clash | None:
    """Why `username` cannot be a new account's name, or None when it can."""
    # An account older than these rules may lack keys (migration 0004), but only where an
    # earlier account has the same ones: looking the keys up finds that one.
    if User.objects.filter(username_key=usernames.canonical(username)).exists():
        return TAKEN
    if User.objects.filter(username_skeleton=usernames.skeleton(username)).exists():
        return CONFUSABLE
    return None


def ban_reason_for_token(*, key: str) -> str | None:
    """The ban reason, when `key` is a token that a ban revoked (None otherwise)."""
    found = BannedToken.objects.filter(digest=BannedToken.digest_of(key), user__banned_at__isnull=False)
    return found.values_list("user__ban_reason", flat=True).first()


def ban_reason_for_credentials(*, username: str, password: str) -> str | None:
    """The ban reason, when the username and password are those of a banned account.

    Only the right password learns the reason. Only a banned account costs a password
    hash here, on top of the one the failed sign-in already spent.
    """
    try:
        user = User.objects.get_by_natural_key(username)
    except User.DoesNotExist:
        return None
    if user.banned_at is None or not user.check_password(password):
        return None
    return user.ban_reason
