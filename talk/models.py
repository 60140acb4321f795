from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import Room


class Channel(models.TextChoices):
    # The seated players'; everyone at the table reads it.
    PLAYERS = "players"
    # Everyone else's; the players read it only outside a hand (a watcher's word must
    # not help a player during one).
    SPECTATORS = "spectators"


class ChatMessage(models.Model):
    """A line said at a table: a quick phrase (by its key) or plain text."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="chat_messages", verbose_name=_("room"))
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_messages", verbose_name=_("said by")
    )
    channel = models.CharField(_("channel"), max_length=10, choices=Channel.choices)
    # The author's seat when they said it (players' channel), else None.
    seat = models.PositiveSmallIntegerField(_("seat, counted from 0"), null=True, blank=True)
    phrase = models.CharField(_("quick phrase"), max_length=20, blank=True)
    text = models.CharField(_("text"), max_length=280, blank=True)
    # The hand under way when a spectator said it: the room's players never read such a
    # line (talk/selectors.py). None outside a hand, and for the players' own lines.
    hand = models.PositiveIntegerField(_("hand under way"), null=True, blank=True)
    # Said while its author was shadow-muted: it reaches nobody but them.
    shadow = models.BooleanField(_("said while shadow-muted"), default=False)
    # Taken down by a moderator: read by nobody from then on (kept for the mod log).
    removed_at = models.DateTimeField(_("removed at"), null=True, blank=True)
    created_at = models.DateTimeField(_("said at"))

    class Meta:
        indexes = [models.Index(fields=["room", "id"])]
        verbose_name = _("line of table talk")
        verbose_name_plural = _("lines of table talk")

    def __str__(self) -> str:
        return f"{self.room_id}:{self.pk}"


class ChatTimeout(models.Model):
    """A moderator's chat timeout: the person says nothing (in `room`, or anywhere when
    None) until `until`. The line that earned it, and why, are in the mod log."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_timeouts", verbose_name=_("person")
    )
    room = models.ForeignKey(
        Room, on_delete=models.CASCADE, null=True, blank=True, related_name="+", verbose_name=_("room")
    )
    until = models.DateTimeField(_("until"))
    reason = models.CharField(_("reason"), max_length=200)
    created_at = models.DateTimeField(_("when"), auto_now_add=True)
    # Lifted early by a moderator.
    lifted_at = models.DateTimeField(_("lifted at"), null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "until"])]
        verbose_name = pgettext_lazy("moderation action", "chat timeout")
        verbose_name_plural = pgettext_lazy("moderation action", "chat timeouts")

    def __str__(self) -> str:
        return f"{self.user_id} until {self.until:%Y-%m-%d %H:%M}"


class ShadowMute(models.Model):
    """A moderator's shadow mute: the person's lines reach nobody but themselves, and
    nothing tells them so."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="shadow_mute", verbose_name=_("person")
    )
    reason = models.CharField(_("reason"), max_length=200)
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = pgettext_lazy("moderation action", "shadow mute")
        verbose_name_plural = pgettext_lazy("moderation action", "shadow mutes")

    def __str__(self) -> str:
        return f"{self.user_id}"
