"""Writes: accounts made (sign-up, guests), a guest's account kept, the display name and
the settings a person chooses."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ServiceError

from ..devices import Device
from ..models import NameChange, SignIn, User
from ..selectors import TAKEN, display_name_changeable_at, name_clash
from .passwords import password_given, password_set
from .sign_ins import sign_in_create


@transaction.atomic
def user_register(
    *,
    username: str,
    password: str,
    display_name: str = "",
    language: str = "en",
    device: Device | None = None,
    browser_mark: str = "",
) -> tuple[User, str]:
    """Create an account and its token.

    Raises ServiceError: `weak_password` with one detail per reason the password
    validators give, `username_taken` when the name was taken meanwhile (the serializer
    checked it before).
    """
    user = User(username=username, display_name=display_name or username, language=language, browser_mark=browser_mark)
    password_given(user, password, "password")
    # A sign-up signs in.
    user.last_login = timezone.now()
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:
        # Two sign-ups of one name (or of lookalikes) at once: the unique keys let one in.
        raise ServiceError(TAKEN.code, str(TAKEN.detail), 400, "username") from None
    return user, sign_in_create(user=user, how=SignIn.How.SIGN_UP, device=device)


@transaction.atomic
def guest_create(
    *, display_name: str, language: str = "en", device: Device | None = None, browser_mark: str = ""
) -> tuple[User, str]:
    # A guest's username is random and never typed; the display name is what others see.
    user = User(
        username=f"guest-{secrets.token_hex(6)}",
        display_name=display_name,
        is_guest=True,
        language=language,
        browser_mark=browser_mark,
    )
    user.set_unusable_password()
    user.save()
    return user, sign_in_create(user=user, how=SignIn.How.GUEST, device=device)


@transaction.atomic
def guest_keep(*, user: User, username: str, password: str, display_name: str | None, now: datetime) -> User:
    """A guest becomes an account with `username` and `password`: the same account, so
    its seats, matches, ratings, notices and sign-ins stay its own. The display name
    changes when one is given (a change as `display_name_change` counts it). Only a
    guest's account does this (`not_a_guest`)."""
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    if not user.is_guest:
        raise ServiceError(
            "not_a_guest", _("This account is not a guest's: it has a username and password already."), 409
        )
    user.username = username
    user.is_guest = False
    try:
        with transaction.atomic():
            user.save(update_fields=["username", "is_guest"])
    except IntegrityError:
        # The name (or a lookalike) was taken since the serializer looked.
        raise ServiceError(TAKEN.code, str(TAKEN.detail), 400, "username") from None
    password_set(user, password, attr="password")
    if display_name is not None:
        user = display_name_change(user=user, display_name=display_name, now=now)
    return user


@transaction.atomic
def display_name_change(*, user: User, display_name: str, now: datetime) -> User:
    """Change the name other players read, at most once a week (`display_name_too_soon`),
    not to another account's username or a lookalike of it (`username_confusable`); the
    name it had is kept for moderators (NameChange). The same name again changes
    nothing."""
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    if display_name == user.display_name:
        return user
    allowed = display_name_changeable_at(user=user, now=now)
    if allowed is not None:
        raise ServiceError(
            "display_name_too_soon",
            _("Your display name changed less than a week ago; it can change again from %(when)s.")
            % {"when": allowed.isoformat()},
            409,
            "display_name",
        )
    clash = name_clash(name=display_name, user=user)
    if clash is not None:
        raise ServiceError(clash.code, _("That name looks like another player's username."), 400, "display_name")
    NameChange.objects.create(user=user, before=user.display_name, after=display_name, changed_at=now)
    user.display_name = display_name
    user.save(update_fields=["display_name"])
    return user


# What a person may change of their own account besides their names and secrets.
USER_SETTINGS = ("auto_play_forced", "confirm_moves", "trick_pause_ms", "language")


def user_settings_update(*, user: User, **settings: Any) -> User:
    """Change the account's own settings (those the player chooses at /me): any of
    `auto_play_forced`, `confirm_moves`, `trick_pause_ms`, `language`, each as validated by the API."""
    unknown = set(settings) - set(USER_SETTINGS)
    if unknown:
        raise TypeError(f"Not a setting: {', '.join(sorted(unknown))}")
    for name, value in settings.items():
        setattr(user, name, value)
    if settings:
        user.save(update_fields=list(settings))
    return user
