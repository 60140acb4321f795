from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A player. Guests are real accounts without a password, made from an invite link."""

    display_name = models.CharField(max_length=40, blank=True)
    is_guest = models.BooleanField(default=False)

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username
