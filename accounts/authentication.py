"""Token authentication over `accounts.selectors.user_for_token` (one prepared statement).

The same answers as DRF's TokenAuthentication: an unknown token or an inactive account
is refused at once; a token revoked by a ban says why.
"""

from __future__ import annotations

from typing import Any

from django.middleware import csrf
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from .models import User
from .selectors import SignInRef, ban_of_token, sign_in_of, user_for_token
from .services.sign_ins import sign_in_used


class Banned(exceptions.AuthenticationFailed):
    """A banned account's sign-in or token: the answer marks the browser
    (accounts.banned_browser), which names the account."""

    def __init__(self, reason: str, user_id: int) -> None:
        super().__init__(
            # Translators: the reason is the moderator's own words, as written.
            _("This account is banned. The moderator's reason: %(reason)s") % {"reason": reason},
            code="banned",
        )
        self.user_id = user_id


def banned(reason: str, user_id: int) -> Banned:
    """The answer to a banned account's sign-in or token: code `banned`, with the reason."""
    return Banned(reason, user_id)


class TokenAuthentication(authentication.TokenAuthentication):
    """`Authorization: Token <key>`, as DRF's, answered by one prepared statement.

    A view that reads the token's account itself, in the statement of what it reads
    anyway, says so with a method `token_user_with_read(key)` (api/table_auth.py); its
    account is taken when it is an active one. Any other answer is looked up here again,
    so that every refusal is the one below.
    """

    # The view of the request being authenticated (DRF makes an instance per request).
    view: Any = None

    def authenticate(self, request: Request) -> tuple[User, Any] | None:
        self.view = (request.parser_context or {}).get("view")
        return super().authenticate(request)

    def authenticate_credentials(self, key: str) -> tuple[User, SignInRef | None]:
        with_read = getattr(self.view, "token_user_with_read", None)
        user = with_read(key) if with_read is not None else None
        if user is None or not user.is_active:
            user = user_for_token(key=key)
        if user is None:
            # Only a failed lookup pays for this one: a token revoked by a ban says why.
            ban = ban_of_token(key=key)
            if ban is not None:
                raise banned(*ban)
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not user.is_active:
            if user.banned_at is not None:
                raise banned(user.ban_reason, user.pk)
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        # `request.auth` is the sign-in the token is (the sign-ins list marks it as the caller's).
        ref = sign_in_of(user)
        if ref is not None:
            sign_in_used(ref=ref, now=timezone.now())
        return user, ref


class SessionAuthentication(authentication.SessionAuthentication):
    """A signed-in browser's session, as DRF's, whose CSRF refusal is said in the
    request's language. DRF answers Django's own reason ("CSRF Failed: CSRF token
    missing."), marked for no catalogue, and quoting the request's Origin or Referer."""

    def enforce_csrf(self, request: Request) -> None:
        try:
            super().enforce_csrf(request)
        except exceptions.PermissionDenied as refused:
            raise exceptions.PermissionDenied(csrf_refusal(str(refused.detail))) from None


def csrf_refusal(detail: str) -> str:
    """Django's CSRF reason (after DRF's "CSRF Failed: "), said in the request's
    language without what the request sent."""
    reason = detail.removeprefix("CSRF Failed: ")
    if reason.startswith(("Origin checking failed", "Referer checking failed")):
        return _("Refused: the request comes from a page of another site (its Origin or Referer is not this site's).")
    if reason == csrf.REASON_NO_CSRF_COOKIE:
        return _(
            "Refused: a signed-in browser's request needs the CSRF cookie (csrftoken), which any page of the site sets."
        )
    if reason == csrf.REASON_CSRF_TOKEN_MISSING:
        return _(
            "Refused: a signed-in browser's request needs its CSRF token, the csrftoken cookie's value, "
            "in the X-CSRFToken header."
        )
    return _("Refused: the request's CSRF token is not the one its csrftoken cookie holds.")
