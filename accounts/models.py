import hashlib

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


class BannedToken(models.Model):
    """A digest of a token that a ban revoked.

    The token itself is deleted, so it can never sign anyone in again; its digest lets
    a later request with it be told that the account is banned, and why, where it would
    otherwise read as an unknown token. Unbanning forgets them.
    """

    digest = models.CharField(max_length=64, primary_key=True)
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user_id}:{self.digest[:8]}"

    @staticmethod
    def digest_of(key: str) -> str:
        return hashlib.sha256(key.encode()).hexdigest()
