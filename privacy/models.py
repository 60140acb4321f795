from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class DataExport(models.Model):
    """A person's request for everything the server holds about them (GDPR art. 20):
    built by a task, mailed as a link that works once (only a digest of its token is
    kept), and emptied once downloaded or too old."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    requested_at = models.DateTimeField()
    ready_at = models.DateTimeField(null=True, blank=True)
    downloaded_at = models.DateTimeField(null=True, blank=True)
    digest = models.CharField(max_length=64, blank=True, db_index=True)
    # The archive, from when it is built until it is downloaded (then null).
    archive = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ("-requested_at", "-id")
        # Named for the admin's lists of permissions, in the moderator's language.
        verbose_name = _("data export")
        verbose_name_plural = _("data exports")

    def __str__(self) -> str:
        return f"export {self.pk} of {self.user_id}"

    @staticmethod
    def digest_of(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()
