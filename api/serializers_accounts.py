"""Request and answer shapes of what a person does with their own account: where they
are signed in (`me/sign-ins`), their password, their display name."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from accounts.models import SignIn
from accounts.selectors import SignInRef

from .serializers import DisplayNameField, RegisterSerializer, StrictBooleanField, StrictCharField, StrictSerializer


class SignInSerializer(serializers.ModelSerializer[SignIn]):
    current = serializers.SerializerMethodField(help_text="Whether this is the sign-in that made this call")

    class Meta:
        model = SignIn
        fields: tuple[str, ...] = ("id", "how", "device", "address", "created_at", "last_used_at", "current")
        read_only_fields: tuple[str, ...] = fields
        extra_kwargs = {
            "id": {"help_text": "For `DELETE me/sign-ins/{id}`"},
            "how": {"help_text": "How it began"},
            "device": {
                "help_text": "The browser and system its client named (`Firefox on Android`), or the client's own "
                "name; empty when it sent none"
            },
            "address": {"help_text": "The network of the address it began from (a /24 of IPv4, a /48 of IPv6)"},
            "created_at": {"help_text": "When it began"},
            "last_used_at": {"help_text": "Its latest call, to the minute; null before its first"},
        }

    def get_current(self, sign_in: SignIn) -> bool:
        ref: Any = self.context.get("current")
        return isinstance(ref, SignInRef) and ref.id == sign_in.pk


class SignInsEndedSerializer(serializers.Serializer[Any]):
    ended = serializers.IntegerField(help_text="How many sign-ins (or, for a new password, tokens too) ended")


class PasswordChangeSerializer(StrictSerializer):
    current_password = StrictCharField(max_length=128, write_only=True, allow_blank=True)
    new_password = StrictCharField(max_length=128, write_only=True)
    sign_out_others = StrictBooleanField(
        required=False,
        default=True,
        help_text="End every other sign-in of yours, and every personal token and app's access (the default); "
        "false keeps them",
    )


class PasswordResetRequestSerializer(StrictSerializer):
    email = StrictCharField(max_length=254, help_text="The account's confirmed e-mail address")


class PasswordResetSerializer(StrictSerializer):
    token = StrictCharField(max_length=200, help_text="The token of the mailed link (after `#`)")
    new_password = StrictCharField(max_length=128, write_only=True)


class DetailSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField(help_text="What happens next, for the person to read")


class GuestKeepSerializer(RegisterSerializer):
    """A guest's username, password and, optionally, a display name and the address for
    notices (and password resets, once confirmed)."""

    display_name = DisplayNameField(
        min_length=1, max_length=40, required=False, help_text="The name other players read; unchanged without it"
    )
    email_address = StrictCharField(
        required=False,
        max_length=254,
        help_text="Where notices and password-reset links go, once confirmed by the link mailed to it",
    )
    # The guest's account has its language already (`me`).
    language = None  # type: ignore[assignment]


class PasswordSerializer(StrictSerializer):
    password = StrictCharField(max_length=128, write_only=True, allow_blank=True, help_text="Your current password")


class CodeSerializer(StrictSerializer):
    code = StrictCharField(max_length=20, help_text="The 6 digits the authenticator app shows now")


class FactorsSerializer(serializers.Serializer[Any]):
    totp = serializers.BooleanField(help_text="Whether signing in takes a code from an authenticator app")
    passkeys = serializers.IntegerField(help_text="How many passkeys you have (`me/passkeys`)")
    recovery_codes_left = serializers.IntegerField(help_text="Unused recovery codes")


class TotpSetupSerializer(serializers.Serializer[Any]):
    secret = serializers.CharField(help_text="The key, in base 32, for an app that cannot read the QR code")
    otpauth_uri = serializers.CharField(help_text="The `otpauth://` URI the QR code holds")
    qr_svg_data_uri = serializers.CharField(help_text="The QR code as an SVG `data:` URI, for an `<img>`")


class RecoveryCodesSerializer(serializers.Serializer[Any]):
    recovery_codes = serializers.ListField(
        child=serializers.CharField(),
        help_text="Each signs in once in place of the app's code; shown this once, only their digests are kept",
    )


class ClosedSerializer(serializers.Serializer[Any]):
    closed_at = serializers.DateTimeField()
    restorable_until = serializers.DateTimeField(
        help_text="Signing in with the password before this restores the account; after it, its personal data is "
        "erased for good"
    )
