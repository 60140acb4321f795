from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrivacyConfig(AppConfig):
    """A person's account as theirs to close: what closing it reaches across the apps
    (their seats, tokens, notices) and its erasure for good after the grace period."""

    name = "privacy"
    # The admin's heading, in the moderator's language.
    verbose_name = _("Privacy")
