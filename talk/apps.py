from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TalkConfig(AppConfig):
    """What people say at a table (its chat, in two channels: the players' and the
    spectators'), and whom a person no longer wants to hear or meet (blocks)."""

    name = "talk"
    # The admin's heading, in the moderator's language.
    verbose_name = _("Table talk")
    default_auto_field = "django.db.models.BigAutoField"
