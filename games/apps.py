from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import signals, view_push

        # Each viewer's view rides on the room's notices (games/view_push.py).
        signals.table_committed.connect(view_push.views_to_push, dispatch_uid="games.view_push")
