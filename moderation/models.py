from django.conf import settings
from django.db import models


class ModerationEntry(models.Model):
    """One moderator action, or a seat the server handed over by the room's rule: who,
    when, what and why. Written once, never changed."""

    class Kind(models.TextChoices):
        BAN = "ban", "Ban"
        UNBAN = "unban", "Unban"
        CLOSE_ROOM = "close_room", "Room closed"
        SEAT_TO_BOT = "seat_to_bot", "Seat to a computer"
        SEAT_TO_BOT_IDLE = "seat_to_bot_idle", "Seat to a computer (player away)"
        SEAT_RECLAIMED = "seat_reclaimed", "Seat reclaimed"

    # Null when the server did it by the room's rule (on_abandon: bot), not a moderator.
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    reason = models.TextField()
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="moderation_entries"
    )
    room = models.ForeignKey("games.Room", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    detail = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "moderation log"
        permissions = [
            ("ban_user", "Can ban and unban users"),
            ("moderate_room", "Can close rooms and give seats to computer players"),
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.moderator} {self.kind}"
