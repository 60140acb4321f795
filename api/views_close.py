"""A person closes their own account (privacy.closure): after their password, at once;
signing in again within the grace period takes it back."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors
from grants.scopes import scopes
from privacy import closure

from .auth import signed_in_user
from .schema import answers
from .serializers_accounts import ClosedSerializer, PasswordSerializer
from .throttling import ScopedRateThrottle


@scopes(POST=None)
class CloseView(APIView):
    throttle_classes = [*APIView.throttle_classes, ScopedRateThrottle]
    throttle_scope = "password"

    @extend_schema(
        request=PasswordSerializer,
        responses=ClosedSerializer,
        summary="Close your account",
        description=(
            "Asks for your password (a guest's account has none: its token is its proof). At once: every sign-in, "
            "token and app's access ends, no notice goes to you, your seats in open rooms go to computer players "
            "(a lobby frees them), and your confirmed address is told. Signing in with your password before "
            '`restorable_until` restores the account; after it, your names become "closed account N" and your '
            "address, password and settings are erased. Finished matches, ratings and others' logs stay."
        ),
    )
    @answers("wrong_password")
    def post(self, request: Request) -> Response:
        data = PasswordSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = closure.account_close(
            user=signed_in_user(request), password=data.validated_data["password"], now=timezone.now()
        )
        return Response({"closed_at": user.closed_at, "restorable_until": selectors.restorable_until(user=user)})
