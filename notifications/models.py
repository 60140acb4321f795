"""What the server keeps to tell players that a game waits for them while they are away:
their choices, their browsers' push subscriptions, their open sockets, and which turns
they were already told of.

All writes go through notifications.services.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Room


class NotificationSettings(models.Model):
    """An account's choices; an account without a row has the defaults (both channels,
    the account's own e-mail address, no quiet period)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="notification_settings"
    )
    push = models.BooleanField(default=True)
    email = models.BooleanField(default=True)
    # Null: the account's own e-mail field, whatever it becomes; "" is "no address".
    email_address = models.EmailField(null=True, blank=True)  # noqa: DJ001
    # The address the player proved they read (by opening the link mailed to it): notices
    # are mailed only while the address above (or the account's) is this one, so that no
    # one can make the server mail a stranger.
    email_confirmed_address = models.EmailField(blank=True, default="")
    # When the last confirmation link was queued: at most one per
    # EMAIL_CONFIRMATION_RESEND_SECONDS, however often it is asked for.
    email_confirmation_sent_at = models.DateTimeField(null=True, blank=True)
    # A quiet period is the three together, or none of them.
    quiet_start = models.TimeField(null=True, blank=True)
    quiet_end = models.TimeField(null=True, blank=True)
    quiet_timezone = models.CharField(max_length=64, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(Q(quiet_start__isnull=True) & Q(quiet_end__isnull=True) & Q(quiet_timezone=""))
                | (Q(quiet_start__isnull=False) & Q(quiet_end__isnull=False) & ~Q(quiet_timezone="")),
                name="notification_quiet_whole",
            ),
        ]
        # Named for the admin's lists of permissions, in the moderator's language.
        verbose_name = _("notice settings")
        verbose_name_plural = _("notice settings")

    def __str__(self) -> str:
        return f"notification settings of {self.user_id}"


class PushSubscription(models.Model):
    """A browser's PushSubscription: where to POST, and the keys to encrypt for it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    # Unique: a browser's endpoint belongs to whoever subscribed with it last.
    endpoint = models.CharField(max_length=2048, unique=True)
    # The browser's P-256 public key (65 bytes) and auth secret (16 bytes), base64url.
    p256dh = models.CharField(max_length=88)
    auth = models.CharField(max_length=24)
    expires_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return f"push subscription {self.pk} of {self.user_id}"


class SocketPresence(models.Model):
    """An open ws/me/ socket: while one is fresh, its player is at the screen and hears
    turns there. The socket refreshes `seen_at` while open and removes the row when it
    closes; a row older than NOTIFY_PRESENCE_TTL_SECONDS is a socket that died with its
    process, and no longer counts."""

    channel_name = models.CharField(max_length=200, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seen_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["user", "seen_at"], name="presence_by_user")]
        verbose_name = _("open socket")
        verbose_name_plural = _("open sockets")

    def __str__(self) -> str:
        return f"socket of {self.user_id}"


class TurnClaim(models.Model):
    """The last turn of a player in a room that a message of one kind was claimed for (by
    the turn's `Seat.turn_since`): one row per player and room, moved on to each new
    turn, so that a turn is told of at most once by each kind.

    A scan claims a turn by moving `turn_since` to it (with `sent_at` null); the delivery
    takes the claim by setting `sent_at`, and only the one that sets it sends."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="+")
    turn_since = models.DateTimeField()
    claimed_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True


class TurnNotice(TurnClaim):
    """The first notice of a turn (once it has waited NOTIFY_AFTER_SECONDS)."""

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "room"], name="turn_notice_unique")]
        verbose_name = _("turn notice")
        verbose_name_plural = _("turn notices")

    def __str__(self) -> str:
        return f"notice to {self.user_id} in {self.room_id}"


class TurnReminder(TurnClaim):
    """The reminder of a turn on a long clock, before it runs out, apart from its first
    notice."""

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "room"], name="turn_reminder_unique")]
        verbose_name = _("turn reminder")
        verbose_name_plural = _("turn reminders")

    def __str__(self) -> str:
        return f"reminder to {self.user_id} in {self.room_id}"
