"""The account a request is signed in as, typed as the project's User, and the device it
comes from."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.exceptions import AuthenticationFailed, NotAuthenticated
from rest_framework.throttling import BaseThrottle

from accounts import passkeys, selectors
from accounts.devices import Device, device_of
from accounts.models import User
from accounts.passkeys import RelyingParty
from accounts.services import passkeys as passkeys_service
from accounts.services import second_factors


def signed_in_user(request: HttpRequest) -> User:
    """The account of a request that a view's authentication has let in.

    `request.user` is typed `User | AnonymousUser`; in a view that requires sign-in
    (DRF's default IsAuthenticated), the permission check has already refused anyone
    else, so this only narrows the type. Should a view that lets anyone in call it, an
    anonymous request is refused as the permission would have refused it.
    """
    user = request.user
    if not isinstance(user, User):
        raise NotAuthenticated
    return user


def request_device(request: HttpRequest) -> Device:
    """The client making `request`, as the person's list of sign-ins shows it: its
    User-Agent and its address (DRF's, through the trusted proxies: NUM_PROXIES)."""
    address = BaseThrottle().get_ident(request)  # type: ignore[arg-type]
    return device_of(user_agent=request.META.get("HTTP_USER_AGENT", ""), address=address)


def request_relying_party(request: HttpRequest) -> RelyingParty:
    """The relying party of passkeys asked for through `request` (accounts.passkeys)."""
    return passkeys.relying_party(
        host=request.get_host(),
        secure=request.is_secure(),
        rp_id=settings.WEBAUTHN_RP_ID,
        origins=[*settings.CORS_ALLOWED_ORIGINS, *settings.WEBAUTHN_ORIGINS],
    )


def second_step(user: User, code: str | None, passkey: dict[str, Any] | None = None) -> None:
    """The second step of signing in `user`, whose password was right: nothing for an
    account without two-step sign-in, else `code` must pass (the app's code of now, or an
    unused recovery code), or `passkey` (the account's own passkey's answer to
    `auth/passkey/options`): 401 `second_factor_required` or `wrong_second_factor`."""
    if not selectors.second_factor_on(user=user):
        return
    if not code and not passkey:
        raise AuthenticationFailed(
            _(
                "This account signs in in two steps: send the code of your authenticator app (or a recovery code), "
                "or use your passkey."
            ),
            code="second_factor_required",
        )
    now = timezone.now()
    passed = (
        passkeys_service.passkey_second_step(user=user, credential=passkey, now=now)
        if passkey
        else second_factors.second_factor_pass(user=user, code=code or "", now=now)
    )
    if not passed:
        raise AuthenticationFailed(
            _(
                "That is neither your authenticator app's code of now, nor an unused recovery code, nor your "
                "passkey's answer."
            ),
            code="wrong_second_factor",
        )
