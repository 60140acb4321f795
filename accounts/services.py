"""Writes for accounts: registration, guests, sign-ins and their tokens."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from core.errors import ServiceError

from . import factors
from .devices import Device
from .models import BannedToken, NameChange, SecondFactor, SignIn, User
from .selectors import TAKEN, SignInRef, display_name_changeable_at, name_clash

# How often a sign-in's last use is written: the list shows it to the minute.
LAST_USED_RESOLUTION = timedelta(minutes=1)


def sign_in_create(*, user: User, how: str, device: Device | None = None) -> str:
    """A new sign-in of the account, from the client `device` describes; its token,
    which is given this once (only its digest is kept)."""
    key = secrets.token_hex(20)
    SignIn.objects.create(
        user=user,
        digest=SignIn.digest_of(key),
        how=how,
        device=device.name if device else "",
        address=device.network if device else "",
    )
    return key


def sign_in_used(*, ref: SignInRef, now: datetime) -> None:
    """Note a use of a sign-in, unless one was noted within the last minute."""
    if ref.last_used_at is not None and now - ref.last_used_at < LAST_USED_RESOLUTION:
        return
    SignIn.objects.filter(pk=ref.id).update(last_used_at=now)


def sign_in_end(*, user: User, sign_in_id: int) -> None:
    """End one of the account's sign-ins: its token answers 401 from the next call.
    Anyone else's reads as not found."""
    deleted, _ = SignIn.objects.filter(user=user, pk=sign_in_id).delete()
    if not deleted:
        raise ServiceError("not_found", "You have no such sign-in.", 404)


def sign_ins_end(*, user: User, keep: int | None = None) -> int:
    """End every sign-in of the account but `keep` (the caller's own, when it is one);
    how many ended."""
    sign_ins = SignIn.objects.filter(user=user)
    if keep is not None:
        sign_ins = sign_ins.exclude(pk=keep)
    ended, _ = sign_ins.delete()
    return ended


@transaction.atomic
def user_register(
    *, username: str, password: str, display_name: str = "", device: Device | None = None, browser_mark: str = ""
) -> tuple[User, str]:
    """Create an account and its token.

    Raises ServiceError: `weak_password` with one detail per reason the password
    validators give, `username_taken` when the name was taken meanwhile (the serializer
    checked it before).
    """
    user = User(username=username, display_name=display_name or username, browser_mark=browser_mark)
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
    return user, sign_in_create(user=user, how=SignIn.How.SIGN_UP, device=device)


@transaction.atomic
def guest_create(*, display_name: str, device: Device | None = None, browser_mark: str = "") -> tuple[User, str]:
    # A guest's username is random and never typed; the display name is what others see.
    user = User(
        username=f"guest-{secrets.token_hex(6)}", display_name=display_name, is_guest=True, browser_mark=browser_mark
    )
    user.set_unusable_password()
    user.save()
    return user, sign_in_create(user=user, how=SignIn.How.GUEST, device=device)


def user_sign_in(*, user: User, now: datetime, device: Device | None = None) -> str:
    """A new sign-in of the account with its password, which counts as its last login
    (the admin shows it, as it does for sign-ins to the admin itself); its token."""
    User.objects.filter(pk=user.pk).update(last_login=now)
    return sign_in_create(user=user, how=SignIn.How.PASSWORD, device=device)


@transaction.atomic
def tokens_revoke_for_ban(*, user: User) -> None:
    """End the account's sign-ins, keeping only their digests (see BannedToken)."""
    digests = list(SignIn.objects.filter(user=user).values_list("digest", flat=True))
    BannedToken.objects.bulk_create(
        [BannedToken(digest=digest, user=user) for digest in digests], ignore_conflicts=True
    )
    sign_ins_end(user=user)


def _password_confirm(user: User, password: str, *, attr: str) -> None:
    """The person proves it is them with their password before a change to how the
    account signs in (`no_password` for a guest, `wrong_password` at `attr`)."""
    if not user.has_usable_password():
        raise ServiceError("no_password", "This account has no password (a guest's): keep the account first.", 409)
    if not user.check_password(password):
        raise ServiceError("wrong_password", "That is not your current password.", 400, attr)


def _password_set(user: User, password: str, attr: str = "new_password") -> None:
    """Set a new password after the validators (`weak_password`, attr `attr`)."""
    try:
        validate_password(password, user)
    except ValidationError as err:
        raise ServiceError.several("weak_password", err.messages, attr=attr) from None
    user.set_password(password)
    user.save(update_fields=["password"])


