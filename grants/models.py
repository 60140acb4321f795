from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models
from oauth2_provider.settings import oauth2_settings


class PersonalToken(models.Model):
    """A token a player made for a script or an app of their own, with a name and scopes.

    Only a digest of the secret is kept: the secret is shown once, when it is made, and
    a lost one is revoked and made again.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="personal_tokens")
    name = models.CharField(max_length=60)
    # Space-separated, as OAuth2 writes scopes (grants.scopes).
    scope = models.CharField(max_length=100)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # Written at most once a minute (grants.services.personal_token_used).
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")

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
    )
    # Space-separated, as OAuth2 writes scopes (grants.scopes).
    scope = models.CharField(max_length=100)

    def __str__(self) -> str:
        return self.scope
