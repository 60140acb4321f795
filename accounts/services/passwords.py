"""Writes: passwords proved, changed and reset."""

from __future__ import annotations

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ServiceError

from ..devices import Device
from ..models import SignIn, User
from .sign_ins import sign_in_create, sign_ins_end


def password_confirm(user: User, password: str, *, attr: str) -> None:
    """The person proves it is them with their password before a change to how the
    account signs in (`no_password` for a guest, `wrong_password` at `attr`)."""
    if not user.has_usable_password():
        raise ServiceError("no_password", _("This account has no password (a guest's): keep the account first."), 409)
    if not user.check_password(password):
        raise ServiceError("wrong_password", _("That is not your current password."), 400, attr)


def password_given(user: User, password: str, attr: str) -> None:
    """Give `user` (saved or not) the password, after the validators (`weak_password`,
    one error per reason, at `attr`); the caller saves it."""
    try:
        validate_password(password, user)
    except ValidationError as err:
        raise ServiceError.several("weak_password", err.messages, attr=attr) from None
    user.set_password(password)


def password_set(user: User, password: str, attr: str = "new_password") -> None:
    """Set a new password of a saved account after the validators."""
    password_given(user, password, attr)
    user.save(update_fields=["password"])


@transaction.atomic
def password_change(
    *, user: User, current_password: str, new_password: str, sign_out_others: bool, keep: int | None
) -> int:
    """Change the account's password, asking for the current one; unless the person
    keeps them, every sign-in but `keep` (the one that asked) ends. How many ended.
    (Tokens that act for the person besides sign-ins are grants': the API ends those in
    the same transaction.)"""
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    password_confirm(user, current_password, attr="current_password")
    password_set(user, new_password)
    return sign_ins_end(user=user, keep=keep) if sign_out_others else 0


@transaction.atomic
def password_reset(*, user: User, new_password: str, device: Device | None = None) -> tuple[User, str]:
    """Set the password of the account a reset link was for: every sign-in ends, and the
    device that reset it signs in anew; the account and that token. The link stops
    working with the new password (accounts.passwords)."""
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    password_set(user, new_password)
    sign_ins_end(user=user)
    user.last_login = timezone.now()
    user.save(update_fields=["last_login"])
    return user, sign_in_create(user=user, how=SignIn.How.RESET, device=device)
