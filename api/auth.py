"""The account a request is signed in as, typed as the project's User, and the device it
comes from."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils import timezone
from rest_framework.exceptions import AuthenticationFailed, NotAuthenticated
from rest_framework.throttling import BaseThrottle

from accounts import selectors
from accounts.devices import Device, device_of
from accounts.models import User
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


def second_step(user: User, code: str | None) -> None:
    """The second step of signing in `user`, whose password was right: nothing for an
    account without two-step sign-in, else `code` must pass (the app's code of now, or an
    unused recovery code): 401 `second_factor_required` or `wrong_second_factor`."""
    if not selectors.second_factor_on(user=user):
        return
    if not code:
        raise AuthenticationFailed(
            "This account signs in in two steps: send the code of your authenticator app (or a recovery code).",
            code="second_factor_required",
        )
    if not second_factors.second_factor_pass(user=user, code=code, now=timezone.now()):
        raise AuthenticationFailed(
            "That code is neither your authenticator app's code of now nor an unused recovery code.",
            code="wrong_second_factor",
        )
