"""django-oauth-toolkit's request validator, with a grace window for a replayed refresh token.

Refresh tokens rotate and a replay revokes the whole family (RFC 9700 §4.14.2), which
signs a person out when a phone's refresh answer was lost on the network and the phone
asks again. Within `OAUTH_REFRESH_REPLAY_GRACE_SECONDS` of the rotation the same request
gets the same answer as the first time: the same access and refresh token, both still
valid. After the window, or once the new refresh token has itself been used, a replay
revokes the family as before.

The toolkit's own `REFRESH_TOKEN_GRACE_PERIOD_SECONDS` answers a replay with the tokens it
stored, which it cannot do when it keeps only their checksums (RFC 9700 storage, on here;
its check `oauth2_provider.E001` forbids the two together). So the new pair of a refresh
is derived from the presented refresh token with a keyed hash (the SECRET_KEY and the
token family), and a replay derives the same pair again; nothing more is stored.
"""

from __future__ import annotations

import base64
import hashlib
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import F
from django.utils import timezone
from django.utils.crypto import salted_hmac
from oauth2_provider import oauth2_validators
from oauth2_provider.models import AbstractRefreshToken, get_access_token_model, get_refresh_token_model

HMAC_SALT = "grants.refresh-rotation"


def checksum(token: str) -> str:
    """The checksum the toolkit stores in place of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def successor(kind: str, presented: str, family: object) -> str:
    """The `kind` ("access" or "refresh") token a refresh with `presented` is answered."""
    digest = salted_hmac(HMAC_SALT, f"{kind}:{family}:{presented}", algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


class OAuth2Validator(oauth2_validators.OAuth2Validator):
    def validate_refresh_token(self, refresh_token: str, client: Any, request: Any, *args: Any, **kwargs: Any) -> bool:
        replayed = self._replay_within_grace(refresh_token)
        if replayed is None:
            # A live token, or a replay the toolkit refuses (revoking the family).
            valid = super().validate_refresh_token(refresh_token, client, request, *args, **kwargs)
            # A banned or closed account's tokens are all revoked; this holds even so.
            return bool(valid) and request.user.is_active
        if not replayed.user.is_active:
            return False
        request.user = replayed.user
        request.refresh_token = refresh_token
        request.refresh_token_instance = replayed
        return bool(replayed.application == client)

    def _replay_within_grace(self, presented: str) -> AbstractRefreshToken | None:
        """The rotated-out refresh token `presented` is, when it is replayed within the
        window and the pair it was answered is unused and was derived from it; else None."""
        grace = timedelta(seconds=settings.OAUTH_REFRESH_REPLAY_GRACE_SECONDS)
        refresh = (
            get_refresh_token_model()
            .objects.filter(token_checksum=checksum(presented))
            .select_related("user", "application")
            .order_by(F("revoked").desc(nulls_first=True))
            .first()
        )
        if refresh is None or refresh.revoked is None or refresh.revoked <= timezone.now() - grace:
            return None
        # Its successor's access token is deleted once the successor refresh token is
        # used (rotation revokes it): then this is a replay of an old generation.
        answered = get_access_token_model().objects.filter(source_refresh_token=refresh).first()
        if answered is None or answered.token_checksum != checksum(
            successor("access", presented, refresh.token_family)
        ):
            return None
        live = get_refresh_token_model().objects.filter(access_token=answered, revoked__isnull=True).first()
        if live is not None and live.token_checksum != checksum(successor("refresh", presented, refresh.token_family)):
            return None
        return refresh

    def _save_bearer_token(self, token: dict[str, Any], request: Any, *args: Any, **kwargs: Any) -> None:
        rotated = getattr(request, "refresh_token_instance", None)
        derived: dict[str, str] = {}
        if request.grant_type == "refresh_token" and rotated is not None and "refresh_token" in token:
            for kind in ("access", "refresh"):
                derived[kind] = successor(kind, request.refresh_token, rotated.token_family)
                token[f"{kind}_token"] = derived[kind]
        super()._save_bearer_token(token, request, *args, **kwargs)
        if derived and token["access_token"] != derived["access"]:
            # The toolkit found the pair this token was already answered (a replay, or
            # the same refresh twice at once) and put in its stored values, which are
            # blank under checksum storage: the same pair, derived again, is the answer.
            token["access_token"], token["refresh_token"] = derived["access"], derived["refresh"]
            answered = get_access_token_model().objects.get(token_checksum=checksum(derived["access"]))
            token["expires_in"] = max(0, int((answered.expires - timezone.now()).total_seconds()))
