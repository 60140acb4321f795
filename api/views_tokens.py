"""What a player lets act for them: their personal access tokens (made, listed, revoked)
and the apps they allowed through OAuth2 (listed, revoked). The player's alone: an app's
token, whatever its scopes, cannot reach these."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from grants import selectors, services
from grants.scopes import scopes

from .auth import signed_in_user
from .created import created, creates
from .schema import answers
from .serializers_tokens import (
    AllowedAppSerializer,
    PersonalTokenCreatedSerializer,
    PersonalTokenCreateSerializer,
    PersonalTokenSerializer,
)


@scopes(GET=None, POST=None)
class PersonalTokensView(APIView):
    @extend_schema(responses=PersonalTokenSerializer(many=True), summary="Your personal access tokens")
    def get(self, request: Request) -> Response:
        tokens = selectors.personal_tokens_of(user=signed_in_user(request))
        return Response(PersonalTokenSerializer(tokens, many=True).data)

    @extend_schema(
        request=PersonalTokenCreateSerializer,
        responses={201: PersonalTokenCreatedSerializer},
        summary="Make a personal access token",
        description="The answer holds the token's secret, this once: only a digest of it is kept.",
    )
    @answers("too_many_tokens")
    @creates("the token (`me/tokens/{token_id}`)")
    def post(self, request: Request) -> Response:
        data = PersonalTokenCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        token, secret = services.personal_token_create(
            user=signed_in_user(request), name=data.validated_data["name"], scope=data.validated_data["scopes"]
        )
        answer = PersonalTokenCreatedSerializer(token, context={"secret": secret})
        return created(request, answer.data, "me-token", token_id=token.id)


@scopes(DELETE=None)
class PersonalTokenView(APIView):
    @extend_schema(request=None, responses={204: None}, summary="Revoke a personal access token")
    def delete(self, request: Request, token_id: int) -> Response:
        services.personal_token_revoke(user=signed_in_user(request), token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


@scopes(GET=None)
class AllowedAppsView(APIView):
    @extend_schema(
        responses=AllowedAppSerializer(many=True),
        summary="The apps you allowed to act for you",
        description="Those that still hold a working token of yours (OAuth2).",
    )
    def get(self, request: Request) -> Response:
        apps = selectors.apps_allowed_by(user=signed_in_user(request))
        return Response(AllowedAppSerializer(apps, many=True).data)


@scopes(DELETE=None)
class AllowedAppView(APIView):
    @extend_schema(
        request=None,
        responses={204: None},
        summary="Take back an app's access",
        description="Every token the app holds for you stops working at once; it must ask you again.",
    )
    def delete(self, request: Request, app_id: int) -> Response:
        services.app_access_revoke(user=signed_in_user(request), app_id=app_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
