"""Writes: passkeys (accounts.passkeys) added, renamed and removed, and the ceremonies
that sign in with one, alone or as the second step after the password.

Each ceremony's challenge is kept (PasskeyCeremony) until its answer comes back, and is
taken then, whatever the answer: an answer replayed, or one made for another step or
another account, finds no ceremony. A passkey's first, like an authenticator app, brings
recovery codes for the day every key is lost; they go with the last factor."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from core.errors import ServiceError

from .. import passkeys, selectors
from ..models import Passkey, PasskeyCeremony, SecondFactor, User
from ..passkeys import BadPasskeyAnswer, RelyingParty
from .passwords import password_confirm
from .second_factors import recovery_codes_new

Purpose = PasskeyCeremony.Purpose


def _ceremony_begin(
    *, purpose: str, rp: RelyingParty, now: datetime, user: User | None = None, user_handle: bytes = b""
) -> bytes:
    """A new ceremony's challenge; those past their time are cleared on the way."""
    PasskeyCeremony.objects.filter(created_at__lt=now - timedelta(seconds=settings.WEBAUTHN_CEREMONY_SECONDS)).delete()
    challenge = secrets.token_bytes(32)
    PasskeyCeremony.objects.create(
        digest=passkeys.challenge_digest(challenge),
        challenge=challenge,
        purpose=purpose,
        user=user,
        user_handle=user_handle,
        rp_id=rp.id,
        origins=list(rp.origins),
        created_at=now,
    )
    return challenge


def _ceremony_take(*, credential: dict[str, Any], purposes: tuple[str, ...], now: datetime) -> PasskeyCeremony | None:
    """The ceremony under way that the answer was made for, taken (it works once); None
    when there is none: used already, too old, or begun for another step."""
    digest = passkeys.challenge_digest(passkeys.challenge_of(credential))
    found = PasskeyCeremony.objects.select_for_update().filter(digest=digest).first()
    if found is None:
        return None
    found.delete()
    fresh = found.created_at >= now - timedelta(seconds=settings.WEBAUTHN_CEREMONY_SECONDS)
    return found if fresh and found.purpose in purposes else None


def _rp_of(ceremony: PasskeyCeremony) -> RelyingParty:
    return RelyingParty(id=ceremony.rp_id, origins=tuple(ceremony.origins))


def _user_handle(user: User) -> bytes:
    """The account's WebAuthn user handle: its passkeys', else a new random one."""
    found = Passkey.objects.filter(user=user).values_list("user_handle", flat=True).first()
    return bytes(found) if found is not None else secrets.token_bytes(32)


def _bad_answer(detail: str) -> ServiceError:
    return ServiceError("bad_passkey_answer", detail, 400, "credential")


@transaction.atomic
def add_options(*, user: User, password: str, rp: RelyingParty, now: datetime) -> dict[str, Any]:
    """Start adding a passkey, proven with the password: the options for the
    authenticator (`PublicKeyCredentialCreationOptionsJSON`)."""
    password_confirm(user, password, attr="password")
    handle = _user_handle(user)
    challenge = _ceremony_begin(purpose=Purpose.ADD, rp=rp, now=now, user=user, user_handle=handle)
    existing = [bytes(c) for c in Passkey.objects.filter(user=user).values_list("credential_id", flat=True)]
    return passkeys.creation_options(
        rp=rp,
        challenge=challenge,
        user_handle=handle,
        username=user.username,
        display_name=user.display_name,
        existing=existing,
    )


@transaction.atomic
def passkey_add(*, user: User, credential: dict[str, Any], name: str, now: datetime) -> tuple[Passkey, list[str]]:
    """Keep the passkey the authenticator made for `add_options`; it and, when it is the
    account's first factor, the new recovery codes (shown this once)."""
    try:
        ceremony = _ceremony_take(credential=credential, purposes=(Purpose.ADD,), now=now)
        if ceremony is None or ceremony.user_id != user.pk:
            raise _bad_answer(_("This passkey was made for no passkey being added now: used, too old or another's."))
        made = passkeys.registration_check(
            credential=credential, rp=_rp_of(ceremony), challenge=bytes(ceremony.challenge)
        )
    except BadPasskeyAnswer as err:
        # Translators: the reason may come from the passkey library, in English.
        raise _bad_answer(_("The authenticator's answer does not hold: %(reason)s") % {"reason": err}) from None
    first_factor = not selectors.second_factor_on(user=user)
    try:
        with transaction.atomic():
            passkey = Passkey.objects.create(
                user=user,
                name=name or "Passkey",
                credential_id=made.credential_id,
                public_key=made.public_key,
                sign_count=made.sign_count,
                user_handle=bytes(ceremony.user_handle),
                transports=made.transports,
                aaguid=made.aaguid,
                backed_up=made.backed_up,
            )
    except IntegrityError:
        raise ServiceError("passkey_added_already", _("This passkey is an account's already."), 409) from None
    return passkey, recovery_codes_new(user) if first_factor else []


