"""Request and answer shapes of the apps a person registers themselves (`me/apps/made`)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from grants.scopes import SCOPES

from .serializers import StrictCharField, StrictSerializer
from .serializers_tokens import ScopeField

# Enough for an app's platforms (a phone's scheme, a desktop's loopback, a web page's).
MAX_REDIRECT_URIS = 5

REDIRECT_URIS_HELP = (
    "Where the authorize page sends the person back, exactly (the request names one of them): https to any "
    "host; a private-use scheme in reverse-domain form, `com.example.app:/callback` (RFC 8252 §7.1); or "
    "`http://127.0.0.1/…` or `http://[::1]/…`, whose port may be any at the request (§7.3). No fragment."
)
SCOPES_HELP = "What the app may ask for (it may ask for less): " + "; ".join(
    f"`{s}`: {words}" for s, words in SCOPES.items()
)


class MadeAppCreateSerializer(StrictSerializer):
    name = StrictCharField(max_length=60, min_length=1, help_text="The name people will see on the authorize page")
    redirect_uris = serializers.ListField(
        child=StrictCharField(max_length=200), min_length=1, max_length=MAX_REDIRECT_URIS, help_text=REDIRECT_URIS_HELP
    )
    scopes = serializers.ListField(
        child=ScopeField(max_length=20), min_length=1, max_length=len(SCOPES), help_text=SCOPES_HELP
    )


class MadeAppChangeSerializer(MadeAppCreateSerializer):
    """Any of the fields; narrowed scopes end the tokens that hold a scope the app lost."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, partial=True, **kwargs)


class MadeAppSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="For `me/apps/made/{app_id}`")
    name = serializers.CharField()
    client_id = serializers.CharField(help_text="What the app sends as `client_id`; it has no secret (public)")
    redirect_uris = serializers.SerializerMethodField(help_text=REDIRECT_URIS_HELP)
    scopes = serializers.SerializerMethodField(help_text=SCOPES_HELP)
    created_at = serializers.DateTimeField(source="created")

    def get_redirect_uris(self, app: Any) -> list[str]:
        return list(app.redirect_uris.split())

    def get_scopes(self, app: Any) -> list[str]:
        return list(app.scope_limit.scope.split())
