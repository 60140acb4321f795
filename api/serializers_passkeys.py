"""Request and answer shapes of passkeys: the options handed to the authenticator, the
calls that carry its answers (api/serializers_webauthn.py), and a kept passkey as its
owner sees it."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.models import Passkey

from .serializers import StrictBooleanField, StrictCharField, StrictSerializer
from .serializers_webauthn import PasskeyAssertionSerializer, PasskeyAttestationSerializer


@extend_schema_field(OpenApiTypes.OBJECT)
class WebAuthnOptionsField(serializers.DictField):
    """Options as WebAuthn's JSON writes them, for `PublicKeyCredential.parseCreationOptionsFromJSON()`
    or `parseRequestOptionsFromJSON()` (or a platform's passkey API)."""


class PasskeyOptionsSerializer(serializers.Serializer[Any]):
    publicKey = WebAuthnOptionsField(
        help_text="`PublicKeyCredentialCreationOptionsJSON` (adding) or `PublicKeyCredentialRequestOptionsJSON` "
        "(signing in): hand it to the authenticator as it is. Its challenge works once, for a few minutes."
    )


class PasskeyAddSerializer(StrictSerializer):
    credential = PasskeyAttestationSerializer(help_text="The authenticator's answer to `me/passkeys/options`")
    name = StrictCharField(
        max_length=60, required=False, allow_blank=True, help_text="What to call it in your list (`Work laptop`)"
    )


class PasskeyRenameSerializer(StrictSerializer):
    name = StrictCharField(max_length=60, min_length=1)


class PasskeySignInOptionsSerializer(StrictSerializer):
    second_step = StrictBooleanField(
        required=False,
        default=False,
        help_text="For the second step after a password (`auth/token` with `passkey`): presence is enough. "
        "Without it, the passkey signs in alone (`auth/passkey`) and the authenticator must verify its person.",
    )


class PasskeySignInSerializer(StrictSerializer):
    credential = PasskeyAssertionSerializer(help_text="The authenticator's answer to `auth/passkey/options`")


class PasskeySerializer(serializers.ModelSerializer[Passkey]):
    class Meta:
        model = Passkey
        fields: tuple[str, ...] = ("id", "name", "backed_up", "created_at", "last_used_at")
        read_only_fields: tuple[str, ...] = fields
        extra_kwargs = {
            "id": {"help_text": "For `PATCH me/passkeys/{id}` and `POST me/passkeys/{id}/remove`"},
            "backed_up": {"help_text": "Whether it is synced between your devices (a password manager's, a phone's)"},
            "last_used_at": {"help_text": "When it last signed in; null before its first"},
        }


class PasskeyAddedSerializer(serializers.Serializer[Any]):
    passkey = PasskeySerializer()
    recovery_codes = serializers.ListField(
        child=serializers.CharField(),
        help_text="With your first second factor only (else empty): each signs in once in place of a passkey; "
        "shown this once",
    )
