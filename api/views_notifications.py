"""Notifications while a player is away: the server's push key, the caller's browsers'
push subscriptions, and what the caller wants sent (docs/notifications.md)."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from grants.scopes import NOTIFICATIONS, scopes
from notifications import selectors, vapid
from notifications.services import confirmation, preferences, subscriptions

from .auth import signed_in_user
from .schema import answers
from .serializers_notifications import (
    EmailConfirmationAnswerSerializer,
    EmailConfirmationResendSerializer,
    EmailConfirmationTokenSerializer,
    NotificationSettingsChangeSerializer,
    NotificationSettingsSerializer,
    PushEndpointSerializer,
    PushKeyAnswerSerializer,
    PushSubscriptionAnswerSerializer,
    PushSubscriptionSerializer,
)


@scopes(GET=NOTIFICATIONS)
class PushKeyView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses=PushKeyAnswerSerializer,
        summary="The server's VAPID public key, for PushManager.subscribe",
        description="`applicationServerKey` for the browser's `PushManager.subscribe()`; null while push is off.",
    )
    def get(self, request: Request) -> Response:
        return Response({"public_key": vapid.public_key()})


@scopes(POST=NOTIFICATIONS, DELETE=NOTIFICATIONS)
class PushSubscriptionsView(APIView):
    @extend_schema(
        request=PushSubscriptionSerializer,
        responses={201: PushSubscriptionAnswerSerializer, 200: PushSubscriptionAnswerSerializer},
        summary="Register this browser's push subscription",
        description=(
            "The body is the browser's `PushSubscription.toJSON()`. 201 for an endpoint new to the caller, "
            "200 when it was already the caller's (its keys are updated). An endpoint another account "
            "registered stays theirs (409 `push_endpoint_taken`) unless the body carries the same keys, which "
            "only the browser holding the subscription has: then it moves to the caller (201). The endpoint "
            "must be an https URL of a public host on port 443; IP addresses of private, loopback, link-local "
            "or other special-purpose networks are refused, however spelt."
        ),
    )
    @answers("bad_push_endpoint", "bad_push_key", "push_endpoint_taken", "too_many_push_subscriptions")
    def post(self, request: Request) -> Response:
        data = PushSubscriptionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        body = data.validated_data
        subscription, created = subscriptions.push_subscription_save(
            user=signed_in_user(request),
            endpoint=body["endpoint"],
            p256dh=body["keys"]["p256dh"],
            auth=body["keys"]["auth"],
            expiration_ms=body.get("expirationTime"),
        )
        answer = PushSubscriptionAnswerSerializer(subscription).data
        return Response(answer, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)

    @extend_schema(
        request=PushEndpointSerializer,
        responses={204: None},
        summary="Remove one of the caller's push subscriptions",
        description="The body names the subscription by its endpoint; 404 when the caller has none with it.",
    )
    @answers("not_found")
    def delete(self, request: Request) -> Response:
        data = PushEndpointSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        subscriptions.push_subscription_delete(user=signed_in_user(request), endpoint=data.validated_data["endpoint"])
        return Response(status=status.HTTP_204_NO_CONTENT)


@scopes(GET=NOTIFICATIONS, PATCH=NOTIFICATIONS)
class NotificationSettingsView(APIView):
    @extend_schema(
        responses=NotificationSettingsSerializer,
        summary="What is sent to the caller while away",
        description=(
            "A turn that waits for the caller more than a minute while no `ws/me/` socket of theirs is open is "
            "told once, by push and by e-mail as chosen here (several rooms at once make one digest), except "
            "inside the quiet period. `email_address` is the account's own address until one is set here; "
            "e-mail notices go to it only once `email_confirmed`, that is once the link mailed to it was opened "
            "(`POST email-confirmations`)."
        ),
    )
    def get(self, request: Request) -> Response:
        return Response(selectors.preferences_of(user=signed_in_user(request)).as_dict())

    @extend_schema(
        request=NotificationSettingsChangeSerializer,
        responses=NotificationSettingsSerializer,
        summary="Change any of the caller's notification settings",
        description=(
            "Fields left out stay as they are; the answer is the whole new settings. A new `email_address` that "
            "is not confirmed yet is mailed a link to confirm it (after the answer, by the worker), unless a link "
            "went to the account less than EMAIL_CONFIRMATION_RESEND_SECONDS ago: the address is saved all the "
            "same, and `POST me/notifications/email-confirmation` sends the link later."
        ),
    )
    @answers("bad_email_address", "email_domain_not_public", "bad_time", "bad_time_zone", "quiet_period_empty")
    def patch(self, request: Request) -> Response:
        data = NotificationSettingsChangeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        changed = preferences.preferences_update(user=signed_in_user(request), changes=dict(data.validated_data))
        return Response(changed.as_dict())


@scopes(POST=NOTIFICATIONS)
class EmailConfirmationRequestView(APIView):
    @extend_schema(
        request=EmailConfirmationResendSerializer,
        responses={202: NotificationSettingsSerializer},
        summary="Mail the link that confirms the caller's e-mail address again",
        description=(
            "No body (or `{}`). Queues a mail to the caller's current `email_address` with a link that confirms "
            "it (valid for EMAIL_CONFIRMATION_MAX_AGE_SECONDS, three days unless configured); the answer is the "
            "settings. At most one link per EMAIL_CONFIRMATION_RESEND_SECONDS (five minutes unless configured) "
            "goes to an account, this endpoint and changes of address together, and at most "
            "EMAIL_CONFIRMATION_ADDRESS_MAX (3) per EMAIL_CONFIRMATION_ADDRESS_SECONDS (a day) to one address, "
            "from all accounts together."
        ),
    )
    @answers("no_email_address", "email_unavailable", "already_confirmed", "confirmation_sent_recently")
    def post(self, request: Request) -> Response:
        EmailConfirmationResendSerializer(data=request.data).is_valid(raise_exception=True)
        wanted = confirmation.confirmation_resend(user=signed_in_user(request), now=timezone.now())
        return Response(wanted.as_dict(), status=status.HTTP_202_ACCEPTED)


@scopes(POST=NOTIFICATIONS)
class EmailConfirmationView(APIView):
    # The link may be opened on any device, signed in or not: the token says who.
    permission_classes = [AllowAny]

    @extend_schema(
        request=EmailConfirmationTokenSerializer,
        responses=EmailConfirmationAnswerSerializer,
        summary="Confirm an e-mail address with the token of the link mailed to it",
        description=(
            "The token is what follows `#` in the link. It confirms the address it was made for while that is "
            "still its account's `email_address` and the token is younger than EMAIL_CONFIRMATION_MAX_AGE_SECONDS; "
            "a token confirmed already confirms again. Any other token answers `bad_confirmation_token`, the same "
            "whatever is wrong with it."
        ),
    )
    @answers("bad_confirmation_token", "address_of_banned_account")
    def post(self, request: Request) -> Response:
        data = EmailConfirmationTokenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        address = confirmation.email_confirm(token=data.validated_data["token"])
        return Response(EmailConfirmationAnswerSerializer({"email_address": address, "confirmed": True}).data)
