"""Accounts: register, log in for a token, guest accounts, log out, me."""

from __future__ import annotations

from django.contrib.auth import logout
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, status
from rest_framework.authentication import BaseAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import banned_browser, selectors
from accounts.authentication import banned
from accounts.models import SignIn
from accounts.selectors import Credentials, SignInRef
from accounts.services import closure, registration, sign_ins
from games.services import play
from grants.scopes import READ, scopes
from notifications.services import account_notices

from .auth import request_device, second_step, signed_in_user
from .created import created, creates
from .schema import answers
from .serializers import (
    AuthAnswerSerializer,
    GuestSerializer,
    LoginSerializer,
    MeUpdateSerializer,
    RegisterSerializer,
    TokenAnswerSerializer,
    UserSerializer,
)
from .sign_in_limits import SignInLimits, signed_up
from .throttling import ScopedRateThrottle


class SignInThrottledView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[type[BaseAuthentication]] = []
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"

    def get_authenticate_header(self, request: Request) -> str:
        # Without authentication classes DRF would turn a failed login into a 403.
        return "Token"


def _browser_for_new_account(request: Request) -> str:
    """The mark of the browser making a new account (a new one for a browser without).
    A browser a banned account used, or was made from, makes no new account, guest or
    not, while the ban lasts: it is answered `banned` with the ban's reason
    (accounts.banned_browser)."""
    marked = banned_browser.marked_user_id(request)
    if marked is not None and (reason := selectors.ban_reason_of(user_id=marked)) is not None:
        raise banned(reason, marked)
    mark = banned_browser.browser_mark_of(request)
    if mark is not None and (ban := selectors.ban_of_browser_mark(mark=mark)) is not None:
        raise banned(*ban)
    return mark or banned_browser.browser_mark_new()


def _created_in(request: Request, mark: str, data: dict[str, object]) -> Response:
    answer = created(request, data, "me")
    banned_browser.browser_mark_set(answer, mark)
    return answer


class RegisterView(SignInThrottledView):
    @extend_schema(
        request=RegisterSerializer,
        responses={201: AuthAnswerSerializer},
        description=(
            "A new account and its first sign-in's token. A browser a banned account used (the `banned` answer "
            "marks it with an HTTP-only cookie) is answered `banned` while the ban lasts."
        ),
    )
    @answers(
        "username_taken",
        "username_confusable",
        "reserved_name",
        "bidi_control",
        "invisible_character",
        "weak_password",
        "banned",
    )
    @creates("the new account (`me`)")
    def post(self, request: Request) -> Response:
        data = RegisterSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        mark = _browser_for_new_account(request)
        wanted = {**data.validated_data}
        wanted.setdefault("language", request.LANGUAGE_CODE)
        user, token = registration.user_register(**wanted, device=request_device(request), browser_mark=mark)
        signed_up(request, user.username)
        return _created_in(request, mark, {"user": UserSerializer(user).data, "token": token})


class TokenView(SignInThrottledView):
    @extend_schema(
        request=LoginSerializer,
        responses={200: TokenAnswerSerializer},
        description=(
            "Besides the per-address limit, failed sign-ins count per account name and address, and per account "
            "name from addresses that never signed in to it (429 `throttled`; the rates: "
            "docs/operations/configuration.md): an address that "
            "signed in before is not kept out by an attack from others. An account with two-step sign-in also "
            "takes `code` or `passkey` (401 `second_factor_required` without either, `wrong_second_factor` with a "
            "wrong one; each counts as a failed sign-in). Signing in to an account its owner closed, within its "
            "grace period, restores it."
        ),
    )
    @answers("authentication_failed", "banned", "second_factor_required", "wrong_second_factor")
    def post(self, request: Request) -> Response:
        data = LoginSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        limits = SignInLimits(request, data.validated_data["username"])
        wait = limits.refused()
        if wait is not None:
            raise exceptions.Throttled(wait)
        wanted = data.validated_data
        found = selectors.credentials_check(username=wanted["username"], password=wanted["password"])
        if found.ban is not None:
            raise banned(*found.ban)
        if found.user is None:
            raise exceptions.AuthenticationFailed(_("Wrong username or password."))
        second_step(found.user, wanted.get("code"), wanted.get("passkey"))
        return signed_in(request, found, limits, SignIn.How.PASSWORD)


