from typing import Any

from django.core.management.base import BaseCommand

from ratings.services import ratings_rebuild


class Command(BaseCommand):
    help = "Rebuild every rating, placing and rating change from the finished matches."

    def handle(self, *args: Any, **options: Any) -> None:
        count = ratings_rebuild()
        self.stdout.write(f"Rebuilt ratings from {count} finished matches.")
