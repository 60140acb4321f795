from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    # The admin's heading, in the moderator's language.
    verbose_name = _("Ratings")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.signals import match_finished

        from .services import match_finished_record

        match_finished.connect(match_finished_record, dispatch_uid="ratings.match_finished")
