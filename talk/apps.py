from django.apps import AppConfig


class TalkConfig(AppConfig):
    """What people say at a table (its chat, in two channels: the players' and the
    spectators'), and whom a person no longer wants to hear or meet (blocks)."""

    name = "talk"
    default_auto_field = "django.db.models.BigAutoField"
