"""The apps a person registers themselves, from Settings or over the API: public OAuth2
clients (authorization code with PKCE, no secret), each with its redirect URIs and the
scopes it may ask for. The person's alone: no app token reaches these."""

from __future__ import annotations

from django.conf import settings
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
from .serializers_my_apps import MadeAppChangeSerializer, MadeAppCreateSerializer, MadeAppSerializer
from .throttling import UserRateThrottle


class AppRegistrationThrottle(UserRateThrottle):
    """Registrations per person (`THROTTLE_APP_REGISTRATION`); reading the list is not counted."""

    scope = "app_registration"

    def get_rate(self) -> str:
        return str(settings.OAUTH_APP_REGISTRATION_RATE)

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.method != "POST":
            return True
        return super().allow_request(request, view)


@scopes(GET=None, POST=None)
class MadeAppsView(APIView):
    throttle_classes = [*APIView.throttle_classes, AppRegistrationThrottle]

    @extend_schema(responses=MadeAppSerializer(many=True), summary="The apps you registered")
    def get(self, request: Request) -> Response:
        apps = selectors.apps_made_by(user=signed_in_user(request))
        return Response(MadeAppSerializer(apps, many=True).data)

    @extend_schema(
        request=MadeAppCreateSerializer,
        responses={201: MadeAppSerializer},
        summary="Register an app of your own",
        description="A public client: it sends people to `/oauth/authorize/` with its `client_id` and a PKCE "
        "challenge (S256) and trades the code at `/oauth/token/`; it has no secret. The authorize page says "
        "you made it and where it sends people back. A guest cannot register apps; a person has at most "
        "`OAUTH_APPS_PER_PERSON` (10).",
    )
    @answers("too_many_apps", "invalid_redirect_uri", "guest_cannot_register_apps")
    @creates("the app (`me/apps/made/{app_id}`)")
    def post(self, request: Request) -> Response:
        data = MadeAppCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        app = services.made_app_create(
            user=signed_in_user(request),
            name=data.validated_data["name"],
            redirect_uris=data.validated_data["redirect_uris"],
            scope=data.validated_data["scopes"],
        )
        return created(request, MadeAppSerializer(app).data, "me-app-made", app_id=app.pk)


@scopes(GET=None, PATCH=None, DELETE=None)
class MadeAppView(APIView):
    @extend_schema(responses=MadeAppSerializer, summary="An app you registered")
    def get(self, request: Request, app_id: int) -> Response:
        app = selectors.app_made_by(user=signed_in_user(request), app_id=app_id)
        return Response(MadeAppSerializer(app).data)

    @extend_schema(
        request=MadeAppChangeSerializer,
        responses=MadeAppSerializer,
        summary="Change an app you registered",
        description="Its name, redirect URIs or scopes. Narrowed scopes end every token of the app that holds "
        "a scope it may no longer ask for: people allow it again.",
    )
    @answers("invalid_redirect_uri")
    def patch(self, request: Request, app_id: int) -> Response:
        data = MadeAppChangeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        app = services.made_app_update(
            user=signed_in_user(request),
            app_id=app_id,
            name=data.validated_data.get("name"),
            redirect_uris=data.validated_data.get("redirect_uris"),
            scope=data.validated_data.get("scopes"),
        )
        return Response(MadeAppSerializer(app).data)

    @extend_schema(
        request=None,
        responses={204: None},
        summary="Delete an app you registered",
        description="With every code and token it was given: they stop working at once.",
    )
    def delete(self, request: Request, app_id: int) -> Response:
        services.made_app_delete(user=signed_in_user(request), app_id=app_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
