"""Reads for accounts: what a request that cannot sign in should be told."""

from __future__ import annotations

from .models import BannedToken, User


def ban_reason_for_token(*, key: str) -> str | None:
    """The ban reason, when `key` is a token that a ban revoked (None otherwise)."""
    found = BannedToken.objects.filter(digest=BannedToken.digest_of(key), user__banned_at__isnull=False)
    return found.values_list("user__ban_reason", flat=True).first()


def ban_reason_for_credentials(*, username: str, password: str) -> str | None:
    """The ban reason, when the username and password are those of a banned account.

    Only the right password learns the reason. Only a banned account costs a password
    hash here, on top of the one the failed sign-in already spent.
    """
    user = User.objects.filter(username=username, banned_at__isnull=False).first()
    if user is None or not user.check_password(password):
        return None
    return user.ban_reason
