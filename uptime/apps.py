from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class UptimeConfig(AppConfig):
    name = "uptime"
    # The admin's heading, in the moderator's language.
    verbose_name = _("Uptime")
    default_auto_field = "django.db.models.BigAutoField"
