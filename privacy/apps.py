from django.apps import AppConfig


class PrivacyConfig(AppConfig):
    """A person's account as theirs to close: what closing it reaches across the apps
    (their seats, tokens, notices) and its erasure for good after the grace period."""

    name = "privacy"
