"""Two-step sign-in: an authenticator app's codes (TOTP) asked after the password, and
recovery codes for a lost phone. Turned on and off by the person alone, who proves it
with their password each time; an app's token reaches none of it. Signing in with it is
`auth/token` with `code` (docs/accounts.md)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import factors, selectors
from accounts.services import second_factors
from grants.scopes import scopes
from notifications.services import account_notices

from .auth import signed_in_user
from .schema import answers
from .serializers_accounts import (
    CodeSerializer,
    FactorsSerializer,
    PasswordSerializer,
    RecoveryCodesSerializer,
    TotpSetupSerializer,
)
from .throttling import ScopedRateThrottle


class FactorView(APIView):
    """A change to how the account signs in. Each call checks the password or a code (or
    a passkey): limited as a password change is."""

    throttle_classes = [*APIView.throttle_classes, ScopedRateThrottle]
    throttle_scope = "password"


@scopes(GET=None)
class FactorsView(APIView):
    @extend_schema(responses=FactorsSerializer, summary="Your two-step sign-in")
    def get(self, request: Request) -> Response:
        return Response(FactorsSerializer(selectors.factors_of(user=signed_in_user(request))).data)


@scopes(POST=None)
class TotpBeginView(FactorView):
    @extend_schema(
        request=PasswordSerializer,
        responses=TotpSetupSerializer,
        summary="Start setting up an authenticator app",
        description="A new secret for the app, not in force until `me/factors/totp/confirm` sends a code of it.",
    )
    @answers("wrong_password", "no_password", "totp_on_already")
    def post(self, request: Request) -> Response:
        data = PasswordSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = signed_in_user(request)
        secret = second_factors.totp_begin(user=user, password=data.validated_data["password"])
        uri = factors.otpauth_uri(secret, user.username)
        return Response({"secret": secret, "otpauth_uri": uri, "qr_svg_data_uri": factors.qr_data_uri(uri)})


@scopes(POST=None)
class TotpConfirmView(FactorView):
    @extend_schema(
        request=CodeSerializer,
        responses=RecoveryCodesSerializer,
        summary="Turn two-step sign-in on with a code of the app",
        description="From now on signing in takes a code besides the password. The answer's recovery codes are "
        "shown this once. Your confirmed e-mail address is told.",
    )
    @answers("wrong_code", "no_totp_setup")
    def post(self, request: Request) -> Response:
        data = CodeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = signed_in_user(request)
        with transaction.atomic():
            codes = second_factors.totp_confirm(user=user, code=data.validated_data["code"], now=timezone.now())
            account_notices.second_factor_changed_after_commit(user_id=user.pk, change="totp_on")
        return Response({"recovery_codes": codes})


@scopes(POST=None)
class TotpOffView(FactorView):
    @extend_schema(
        request=PasswordSerializer,
        responses=FactorsSerializer,
        summary="Turn two-step sign-in off",
        description="The password alone signs in again; the recovery codes stop working. Your confirmed e-mail "
        "address is told.",
    )
    @answers("wrong_password", "no_password")
    def post(self, request: Request) -> Response:
        data = PasswordSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = signed_in_user(request)
        with transaction.atomic():
            second_factors.totp_off(user=user, password=data.validated_data["password"])
            account_notices.second_factor_changed_after_commit(user_id=user.pk, change="totp_off")
        return Response(FactorsSerializer(selectors.factors_of(user=user)).data)


@scopes(POST=None)
class RecoveryCodesView(FactorView):
    @extend_schema(
        request=PasswordSerializer,
        responses=RecoveryCodesSerializer,
        summary="New recovery codes",
        description="The old ones stop working; the new ones are shown this once.",
    )
    @answers("wrong_password", "no_password", "totp_off")
    def post(self, request: Request) -> Response:
        data = PasswordSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        codes = second_factors.recovery_codes_renew(
            user=signed_in_user(request), password=data.validated_data["password"]
        )
        return Response({"recovery_codes": codes})
