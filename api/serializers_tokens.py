"""Request and answer shapes of a player's personal access tokens (`me/tokens`)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from grants.models import PersonalToken
from grants.scopes import SCOPES

from .serializers import StrictCharField, StrictSerializer


@extend_schema_field({"type": "string", "enum": list(SCOPES)})
class ScopeField(StrictCharField):
    """A scope's name; the service refuses one it does not know (`invalid`, attr `scopes`)."""


class PersonalTokenCreateSerializer(StrictSerializer):
    name = StrictCharField(max_length=60, help_text="What the token is for, as its maker will recognise it")
    scopes = serializers.ListField(
        child=ScopeField(max_length=20),
        min_length=1,
        max_length=len(SCOPES),
        help_text="What the token may do: " + "; ".join(f"`{s}`: {words}" for s, words in SCOPES.items()),
    )


class PersonalTokenSerializer(serializers.ModelSerializer[PersonalToken]):
    scopes = serializers.SerializerMethodField()

    class Meta:
        model = PersonalToken
        fields: tuple[str, ...] = ("id", "name", "scopes", "created_at", "last_used_at")
        read_only_fields: tuple[str, ...] = fields

    def get_scopes(self, token: PersonalToken) -> list[str]:
        return token.scope.split()


class PersonalTokenCreatedSerializer(PersonalTokenSerializer):
    token = serializers.SerializerMethodField(
        help_text="The secret: send it as `Authorization: Bearer <token>`. Shown this once, never again."
    )

    class Meta(PersonalTokenSerializer.Meta):
        fields = (*PersonalTokenSerializer.Meta.fields, "token")
        read_only_fields = fields

    def get_token(self, token: Any) -> str:
        return str(self.context["secret"])


class AllowedAppSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="The app's id, for `DELETE me/apps/{id}`")
    name = serializers.CharField(help_text="The name its authorize page showed")
    scopes = serializers.ListField(child=serializers.CharField(), help_text="What its tokens may do")
    allowed_at = serializers.DateTimeField(help_text="When its oldest working token was given")