def signed_in(request: Request, found: Credentials, limits: SignInLimits, how: str) -> Response:
    """The answer to a sign-in that proved its account (`found`, not banned): a new
    sign-in's token. An account closed within its grace period is restored; a sign-in
    from an address new to the account is told to its confirmed address."""
    assert found.user is not None, "a sign-in that proved no account"
    from_a_new_place = not limits.known()
    limits.succeeded()
    if found.closed:
        # Its owner is back within the grace period: the account is theirs again.
        closure.account_restore(user=found.user)
    device = request_device(request)
    token = sign_ins.user_sign_in(user=found.user, now=timezone.now(), device=device, how=how)
    if from_a_new_place:
        # Told to the confirmed address: a sign-in its owner did not make is not a silent one.
        account_notices.new_sign_in_after_commit(user_id=found.user.pk, device=device.name, network=device.network)
    return Response({"token": token})


class GuestView(SignInThrottledView):
    @extend_schema(
        request=GuestSerializer,
        responses={201: AuthAnswerSerializer},
        description=(
            "A guest account for `display_name`, and its token. A browser a banned account used (the `banned` "
            "answer marks it with an HTTP-only cookie) is answered `banned` while the ban lasts."
        ),
    )
    @answers("reserved_name", "bidi_control", "invisible_character", "banned")
    @creates("the new account (`me`)")
    def post(self, request: Request) -> Response:
        data = GuestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        mark = _browser_for_new_account(request)
        user, token = registration.guest_create(
            display_name=data.validated_data["display_name"],
            language=data.validated_data.get("language", request.LANGUAGE_CODE),
            device=request_device(request),
            browser_mark=mark,
        )
        return _created_in(request, mark, {"user": UserSerializer(user).data, "token": token})


@scopes(POST=None)
class LogoutView(APIView):
    @extend_schema(
        request=None,
        responses={204: None},
        description=(
            "Ends the sign-in whose token made the call; the account's other sign-ins (other devices) stay "
            "(`me/sign-ins` ends those). Called with the site's session (the admin's, an authorize page's), it "
            "ends that session."
        ),
    )
    def post(self, request: Request) -> Response:
        user = signed_in_user(request)
        if isinstance(request.auth, SignInRef):
            sign_ins.sign_in_end(user=user, sign_in_id=request.auth.id)
        else:
            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


@scopes(GET=READ, PATCH=None)
class MeView(APIView):
    @extend_schema(responses=UserSerializer)
    def get(self, request: Request) -> Response:
        return Response(UserSerializer(signed_in_user(request)).data)

    @extend_schema(request=MeUpdateSerializer, responses=UserSerializer, summary="Change your own settings")
    @answers("display_name_too_soon", "username_confusable", "reserved_name", "bidi_control", "invisible_character")
    def patch(self, request: Request) -> Response:
        data = MeUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = signed_in_user(request)
        changes = data.validated_data
        # Both or neither: a refused name leaves the other setting as it was.
        with transaction.atomic():
            if "display_name" in changes:
                user = registration.display_name_change(
                    user=user, display_name=changes["display_name"], now=timezone.now()
                )
            settings = {name: changes[name] for name in registration.USER_SETTINGS if name in changes}
            user = registration.user_settings_update(user=user, **settings)
        if changes.get("auto_play_forced"):
            # A forced play already waiting is made now, not at its room's next change.
            play.forced_plays_make(user=user)
        return Response(UserSerializer(user).data)