@transaction.atomic
def guest_keep(*, user: User, username: str, password: str, display_name: str | None, now: datetime) -> User:
    """A guest becomes an account with `username` and `password`: the same account, so
    its seats, matches, ratings, notices and sign-ins stay its own. The display name
    changes when one is given (a change as `display_name_change` counts it). Only a
    guest's account does this (`not_a_guest`)."""
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    if not user.is_guest:
        raise ServiceError("not_a_guest", "This account is not a guest's: it has a username and password already.", 409)
    user.username = username
    user.is_guest = False
    try:
        with transaction.atomic():
            user.save(update_fields=["username", "is_guest"])
    except IntegrityError:
        # The name (or a lookalike) was taken since the serializer looked.
        raise ServiceError(TAKEN.code, TAKEN.detail, 400, "username") from None
    _password_set(user, password, attr="password")
    if display_name is not None:
        user = display_name_change(user=user, display_name=display_name, now=now)
    return user


@transaction.atomic
def password_change(
    *, user: User, current_password: str, new_password: str, sign_out_others: bool, keep: int | None
) -> int:
    """Change the account's password, asking for the current one; unless the person
    keeps them, every sign-in but `keep` (the one that asked) ends. How many ended.
    (Tokens that act for the person besides sign-ins are grants': the API ends those in
    the same transaction.)"""
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    _password_confirm(user, current_password, attr="current_password")
    _password_set(user, new_password)
    return sign_ins_end(user=user, keep=keep) if sign_out_others else 0


@transaction.atomic
def password_reset(*, user: User, new_password: str, device: Device | None = None) -> tuple[User, str]:
    """Set the password of the account a reset link was for: every sign-in ends, and the
    device that reset it signs in anew; the account and that token. The link stops
    working with the new password (accounts.passwords)."""
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    _password_set(user, new_password)
    sign_ins_end(user=user)
    user.last_login = timezone.now()
    user.save(update_fields=["last_login"])
    return user, sign_in_create(user=user, how=SignIn.How.RESET, device=device)


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
            f"Your display name changed less than a week ago; it can change again from {allowed.isoformat()}.",
            409,
            "display_name",
        )
    clash = name_clash(name=display_name, user=user)
    if clash is not None:
        raise ServiceError(clash.code, "That name looks like another player's username.", 400, "display_name")
    NameChange.objects.create(user=user, before=user.display_name, after=display_name, changed_at=now)
    user.display_name = display_name
    user.save(update_fields=["display_name"])
    return user


def banned_tokens_forget(*, user: User) -> None:
    BannedToken.objects.filter(user=user).delete()


def user_settings_update(*, user: User, auto_play_forced: bool) -> User:
    """Change the account's own settings (those the player chooses at /me)."""
    user.auto_play_forced = auto_play_forced
    user.save(update_fields=["auto_play_forced"])
    return user


def _factor(user: User, kind: str) -> SecondFactor | None:
    return SecondFactor.objects.select_for_update().filter(user=user, kind=kind).first()


def _recovery_codes_new(user: User) -> list[str]:
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
    _password_confirm(user, password, attr="password")
    found = _factor(user, SecondFactor.Kind.TOTP)
    if found is not None and found.confirmed_at is not None:
        raise ServiceError("totp_on_already", "Two-step sign-in is on already; turn it off first to start again.", 409)
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
        raise ServiceError("no_totp_setup", "There is no authenticator app being set up; start again.", 409)
    step = factors.totp_step(found.data["secret"], code, after=-1, now=now)
    if step is None:
        raise ServiceError("wrong_code", "That code is not the app's code of now; try the next one.", 400, "code")
    found.data = {**found.data, "step": step}
    found.confirmed_at = found.last_used_at = now
    found.save(update_fields=["data", "confirmed_at", "last_used_at"])
    return _recovery_codes_new(user)


@transaction.atomic
def totp_off(*, user: User, password: str) -> None:
    """Turn two-step sign-in off: the password alone signs in again."""
    _password_confirm(user, password, attr="password")
    SecondFactor.objects.filter(user=user).delete()


@transaction.atomic
def recovery_codes_renew(*, user: User, password: str) -> list[str]:
    """A new set of recovery codes; the old ones stop working."""
    _password_confirm(user, password, attr="password")
    found = _factor(user, SecondFactor.Kind.TOTP)
    if found is None or found.confirmed_at is None:
        raise ServiceError("totp_off", "Two-step sign-in is off: there are no recovery codes to renew.", 409)
    return _recovery_codes_new(user)


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


@transaction.atomic
def account_close(*, user: User, password: str, now: datetime) -> User:
    """Close the account at its owner's word (their password, when it has one): it signs
    in nowhere and acts nowhere from now, and signing in with the password within
    ACCOUNT_CLOSURE_GRACE_DAYS restores it (`account_restore`). What else it held is
    ended by privacy.closure."""
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    if user.has_usable_password():
        _password_confirm(user, password, attr="password")
    user.closed_at = now
    user.is_active = False
    user.save(update_fields=["closed_at", "is_active"])
    sign_ins_end(user=user)
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
    "closed account N", its address, password, sign-ins, second factors and earlier
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
    NameChange.objects.filter(user=user).delete()
