"""Reads: a player's personal tokens, the apps they allowed or registered, and what a
bearer token stands for."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from oauth2_provider.models import get_access_token_model, get_application_model, get_refresh_token_model

from accounts.models import User
from core.errors import ServiceError

from . import scopes
from .models import AppScopeLimit, PersonalToken

# Personal tokens start so, which tells them from OAuth2 access tokens at a glance.
PERSONAL_PREFIX = "pat_"


@dataclass(frozen=True)
class Grant:
    """What a bearer token lets its holder do for `user` (`request.auth` of such a request)."""

    user: User
    scopes: frozenset[str]
    # "oauth2" (an app's access token) or "personal" (a player's own token).
    kind: str
    # The token's row: the OAuth2 access token's or the personal token's.
    id: int
    # When a personal token's use was last written (None for OAuth2 tokens).
    last_used_at: datetime | None = None
    # When an OAuth2 access token stops working (None for personal tokens, which last
    # until revoked).
    expires: datetime | None = None


def personal_tokens_of(*, user: User) -> QuerySet[PersonalToken]:
    return PersonalToken.objects.filter(user=user)


@dataclass(frozen=True)
class AllowedApp:
    """An app the player allowed, while any token it was given still works."""

    id: int
    name: str
    scopes: list[str]
    allowed_at: datetime


def apps_allowed_by(*, user: User) -> list[AllowedApp]:
    """The apps holding a working access or refresh token of the player's, first allowed
    first, with the scopes of their access tokens (a refresh token gives the same again)."""
    found: dict[int, AllowedApp] = {}
    now = timezone.now()
    access = get_access_token_model().objects.filter(user=user, expires__gt=now).select_related("application")
    refresh = (
        get_refresh_token_model()
        .objects.filter(user=user, revoked__isnull=True)
        .select_related("application", "access_token")
    )
    held = [(t.application, t.scope, t.created) for t in access]
    held += [(t.application, t.access_token.scope if t.access_token else "", t.created) for t in refresh]
    for app, scope, created in held:
        if app is None:
            continue
        before = found.get(app.pk)
        granted = set(scope.split()) | set(before.scopes if before else ())
        found[app.pk] = AllowedApp(
            app.pk,
            app.name,
            [s for s in scopes.SCOPES if s in granted],
            min(created, before.allowed_at) if before else created,
        )
    return sorted(found.values(), key=lambda allowed: allowed.allowed_at)


def grant_for_bearer(*, key: str) -> Grant | None:
    """The grant of a personal token or of an unexpired OAuth2 access token; None for
    anything else. The account may be inactive: the caller says why it is refused."""
    if key.startswith(PERSONAL_PREFIX):
        token = PersonalToken.objects.select_related("user").filter(digest=PersonalToken.digest_of(key)).first()
        if token is None:
            return None
        return Grant(token.user, scopes.parse(token.scope), "personal", token.pk, token.last_used_at)
    # django-oauth-toolkit keeps only a SHA-256 checksum of each token (RFC 9700 storage).
    checksum = hashlib.sha256(key.encode()).hexdigest()
    access = get_access_token_model().objects.select_related("user").filter(token_checksum=checksum).first()
    if access is None or access.user is None or access.expires <= timezone.now():
        return None
    return Grant(access.user, scopes.parse(access.scope), "oauth2", access.pk, expires=access.expires)


def token_digests_of(*, user: User) -> list[str]:
    """The SHA-256 digests of every personal token and app's access token of the account,
    as its own sign-ins' are kept (what a ban remembers, accounts.models.BannedToken)."""
    personal = PersonalToken.objects.filter(user=user).values_list("digest", flat=True)
    access = get_access_token_model().objects.filter(user=user).values_list("token_checksum", flat=True)
    return [*personal, *access]


def apps_made_by(*, user: User) -> QuerySet[Any]:
    """The apps the person registered themselves (`me/apps/made`), first made first."""
    return (
        get_application_model()
        .objects.filter(user=user, scope_limit__isnull=False)
        .select_related("scope_limit")
        .order_by("created", "pk")
    )


def app_made_by(*, user: User, app_id: int) -> Any:
    """One app the person registered; anyone else's, or an operator's, reads as not found."""
    app = apps_made_by(user=user).filter(pk=app_id).first()
    if app is None:
        raise ServiceError("not_found", _("You registered no such app."), 404)
    return app


def made_by_words(application: Any) -> str:
    """Who registered an app, as its authorize page says it."""
    if application.user_id is not None and AppScopeLimit.objects.filter(application=application).exists():
        # The username, not a display name: one person cannot take another's.
        return f"Made by {application.user.username}"
    return "Registered by the operator"
