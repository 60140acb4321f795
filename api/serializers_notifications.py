"""Request and answer shapes of the notification endpoints: push subscriptions as the
browser's `PushSubscription.toJSON()` writes them, and a player's notification settings.

The fields check types and lengths; what a value must be beyond that (a public https
endpoint, a point of P-256, an address, a time zone) is the services' to say, with
their own codes, so that any caller of a service meets the same rules."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from notifications.addresses import EMAIL_MAX
from notifications.endpoints import ENDPOINT_MAX
from notifications.quiet import TIMEZONE_MAX
from notifications.services.subscriptions import EXPIRATION_MAX_MS

from .serializers import StrictBooleanField, StrictCharField, StrictSerializer

HH_MM_PATTERN = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"
# A signed token for a 254-character address is under 450 characters.
TOKEN_MAX = 512


@extend_schema_field(
    {
        "type": ["number", "null"],
        "minimum": 0,
        "maximum": EXPIRATION_MAX_MS,
        "description": "When the subscription expires, in milliseconds since 1970; null if it does not",
    }
)
class ExpirationTimeField(serializers.Field[float | None, float | None, float | None, Any]):
    """A JSON number or null, as browsers write `expirationTime`."""

    default_error_messages = {"invalid": gettext_lazy("Send null or a number of milliseconds since 1970.")}

    def to_internal_value(self, data: Any) -> float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        return data

    def to_representation(self, value: float | None) -> float | None:
        return value


@extend_schema_field({"type": "string", "pattern": HH_MM_PATTERN, "example": "22:00"})
class TimeOfDayField(StrictCharField):
    """HH:MM; the service answers a time it cannot read (`bad_time`)."""


class PushKeysSerializer(StrictSerializer):
    p256dh = StrictCharField(max_length=130, help_text="The browser's P-256 public key, base64url (65 bytes)")
    auth = StrictCharField(max_length=32, help_text="The browser's auth secret, base64url (16 bytes)")


class PushSubscriptionSerializer(StrictSerializer):
    endpoint = StrictCharField(max_length=ENDPOINT_MAX, help_text="The push service's URL for this browser (https)")
    expirationTime = ExpirationTimeField(required=False, allow_null=True)
    keys = PushKeysSerializer()


class PushEndpointSerializer(StrictSerializer):
    endpoint = StrictCharField(max_length=ENDPOINT_MAX, help_text="The endpoint of the subscription to remove")


class PushSubscriptionAnswerSerializer(serializers.Serializer[Any]):
    endpoint = serializers.CharField()
    created_at = serializers.DateTimeField(help_text="When this account registered the endpoint")


class PushKeyAnswerSerializer(serializers.Serializer[Any]):
    public_key = serializers.CharField(
        allow_null=True,
        help_text="The VAPID application server key (base64url, no padding) to subscribe with; null while push is off",
    )


class QuietSerializer(StrictSerializer):
    start = TimeOfDayField(max_length=5, help_text="Local time the quiet period starts, HH:MM")
    end = TimeOfDayField(max_length=5, help_text="Local time it ends (the next day when earlier than start), HH:MM")
    timezone = StrictCharField(max_length=TIMEZONE_MAX, help_text="An IANA time zone, such as Europe/Paris")


class NotificationSettingsChangeSerializer(StrictSerializer):
    push = StrictBooleanField(required=False, help_text="Web Push notices, to every subscribed browser")
    email = StrictBooleanField(required=False, help_text="E-mail notices, when there is an address")
    email_address = StrictCharField(
        required=False, allow_blank=True, max_length=EMAIL_MAX, help_text="Where e-mail notices go; empty for nowhere"
    )
    quiet = QuietSerializer(
        required=False, allow_null=True, help_text="When nothing is sent (in the player's time zone); null for never"
    )


class QuietAnswerSerializer(serializers.Serializer[Any]):
    start = serializers.CharField()
    end = serializers.CharField()
    timezone = serializers.CharField()


class NotificationSettingsSerializer(serializers.Serializer[Any]):
    push = serializers.BooleanField()
    email = serializers.BooleanField()
    email_address = serializers.CharField(help_text="Where e-mail notices go; empty for nowhere")
    email_confirmed = serializers.BooleanField(
        help_text="Whether the link mailed to email_address was opened; e-mail notices go only to a confirmed one"
    )
    email_available = serializers.BooleanField(
        help_text="Whether this server e-mails players at all (it has a mailer, and its own address for the links "
        "mails carry); false: no notice and no confirmation link is ever e-mailed"
    )
    quiet = QuietAnswerSerializer(allow_null=True)


class EmailConfirmationResendSerializer(StrictSerializer):
    """No field: the link goes to the account's current address."""


class EmailConfirmationTokenSerializer(StrictSerializer):
    token = StrictCharField(max_length=TOKEN_MAX, help_text="The token of the link mailed (after its #)")


class EmailConfirmationAnswerSerializer(serializers.Serializer[Any]):
    email_address = serializers.CharField(help_text="The address now confirmed")
    confirmed = serializers.BooleanField()
