"""What a browser's `PublicKeyCredential.toJSON()` gives for a passkey (a platform's
passkey API gives the same JSON): the authenticator's answers, read as WebAuthn Level 3
writes them. Members a newer browser adds are ignored, not refused, so a browser update
breaks no sign-in; what they hold is checked by accounts.passkeys."""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy
from rest_framework import serializers

BASE64URL = r"^[A-Za-z0-9_-]*={0,2}$"


class _String(serializers.CharField):
    """A JSON string only (not a number made text, as DRF's CharField would)."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class _Base64UrlField(_String):
    """Bytes as WebAuthn's JSON writes them: base64url."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 16384)
        super().__init__(**kwargs)
        # Translators: said of a field's value, which must be bytes written in base64url.
        self.validators.append(RegexValidator(BASE64URL, gettext_lazy("Not base64url.")))


class _CredentialSerializer(serializers.Serializer[Any]):
    id = _Base64UrlField(help_text="The credential's id, base64url")
    rawId = _Base64UrlField(help_text="The same id")
    type = serializers.ChoiceField(choices=["public-key"])
    authenticatorAttachment = _String(
        required=False, allow_null=True, max_length=40, help_text="`platform` or `cross-platform`, when known"
    )
    clientExtensionResults = serializers.DictField(required=False, help_text="Ignored")


class _AttestationResponseSerializer(serializers.Serializer[Any]):
    clientDataJSON = _Base64UrlField()
    attestationObject = _Base64UrlField()
    transports = serializers.ListField(
        child=_String(max_length=20), required=False, max_length=10, help_text="Hints for later use"
    )


class PasskeyAttestationSerializer(_CredentialSerializer):
    """What `navigator.credentials.create()` answered, as `toJSON()` writes it."""

    response = _AttestationResponseSerializer()


class _AssertionResponseSerializer(serializers.Serializer[Any]):
    clientDataJSON = _Base64UrlField()
    authenticatorData = _Base64UrlField()
    signature = _Base64UrlField()
    userHandle = _Base64UrlField(required=False, allow_null=True)


class PasskeyAssertionSerializer(_CredentialSerializer):
    """What `navigator.credentials.get()` answered, as `toJSON()` writes it."""

    response = _AssertionResponseSerializer()
