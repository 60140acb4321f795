"""Passkeys (WebAuthn): added, named and removed by the person alone (an app's token
reaches none of it), and signing in with one, alone or as the second step after the
password. Each ceremony is two calls: its options, handed to the authenticator as they
are, then the authenticator's answer (docs/accounts.md)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors
from accounts.authentication import banned
from accounts.models import SignIn
from accounts.services import passkeys
from grants.scopes import scopes
from notifications.services import account_notices

from .auth import request_relying_party, signed_in_user
from .created import created, creates
from .schema import answers
from .serializers import TokenAnswerSerializer
from .serializers_accounts import PasswordSerializer
from .serializers_passkeys import (
    PasskeyAddedSerializer,
    PasskeyAddSerializer,
    PasskeyOptionsSerializer,
    PasskeyRenameSerializer,
    PasskeySerializer,
    PasskeySignInOptionsSerializer,
    PasskeySignInSerializer,
)
from .sign_in_limits import SignInLimits
from .views_auth import SignInThrottledView, signed_in
from .views_factors import FactorView


@scopes(GET=None, POST=None)
class PasskeysView(FactorView):
    @extend_schema(responses=PasskeySerializer(many=True), summary="Your passkeys")
    def get(self, request: Request) -> Response:
        return Response(PasskeySerializer(selectors.passkeys_of(user=signed_in_user(request)), many=True).data)

    @extend_schema(
        request=PasskeyAddSerializer,
        responses={201: PasskeyAddedSerializer},
        summary="Add a passkey",
        description="Keeps the passkey the authenticator made from `me/passkeys/options`. From now on it signs "
        "in alone (`auth/passkey`), and signing in with the password takes a second step. Your first second "
        "factor comes with recovery codes, shown this once. Your confirmed e-mail address is told.",
    )
    @answers("bad_passkey_answer", "passkey_added_already")
    @creates("the passkey (`me/passkeys/{id}`)")
    def post(self, request: Request) -> Response:
        data = PasskeyAddSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = signed_in_user(request)
        with transaction.atomic():
            passkey, codes = passkeys.passkey_add(
                user=user,
                credential=data.validated_data["credential"],
                name=data.validated_data.get("name", ""),
                now=timezone.now(),
            )
            account_notices.second_factor_changed_after_commit(user_id=user.pk, change="passkey_added")
        answer = {"passkey": PasskeySerializer(passkey).data, "recovery_codes": codes}
        return created(request, answer, "me-passkey", pk=passkey.pk)


@scopes(POST=None)
class PasskeyOptionsView(FactorView):
    @extend_schema(
        request=PasswordSerializer,
        responses=PasskeyOptionsSerializer,
        summary="Start adding a passkey",
        description="Proven with your password: the options to hand to the authenticator "
        "(`navigator.credentials.create({publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(publicKey)})`); "
        "send its answer to `POST me/passkeys`.",
    )
    @answers("wrong_password", "no_password")
    def post(self, request: Request) -> Response:
        data = PasswordSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        options = passkeys.add_options(
            user=signed_in_user(request),
            password=data.validated_data["password"],
            rp=request_relying_party(request),
            now=timezone.now(),
        )
        return Response({"publicKey": options})


@scopes(PATCH=None)
class PasskeyView(APIView):
    @extend_schema(request=PasskeyRenameSerializer, responses=PasskeySerializer, summary="Rename a passkey")
    def patch(self, request: Request, pk: int) -> Response:
        data = PasskeyRenameSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        passkey = passkeys.passkey_rename(user=signed_in_user(request), passkey_id=pk, name=data.validated_data["name"])
        return Response(PasskeySerializer(passkey).data)


@scopes(POST=None)
class PasskeyRemoveView(FactorView):
    @extend_schema(
        request=PasswordSerializer,
        responses={204: None},
        summary="Remove a passkey",
        description="Proven with your password. With your last second factor go the recovery codes, and the "
        "password alone signs in again. Your confirmed e-mail address is told.",
    )
    @answers("wrong_password", "no_password")
    def post(self, request: Request, pk: int) -> Response:
        data = PasswordSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = signed_in_user(request)
        with transaction.atomic():
            passkeys.passkey_remove(user=user, passkey_id=pk, password=data.validated_data["password"])
            account_notices.second_factor_changed_after_commit(user_id=user.pk, change="passkey_removed")
        return Response(status=204)


class PasskeySignInOptionsView(SignInThrottledView):
    @extend_schema(
        request=PasskeySignInOptionsSerializer,
        responses=PasskeyOptionsSerializer,
        summary="Start signing in with a passkey",
        description="The options to hand to the authenticator "
        "(`navigator.credentials.get({publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(publicKey)})`): "
        "any passkey of this site, the person picks theirs. Send its answer to `auth/passkey` (signing in "
        "alone) or, begun with `second_step`, to `auth/token` as `passkey` beside the username and password.",
    )
    def post(self, request: Request) -> Response:
        data = PasskeySignInOptionsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        options = passkeys.sign_in_options(
            rp=request_relying_party(request), now=timezone.now(), second_step=data.validated_data["second_step"]
        )
        return Response({"publicKey": options})


class PasskeySignInView(SignInThrottledView):
    @extend_schema(
        request=PasskeySignInSerializer,
        responses={200: TokenAnswerSerializer},
        summary="Sign in with a passkey",
        description="The account whose passkey answered `auth/passkey/options`, its person verified by the "
        "authenticator, signs in with no password or second step: a new sign-in's token, as `auth/token` "
        "gives. The options' challenge works once: a replayed answer is refused. Signing in to an account its "
        "owner closed, within its grace period, restores it.",
    )
    @answers("passkey_refused", "banned")
    def post(self, request: Request) -> Response:
        data = PasskeySignInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        with transaction.atomic():
            user = passkeys.passkey_sign_in(credential=data.validated_data["credential"], now=timezone.now())
        found = selectors.standing_of(user=user) if user is not None else None
        if found is not None and found.ban is not None:
            raise banned(*found.ban)
        if found is None or found.user is None:
            raise exceptions.AuthenticationFailed(
                _("That passkey's answer signs in nobody: start again, and pick a passkey of this site."),
                code="passkey_refused",
            )
        return signed_in(request, found, SignInLimits(request, found.user.username), SignIn.How.PASSKEY)
