from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The checks of the VAPID keys and the test-only push setting (manage.py check).
        from . import checks  # noqa: F401
