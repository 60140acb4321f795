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
        TEMP_BAN = "temp_ban", "Temporary ban"
        BAN_ENDED = "ban_ended", "Temporary ban over"
        WARN = "warn", "Warning"
        CHAT_TIMEOUT = "chat_timeout", "Chat timeout"
        SHADOW_MUTE = "shadow_mute", "Shadow mute"
        DISMISS = "dismiss", "Reports dismissed"

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
            ("work_reports", "Can work the reports' queue: dismiss, warn, time out, shadow-mute"),
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.moderator} {self.kind}"


class Case(models.Model):
    """One entry of the moderators' queue: the open reports about one account, added up
    (one open case per account). Closed by the action a moderator takes on it."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"

    class Outcome(models.TextChoices):
        DISMISSED = "dismissed", "Dismissed"
        WARNED = "warned", "Warned"
        CHAT_TIMEOUT = "chat_timeout", "Chat timeout"
        SHADOW_MUTE = "shadow_mute", "Shadow mute"
        TEMP_BAN = "temp_ban", "Temporary ban"
        BAN = "ban", "Ban"

    target_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="cases")
    status = models.CharField(max_length=6, choices=Status.choices, default=Status.OPEN)
    reports_count = models.PositiveIntegerField(default=0)
    opened_at = models.DateTimeField()
    last_report_at = models.DateTimeField()
    # A moderator working it, so that two do not.
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    claimed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=12, choices=Outcome.choices, blank=True)
    entry = models.ForeignKey(ModerationEntry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        constraints = (
            models.UniqueConstraint(
                fields=("target_user",), condition=models.Q(status="open"), name="one_open_case_per_account"
            ),
        )
        indexes = [models.Index(fields=["status", "-reports_count", "-last_report_at"])]
        verbose_name = "report queue entry"
        verbose_name_plural = "reports' queue"

    def __str__(self) -> str:
        return f"{self.target_user} ({self.reports_count})"


class Report(models.Model):
    """A person's report of another: a reason from the list, a note, and where (a room,
    a line of its talk)."""

    class Reason(models.TextChoices):
        OFFENSIVE_LANGUAGE = "offensive_language", "Offensive language"
        CHEATING = "cheating", "Cheating or collusion"
        STALLING = "stalling", "Stalling or leaving games"
        NAME = "name", "Offensive name"
        OTHER = "other", "Other"

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made")
    reason = models.CharField(max_length=20, choices=Reason.choices)
    note = models.CharField(max_length=500, blank=True)
    room = models.ForeignKey("games.Room", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    line = models.ForeignKey("talk.ChatMessage", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField()
    # When the reporter was told it was handled (never how).
    handled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.reporter} on {self.case.target_user}: {self.reason}"


class Warning(models.Model):
    """A moderator's warning to a person, shown to them once before their next table."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="warnings")
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField()
    read_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user}: {self.text[:40]}"


class Abandonment(models.Model):
    """A person's idle clock ran out in a rated match (their seat went to a computer
    player, or the match was abandoned for it): what playbans count
    (moderation/playbans.py). A moderator's hand-over is not one."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="abandonments")
    room = models.ForeignKey("games.Room", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["user", "-at"])]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.at:%Y-%m-%d %H:%M}"
