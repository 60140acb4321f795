"""A guest who likes the game keeps it: their guest account becomes an account with a
username and password (and, if they give one, an address), the same account, so that
their seats, matches, ratings, notices and sign-ins stay theirs."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.services import registration
from grants.scopes import scopes
from notifications.services import preferences

from .auth import signed_in_user
from .schema import answers
from .serializers import UserSerializer
from .serializers_accounts import GuestKeepSerializer
from .sign_in_limits import signed_up


@scopes(POST=None)
class GuestKeepView(APIView):
    @extend_schema(
        request=GuestKeepSerializer,
        responses=UserSerializer,
        summary="Keep a guest's account: give it a username and password",
        description=(
            "Only a guest's sign-in calls this. The account stays the same (its id, seats, matches, ratings, "
            "notices and sign-ins); it gains the username and password, a new display name if one is given, and "
            "the address for notices if one is given (a link to confirm it is mailed). All or nothing: a refused "
            "field changes nothing."
        ),
    )
    @answers(
        "not_a_guest",
        "username_taken",
        "username_confusable",
        "reserved_name",
        "bidi_control",
        "invisible_character",
        "weak_password",
        "display_name_too_soon",
        "bad_email_address",
        "email_domain_not_public",
    )
    def post(self, request: Request) -> Response:
        data = GuestKeepSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        wanted = data.validated_data
        with transaction.atomic():
            user = registration.guest_keep(
                user=signed_in_user(request),
                username=wanted["username"],
                password=wanted["password"],
                display_name=wanted.get("display_name"),
                now=timezone.now(),
            )
            if wanted.get("email_address"):
                preferences.preferences_update(user=user, changes={"email_address": wanted["email_address"]})
        signed_up(request, user.username)
        return Response(UserSerializer(user).data)
