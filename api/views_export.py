"""Download my data (privacy.exports): asked for by the person, mailed as a link that
works once. The archive's shape is `privacy/export.schema.json`."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.authentication import BaseAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from grants.scopes import scopes
from privacy import exports

from .auth import signed_in_user
from .schema import answers
from .serializers_accounts import DetailSerializer

ASKED = gettext_lazy(
    "The archive of your data is being made; a link to download it is on its way to your confirmed address."
)


@scopes(POST=None)
class ExportRequestView(APIView):
    @extend_schema(
        request=None,
        responses={202: DetailSerializer},
        summary="Ask for everything the server holds about you",
        description=(
            "A task makes the archive (JSON, as `privacy/export.schema.json` in the repository describes it: the "
            "account, settings, sign-ins and tokens without their secrets, every match with your own actions and "
            "the events you could see, ratings, moderation entries about you) and mails a link to your confirmed "
            "address; the link works once, for EXPORT_LINK_DAYS. At most one request per EXPORT_INTERVAL_SECONDS."
        ),
    )
    @answers("no_confirmed_address", "export_requested_recently")
    def post(self, request: Request) -> Response:
        exports.export_request(user=signed_in_user(request), now=timezone.now())
        return Response({"detail": str(ASKED)}, status=status.HTTP_202_ACCEPTED)


class ExportDownloadView(APIView):
    # The mailed link's token is its only credential: a browser opens it with no other.
    permission_classes = [AllowAny]
    authentication_classes: list[type[BaseAuthentication]] = []

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT},
        summary="Download the archive a mailed link names",
        description="Works once: the archive is handed out and emptied. Sent as a JSON attachment.",
    )
    @answers("export_gone")
    def get(self, request: Request, token: str) -> Response:
        archive = exports.export_download(token=token, now=timezone.now())
        made = str(archive.get("made_at", ""))[:10]
        return Response(
            archive, headers={"Content-Disposition": f'attachment; filename="trick-tables-data-{made}.json"'}
        )
