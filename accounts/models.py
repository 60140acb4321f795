from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    """A player. Guests are real accounts without a password, made from an invite link."""

    display_name = models.CharField(max_length=40, blank=True)
    is_guest = models.BooleanField(default=False)
    # A ban also clears is_active, which is what keeps the account out everywhere.
    banned_at = models.DateTimeField(null=True, blank=True)
    ban_reason = models.CharField(max_length=500, blank=True)

    @property
    def shown_name(self) -> str:
        return self.display_name or self.username
