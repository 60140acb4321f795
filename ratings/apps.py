from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.signals import match_finished

        from .services import match_finished_record

        match_finished.connect(match_finished_record, dispatch_uid="ratings.match_finished")
