from django.apps import AppConfig


class WebConfig(AppConfig):
    """The browser client: one HTML shell and static ES modules that use only the public API."""

    name = "web"
    default_auto_field = "django.db.models.BigAutoField"
