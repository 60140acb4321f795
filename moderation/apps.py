from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    name = "moderation"
    # The admin's heading, in the moderator's language.
    verbose_name = _("Moderation")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.signals import player_abandoned, seat_handed_over

        from .handovers import seat_handed_over_record
        from .playbans import abandonment_record

        seat_handed_over.connect(seat_handed_over_record, dispatch_uid="moderation.seat_handed_over")
        player_abandoned.connect(abandonment_record, dispatch_uid="moderation.player_abandoned")