def _own(user: User, passkey_id: int) -> Passkey:
    found = Passkey.objects.select_for_update().filter(user=user, pk=passkey_id).first()
    if found is None:
        raise ServiceError("not_found", _("You have no passkey with that id."), 404)
    return found


@transaction.atomic
def passkey_rename(*, user: User, passkey_id: int, name: str) -> Passkey:
    passkey = _own(user, passkey_id)
    passkey.name = name
    passkey.save(update_fields=["name"])
    return passkey


@transaction.atomic
def passkey_remove(*, user: User, passkey_id: int, password: str) -> None:
    """Remove a passkey, proven with the password; the recovery codes go with the
    account's last factor."""
    password_confirm(user, password, attr="password")
    _own(user, passkey_id).delete()
    if not selectors.second_factor_on(user=user):
        SecondFactor.objects.filter(user=user, kind=SecondFactor.Kind.RECOVERY_CODES).delete()


@transaction.atomic
def sign_in_options(*, rp: RelyingParty, now: datetime, second_step: bool) -> dict[str, Any]:
    """Start signing in with a passkey (`PublicKeyCredentialRequestOptionsJSON`): alone,
    the authenticator must verify its person; as the second step, presence is enough."""
    purpose = Purpose.SECOND_STEP if second_step else Purpose.SIGN_IN
    challenge = _ceremony_begin(purpose=purpose, rp=rp, now=now)
    return passkeys.request_options(rp=rp, challenge=challenge, user_verification=not second_step)


def _assertion_pass(*, credential: dict[str, Any], purposes: tuple[str, ...], now: datetime) -> Passkey | None:
    """The passkey that signed this ceremony's challenge, its counter and use recorded;
    None when the answer does not hold."""
    try:
        ceremony = _ceremony_take(credential=credential, purposes=purposes, now=now)
        if ceremony is None:
            return None
        passkey = (
            Passkey.objects.select_for_update()
            .select_related("user")
            .filter(credential_id=passkeys.credential_id_of(credential))
            .first()
        )
        handle = passkeys.user_handle_of(credential)
        if passkey is None or (handle is not None and handle != bytes(passkey.user_handle)):
            return None
        checked = passkeys.assertion_check(
            credential=credential,
            rp=_rp_of(ceremony),
            challenge=bytes(ceremony.challenge),
            public_key=bytes(passkey.public_key),
            sign_count=passkey.sign_count,
            user_verification=ceremony.purpose == Purpose.SIGN_IN,
        )
    except BadPasskeyAnswer:
        return None
    passkey.sign_count = checked.new_sign_count
    passkey.backed_up = checked.backed_up
    passkey.last_used_at = now
    passkey.save(update_fields=["sign_count", "backed_up", "last_used_at"])
    return passkey


@transaction.atomic
def passkey_sign_in(*, credential: dict[str, Any], now: datetime) -> User | None:
    """The account whose passkey answered a sign-in ceremony, its person verified; None
    when the answer does not hold. The ceremony is spent either way."""
    passkey = _assertion_pass(credential=credential, purposes=(Purpose.SIGN_IN,), now=now)
    return passkey.user if passkey is not None else None


@transaction.atomic
def passkey_second_step(*, user: User, credential: dict[str, Any], now: datetime) -> bool:
    """Whether `user`'s own passkey answered a ceremony begun for the second step (or
    for signing in: its person verified is more than enough)."""
    passkey = _assertion_pass(credential=credential, purposes=(Purpose.SECOND_STEP, Purpose.SIGN_IN), now=now)
    return passkey is not None and passkey.user_id == user.pk
