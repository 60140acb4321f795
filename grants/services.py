"""Writes: personal tokens made, used and revoked; apps revoked, and the apps a person
registers themselves."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from oauth2_provider.models import (
    get_access_token_model,
    get_application_model,
    get_grant_model,
    get_refresh_token_model,
)

from accounts.models import User
from core.errors import ServiceError

from . import scopes, selectors
from .models import AppScopeLimit, PersonalToken
from .redirect_uris import refusal as redirect_uri_refusal
from .selectors import PERSONAL_PREFIX

# Enough for every script and device a player has; a runaway client cannot fill a table.
MAX_PER_PLAYER = 50
# A token's last use is written when the one stored is older than this: a request each
# then, not a write per request.
LAST_USED_RESOLUTION = timedelta(minutes=1)


def personal_token_create(*, user: User, name: str, scope: list[str]) -> tuple[PersonalToken, str]:
    """A new token and its secret, which is not kept: the caller shows it once."""
    unknown = sorted(set(scope) - set(scopes.SCOPES))
    if unknown or not scope:
        raise ServiceError("invalid", _scopes_detail(), attr="scopes")
    with transaction.atomic():
        # The player's row, locked, so two requests at once cannot both pass the count.
        User.objects.select_for_update().filter(pk=user.pk).first()
        if PersonalToken.objects.filter(user=user).count() >= MAX_PER_PLAYER:
            detail = ngettext(
                "You have %(n)s token already; revoke one first.",
                "You have %(n)s tokens already; revoke one first.",
                MAX_PER_PLAYER,
            ) % {"n": MAX_PER_PLAYER}
            raise ServiceError("too_many_tokens", detail)
        secret = PERSONAL_PREFIX + secrets.token_urlsafe(32)
        ordered = " ".join(s for s in scopes.SCOPES if s in scope)
        token = PersonalToken.objects.create(
            user=user, name=name, scope=ordered, digest=PersonalToken.digest_of(secret)
        )
    return token, secret


def personal_token_revoke(*, user: User, token_id: int) -> None:
    """Revoke one of the player's own tokens; anyone else's reads as not found."""
    deleted, _ = PersonalToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise ServiceError("not_found", gettext("You have no such token."), 404)


def personal_token_used(*, token_id: int, last_used_at: datetime | None) -> None:
    """Note a use of a token, unless one was noted within the last minute."""
    now = timezone.now()
    if last_used_at is not None and now - last_used_at < LAST_USED_RESOLUTION:
        return
    PersonalToken.objects.filter(pk=token_id).update(last_used_at=now)


def apps_revoke(*, app_ids: list[int]) -> int:
    """Revoke registered apps: each is deleted with every grant and token it was given,
    so those tokens answer 401 at once. How many apps were revoked."""
    applications = get_application_model().objects.filter(pk__in=app_ids)
    with transaction.atomic():
        count = applications.count()
        applications.delete()
    return count


def app_access_revoke(*, user: User, app_id: int) -> None:
    """Take back what the player allowed an app: every token and code it holds for them
    stops working at once; the app must ask again. An app holding nothing of theirs
    reads as not found."""
    with transaction.atomic():
        refresh = get_refresh_token_model().objects.filter(user=user, application_id=app_id, revoked__isnull=True)
        access = get_access_token_model().objects.filter(user=user, application_id=app_id)
        codes = get_grant_model().objects.filter(user=user, application_id=app_id)
        if not (refresh.exists() or access.exists()):
            raise ServiceError("not_found", gettext("No app of that id acts for you."), 404)
        for token in refresh:
            token.revoke()  # the toolkit's way: its access token goes too, the refresh token is kept revoked
        access.delete()
        codes.delete()


@transaction.atomic
def grants_revoke_all(*, user: User) -> int:
    """Take back everything that acts for the player besides their sign-ins: every
    personal token, and every app's access (as `app_access_revoke` does per app). What a
    new password ends unless the player keeps it. How many tokens and apps that was."""
    personal, _ = PersonalToken.objects.filter(user=user).delete()
    refresh = get_refresh_token_model().objects.filter(user=user, revoked__isnull=True)
    access = get_access_token_model().objects.filter(user=user)
    apps = set(refresh.values_list("application_id", flat=True)) | set(access.values_list("application_id", flat=True))
    for token in refresh:
        token.revoke()  # the toolkit's way: its access token goes too, the refresh token is kept revoked
    access.delete()
    get_grant_model().objects.filter(user=user).delete()
    return personal + len(apps)


def _scopes_detail() -> str:
    # Translators: the scopes are their names, as the API writes them (read, play, ...).
    return gettext("Scopes are some of %(scopes)s.") % {"scopes": ", ".join(scopes.SCOPES)}


def _app_scope(scope: list[str]) -> str:
    unknown = sorted(set(scope) - set(scopes.SCOPES))
    if unknown or not scope:
        raise ServiceError("invalid", _scopes_detail(), attr="scopes")
    return " ".join(s for s in scopes.SCOPES if s in scope)


def _checked(app: Any) -> None:
    """The toolkit's own validation of the app (redirect URIs as grants.redirect_uris
    allows them), as a service error on the field."""
    try:
        app.full_clean(exclude=["client_secret", "client_id"])
    except ValidationError as error:
        problems = error.message_dict
        if "redirect_uris" in problems:
            refused = [redirect_uri_refusal(each) for each in error.error_dict["redirect_uris"]]
            raise ServiceError.several("invalid_redirect_uri", refused, "redirect_uris") from None
        field, details = next(iter(problems.items()))
        raise ServiceError.several("invalid", details, field) from None


def made_app_create(*, user: User, name: str, redirect_uris: list[str], scope: list[str]) -> Any:
    """Register a public app of the person's own: authorization code with PKCE only, no
    secret, and the person asked each time (the authorize page says who made it)."""
    if user.is_guest:
        raise ServiceError("guest_cannot_register_apps", gettext("A guest cannot register apps."), 403)
    ordered = _app_scope(scope)
    Application = get_application_model()
    app = Application(
        name=name,
        user=user,
        client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris=" ".join(redirect_uris),
        client_secret="",
        hash_client_secret=False,
        skip_authorization=False,
    )
    _checked(app)
    with transaction.atomic():
        # The person's row, locked, so two requests at once cannot both pass the count.
        User.objects.select_for_update().filter(pk=user.pk).first()
        cap = settings.OAUTH_APPS_PER_PERSON
        if Application.objects.filter(user=user, scope_limit__isnull=False).count() >= cap:
            detail = ngettext(
                "You have registered %(n)s app already; delete one first.",
                "You have registered %(n)s apps already; delete one first.",
                cap,
            ) % {"n": cap}
            raise ServiceError("too_many_apps", detail)
        app.save()
        AppScopeLimit.objects.create(application=app, scope=ordered)
    return app


def made_app_update(
    *,
    user: User,
    app_id: int,
    name: str | None = None,
    redirect_uris: list[str] | None = None,
    scope: list[str] | None = None,
) -> Any:
    """Rename an app of the person's, or change its redirect URIs or scopes. Narrowed
    scopes end every token of the app that holds a scope it lost: people allow it again."""
    with transaction.atomic():
        app = selectors.app_made_by(user=user, app_id=app_id)
        app = type(app).objects.select_for_update(of=("self",)).select_related("scope_limit").get(pk=app.pk)
        if name is not None:
            app.name = name
        if redirect_uris is not None:
            app.redirect_uris = " ".join(redirect_uris)
        _checked(app)
        app.save()
        if scope is not None:
            limit = app.scope_limit
            limit.scope = _app_scope(scope)
            limit.save()
            _end_tokens_beyond(app, scopes.parse(limit.scope))
    return app


def _end_tokens_beyond(app: Any, allowed: frozenset[str]) -> None:
    beyond = [
        t for t in get_access_token_model().objects.filter(application=app) if not scopes.parse(t.scope) <= allowed
    ]
    for refresh in get_refresh_token_model().objects.filter(access_token__in=beyond, revoked__isnull=True):
        refresh.revoke()  # its access token goes too; the refresh token is kept revoked
    get_access_token_model().objects.filter(pk__in=[t.pk for t in beyond]).delete()


def made_app_delete(*, user: User, app_id: int) -> None:
    """Delete an app of the person's with every code and token it was given."""
    app = selectors.app_made_by(user=user, app_id=app_id)
    apps_revoke(app_ids=[app.pk])
