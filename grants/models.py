from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from oauth2_provider.settings import oauth2_settings


class PersonalToken(models.Model):
    """A token a player made for a script or an app of their own, with a name and scopes.

    Only a digest of the secret is kept: the secret is shown once, when it is made, and
    a lost one is revoked and made again.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="personal_tokens", verbose_name=_("account")
    )
    name = models.CharField(_("name"), max_length=60)
    # Space-separated, as OAuth2 writes scopes (grants.scopes).
    scope = models.CharField(_("scopes"), max_length=100)
    digest = models.CharField(_("secret's digest"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # Written at most once a minute (grants.services.personal_token_used).
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")
        verbose_name = _("personal token")
        verbose_name_plural = _("personal tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.scope})"

    @staticmethod
    def digest_of(secret: str) -> str:
        return hashlib.sha256(secret.encode()).hexdigest()


class AppScopeLimit(models.Model):
    """The scopes an app a person registered (`me/apps/made`) may ask for; the authorize
    page refuses more (`invalid_scope`). An app the operator registered in the admin has
    none and may ask for every scope."""

    application = models.OneToOneField(
        oauth2_settings.APPLICATION_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="scope_limit",
        # No verbose name of its own: a change to this field makes makemigrations look for
        # OAUTH2_PROVIDER_APPLICATION_MODEL in settings, which the toolkit does not need.
    )
    # Space-separated, as OAuth2 writes scopes (grants.scopes).
    scope = models.CharField(_("scopes"), max_length=100)

    class Meta:
        verbose_name = _("scopes an app may ask for")
        verbose_name_plural = _("scopes apps may ask for")

    def __str__(self) -> str:
        return self.scope
