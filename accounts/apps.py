from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    # The admin's heading, in the moderator's language.
    verbose_name = _("Accounts")
    default_auto_field = "django.db.models.BigAutoField"
