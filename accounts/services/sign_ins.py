"""Writes: sign-ins (one per device, accounts.models.SignIn) made, used and ended, and
the digests a ban keeps of them."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext

from core.errors import ServiceError

from ..devices import Device
from ..models import BannedToken, SignIn, User
from ..selectors import SignInRef

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
        raise ServiceError("not_found", gettext("You have no such sign-in."), 404)


def sign_ins_end(*, user: User, keep: int | None = None) -> int:
    """End every sign-in of the account but `keep` (the caller's own, when it is one);
    how many ended."""
    sign_ins = SignIn.objects.filter(user=user)
    if keep is not None:
        sign_ins = sign_ins.exclude(pk=keep)
    ended, _ = sign_ins.delete()
    return ended


def user_sign_in(*, user: User, now: datetime, device: Device | None = None, how: str = SignIn.How.PASSWORD) -> str:
    """A new sign-in of the account with its password (or its passkey), which counts as
    its last login (the admin shows it, as it does for sign-ins to the admin itself); its
    token."""
    User.objects.filter(pk=user.pk).update(last_login=now)
    return sign_in_create(user=user, how=how, device=device)


@transaction.atomic
def tokens_revoke_for_ban(*, user: User, others: Sequence[str] = ()) -> None:
    """End the account's sign-ins and sessions, keeping the digests of their tokens and
    of `others` (the SHA-256 digests of the account's other tokens, which the caller
    ends) so that each answers `banned` with the reason while the ban lasts (see
    BannedToken). Unbanning forgets the digests and brings back none of them."""
    digests = [*SignIn.objects.filter(user=user).values_list("digest", flat=True), *others]
    BannedToken.objects.bulk_create(
        [BannedToken(digest=digest, user=user) for digest in digests], ignore_conflicts=True
    )
    sign_ins_end(user=user)
    sessions_end(user=user)


def sessions_end(*, user: User) -> None:
    """End every session of the account (the admin's, an authorize page's): their hash no
    longer matches (User.get_session_auth_hash)."""
    user.sessions_epoch = F("sessions_epoch") + 1
    # Saved (not updated) so that the account's sockets hear of it (api/credential_ends.py).
    user.save(update_fields=["sessions_epoch"])
    user.refresh_from_db(fields=["sessions_epoch"])


def banned_tokens_forget(*, user: User) -> None:
    BannedToken.objects.filter(user=user).delete()
