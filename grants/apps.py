from django.apps import AppConfig


class GrantsConfig(AppConfig):
    name = "grants"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Apps and personal tokens"
