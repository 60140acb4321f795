"""Writes for accounts: registration, guests, tokens."""

from __future__ import annotations

import secrets
from datetime import datetime

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from core.errors import ServiceError

from .models import BannedToken, User
from .selectors import TAKEN


@transaction.atomic
def user_register(*, username: str, password: str, display_name: str = "") -> tuple[User, str]:
    """Create an account and its token.

    Raises ServiceError: `weak_password` with one detail per reason the password
    validators give, `username_taken` when the name was taken meanwhile (the serializer
    checked it before).
    """
    user = User(username=username, display_name=display_name or username)
    try:
        validate_password(password, user)
    except ValidationError as err:
        raise ServiceError.several("weak_password", err.messages, attr="password") from None
    user.set_password(password)
    # A sign-up signs in.
    user.last_login = timezone.now()
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:
        # Two sign-ups of one name (or of lookalikes) at once: the unique keys let one in.
        raise ServiceError(TAKEN.code, TAKEN.detail, 400, "username") from None
    return user, Token.objects.create(user=user).key


@transaction.atomic
def guest_create(*, display_name: str) -> tuple[User, str]:
    # A guest's username is random and never typed; the display name is what others see.
    user = User(username=f"guest-{secrets.token_hex(6)}", display_name=display_name, is_guest=True)
    user.set_unusable_password()
    user.save()
    return user, Token.objects.create(user=user).key


def user_sign_in(*, user: User, now: datetime) -> str:
    """The account's token for a sign-in with its password, which counts as its last
    login (the admin shows it, as it does for sign-ins to the admin itself)."""
    User.objects.filter(pk=user.pk).update(last_login=now)
    token, _ = Token.objects.get_or_create(user=user)
    key: str = token.key  # the stubs leave Token's fields untyped
    return key


def token_revoke(*, user: User) -> None:
    Token.objects.filter(user=user).delete()


@transaction.atomic
def tokens_revoke_for_ban(*, user: User) -> None:
    """Revoke the account's tokens, keeping only digests of them (see BannedToken)."""
    keys = list(Token.objects.filter(user=user).values_list("key", flat=True))
    BannedToken.objects.bulk_create(
        [BannedToken(digest=BannedToken.digest_of(key), user=user) for key in keys], ignore_conflicts=True
    )
    token_revoke(user=user)


def banned_tokens_forget(*, user: User) -> None:
    BannedToken.objects.filter(user=user).delete()


def user_settings_update(*, user: User, auto_play_forced: bool) -> User:
    """Change the account's own settings (those the player chooses at /me)."""
    user.auto_play_forced = auto_play_forced
    user.save(update_fields=["auto_play_forced"])
    return user
