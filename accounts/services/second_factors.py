"""Writes: two-step sign-in (accounts.factors) turned on, renewed, off, and passed."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ServiceError

from .. import factors
from ..models import Passkey, SecondFactor, User
from .passwords import password_confirm


def _factor(user: User, kind: str) -> SecondFactor | None:
    return SecondFactor.objects.select_for_update().filter(user=user, kind=kind).first()


def recovery_codes_new(user: User) -> list[str]:
    """New recovery codes in place of any the account had; shown this once."""
    codes = factors.recovery_codes()
    SecondFactor.objects.update_or_create(
        user=user,
        kind=SecondFactor.Kind.RECOVERY_CODES,
        defaults={"data": {"digests": [factors.recovery_digest(c) for c in codes]}, "confirmed_at": timezone.now()},
    )
    return codes


@transaction.atomic
def totp_begin(*, user: User, password: str) -> str:
    """Start turning two-step sign-in on: a new secret for the authenticator app, not in
    force until a code of it confirms it (`totp_confirm`); the secret."""
    password_confirm(user, password, attr="password")
    found = _factor(user, SecondFactor.Kind.TOTP)
    if found is not None and found.confirmed_at is not None:
        raise ServiceError(
            "totp_on_already", _("Two-step sign-in is on already; turn it off first to start again."), 409
        )
    secret = factors.totp_secret()
    SecondFactor.objects.update_or_create(
        user=user, kind=SecondFactor.Kind.TOTP, defaults={"data": {"secret": secret, "step": -1}, "confirmed_at": None}
    )
    return secret


@transaction.atomic
def totp_confirm(*, user: User, code: str, now: datetime) -> list[str]:
    """Put the secret begun in force with a code the app shows; the recovery codes,
    shown this once (only their digests are kept)."""
    found = _factor(user, SecondFactor.Kind.TOTP)
    if found is None or found.confirmed_at is not None:
        raise ServiceError("no_totp_setup", _("There is no authenticator app being set up; start again."), 409)
    step = factors.totp_step(found.data["secret"], code, after=-1, now=now)
    if step is None:
        raise ServiceError("wrong_code", _("That code is not the app's code of now; try the next one."), 400, "code")
    found.data = {**found.data, "step": step}
    found.confirmed_at = found.last_used_at = now
    found.save(update_fields=["data", "confirmed_at", "last_used_at"])
    return recovery_codes_new(user)


@transaction.atomic
def totp_off(*, user: User, password: str) -> None:
    """Turn the authenticator app off: the password alone signs in again, unless a
    passkey stays (the recovery codes stay with it)."""
    password_confirm(user, password, attr="password")
    gone = SecondFactor.objects.filter(user=user)
    if Passkey.objects.filter(user=user).exists():
        gone = gone.filter(kind=SecondFactor.Kind.TOTP)
    gone.delete()


@transaction.atomic
def recovery_codes_renew(*, user: User, password: str) -> list[str]:
    """A new set of recovery codes; the old ones stop working."""
    password_confirm(user, password, attr="password")
    found = _factor(user, SecondFactor.Kind.TOTP)
    if (found is None or found.confirmed_at is None) and not Passkey.objects.filter(user=user).exists():
        raise ServiceError("totp_off", _("Two-step sign-in is off: there are no recovery codes to renew."), 409)
    return recovery_codes_new(user)


@transaction.atomic
def second_factor_pass(*, user: User, code: str, now: datetime) -> bool:
    """Whether `code` is the authenticator app's code of now, not used before, or one of
    the unused recovery codes (then used up)."""
    if factors.looks_like_recovery_code(code):
        found = _factor(user, SecondFactor.Kind.RECOVERY_CODES)
        digest = factors.recovery_digest(code)
        if found is None or digest not in found.data.get("digests", []):
            return False
        found.data = {"digests": [d for d in found.data["digests"] if d != digest]}
        found.last_used_at = now
        found.save(update_fields=["data", "last_used_at"])
        return True
    found = _factor(user, SecondFactor.Kind.TOTP)
    if found is None or found.confirmed_at is None:
        return False
    step = factors.totp_step(found.data["secret"], code, after=found.data.get("step", -1), now=now)
    if step is None:
        return False
    found.data = {**found.data, "step": step}
    found.last_used_at = now
    found.save(update_fields=["data", "last_used_at"])
    return True
