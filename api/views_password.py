"""A person's password: changed when they know it, reset by a mailed link when they
forgot it. Either ends what a thief may hold: a change ends the other sign-ins and every
token that acts for the person unless they keep them; a reset ends them all."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors
from accounts.selectors import SignInRef
from accounts.services import passwords
from core.errors import ServiceError
from grants import services as grants
from grants.scopes import scopes
from notifications.services import account_notices, password_reset

from .auth import request_device, signed_in_user
from .schema import answers
from .serializers import AuthAnswerSerializer, UserSerializer
from .serializers_accounts import (
    DetailSerializer,
    PasswordChangeSerializer,
    PasswordResetRequestSerializer,
    PasswordResetSerializer,
    SignInsEndedSerializer,
)
from .throttling import ScopedRateThrottle
from .views_auth import SignInThrottledView

RESET_ASKED = gettext_lazy(
    "If an account has this confirmed e-mail address, a link to reset its password is on its way; it works once, "
    "for a short while."
)


@scopes(POST=None)
class PasswordChangeView(APIView):
    throttle_classes = [*APIView.throttle_classes, ScopedRateThrottle]
    throttle_scope = "password"

    @extend_schema(
        request=PasswordChangeSerializer,
        responses=SignInsEndedSerializer,
        summary="Change your password",
        description=(
            "Asks for the current password. Unless `sign_out_others` is false, every other sign-in of yours ends, "
            "and every personal token and app's access too (`ended` counts them); this sign-in stays. Your "
            "confirmed e-mail address is told. Limited per account (429 `throttled`)."
        ),
    )
    @answers("wrong_password", "weak_password", "no_password")
    def post(self, request: Request) -> Response:
        data = PasswordChangeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = signed_in_user(request)
        current = request.auth.id if isinstance(request.auth, SignInRef) else None
        sign_out = data.validated_data["sign_out_others"]
        with transaction.atomic():
            ended = passwords.password_change(
                user=user,
                current_password=data.validated_data["current_password"],
                new_password=data.validated_data["new_password"],
                sign_out_others=sign_out,
                keep=current,
            )
            if sign_out:
                ended += grants.grants_revoke_all(user=user)
            account_notices.password_changed_after_commit(user_id=user.pk)
        return Response({"ended": ended})


class PasswordResetRequestView(SignInThrottledView):
    throttle_scope = "password_reset"

    @extend_schema(
        request=PasswordResetRequestSerializer,
        responses={202: DetailSerializer},
        summary="Ask for a link to reset a forgotten password",
        description=(
            "Mails a link (`/reset-password#<token>`) to each account whose confirmed e-mail address this is. The "
            "answer is the same whether or not any account has it. Limited per requester (429 `throttled`) and "
            "per address (429 `reset_sent_recently`)."
        ),
    )
    @answers("reset_sent_recently")
    def post(self, request: Request) -> Response:
        data = PasswordResetRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        password_reset.reset_request(address=data.validated_data["email"])
        return Response({"detail": str(RESET_ASKED)}, status=status.HTTP_202_ACCEPTED)


class PasswordResetView(SignInThrottledView):
    @extend_schema(
        request=PasswordResetSerializer,
        responses=AuthAnswerSerializer,
        summary="Choose a new password with a reset link's token",
        description=(
            "The link works once and for a short while. Every sign-in of the account ends, and so does every "
            "token acting for it; the answer's token is this device's new sign-in."
        ),
    )
    @answers("bad_reset_token", "weak_password")
    def post(self, request: Request) -> Response:
        data = PasswordResetSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = selectors.user_of_reset_token(token=data.validated_data["token"])
        if user is None:
            raise ServiceError(
                "bad_reset_token",
                _("This link does not work (mistyped, used already or too old); ask for a new one."),
                400,
                "token",
            )
        with transaction.atomic():
            user, token = passwords.password_reset(
                user=user, new_password=data.validated_data["new_password"], device=request_device(request)
            )
            grants.grants_revoke_all(user=user)
            account_notices.password_changed_after_commit(user_id=user.pk)
        return Response({"user": UserSerializer(user).data, "token": token})
