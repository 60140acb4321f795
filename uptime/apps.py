from django.apps import AppConfig


class UptimeConfig(AppConfig):
    name = "uptime"
    default_auto_field = "django.db.models.BigAutoField"
