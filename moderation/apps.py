from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "moderation"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.signals import player_abandoned, seat_handed_over

        from .handovers import seat_handed_over_record
        from .playbans import abandonment_record

        seat_handed_over.connect(seat_handed_over_record, dispatch_uid="moderation.seat_handed_over")
        player_abandoned.connect(abandonment_record, dispatch_uid="moderation.player_abandoned")
