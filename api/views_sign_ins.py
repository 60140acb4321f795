"""Where a person is signed in: each device's sign-in (`accounts.models.SignIn`), listed
and ended one by one or all but the caller's own. The person's alone: an app's token,
whatever its scopes, cannot reach these. Personal tokens (`me/tokens`) and allowed apps
(`me/apps`) have their own lists."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors
from accounts.selectors import SignInRef
from accounts.services import sign_ins
from grants.scopes import scopes

from .auth import signed_in_user
from .serializers_accounts import SignInsEndedSerializer, SignInSerializer


def _current(request: Request) -> SignInRef | None:
    return request.auth if isinstance(request.auth, SignInRef) else None


@scopes(GET=None, DELETE=None)
class SignInsView(APIView):
    @extend_schema(
        responses=SignInSerializer(many=True),
        summary="Where you are signed in",
        description="Every sign-in of your account (a device, a browser, an app signed in with your password), "
        "the latest first; `current` marks the one making this call.",
    )
    def get(self, request: Request) -> Response:
        sign_ins = selectors.sign_ins_of(user=signed_in_user(request))
        return Response(SignInSerializer(sign_ins, many=True, context={"current": _current(request)}).data)

    @extend_schema(
        request=None,
        responses={200: SignInsEndedSerializer},
        summary="Sign out everywhere else",
        operation_id="me_sign_ins_end_others",
        description="Ends every sign-in of your account but the one making this call: their tokens answer 401 "
        "from their next call. Personal tokens and allowed apps stay (`me/tokens`, `me/apps`).",
    )
    def delete(self, request: Request) -> Response:
        current = _current(request)
        ended = sign_ins.sign_ins_end(user=signed_in_user(request), keep=current.id if current else None)
        return Response({"ended": ended})


@scopes(DELETE=None)
class SignInView(APIView):
    @extend_schema(
        request=None,
        responses={204: None},
        summary="End a sign-in",
        description="Its token answers 401 from its next call. Ending your own is signing out (`auth/logout`).",
    )
    def delete(self, request: Request, sign_in_id: int) -> Response:
        sign_ins.sign_in_end(user=signed_in_user(request), sign_in_id=sign_in_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
