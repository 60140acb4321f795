from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "notifications"
    # The admin's heading, in the moderator's language.
    verbose_name = _("Notifications")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The checks of the VAPID keys and the test-only push setting (manage.py check).
        from . import checks  # noqa: F401
