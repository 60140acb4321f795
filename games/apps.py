from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    # The admin's heading, in the moderator's language.
    verbose_name = _("Games")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import signals, view_push

        # Each viewer's view rides on the room's notices (games/view_push.py).
        signals.table_committed.connect(view_push.views_to_push, dispatch_uid="games.view_push")
