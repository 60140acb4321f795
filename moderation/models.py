from django.conf import settings
from django.db import models
from django.utils.translation import gettext, gettext_noop, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from . import entry_facts
from .canned import canned_text

# Every label here (the models', their fields', their choices') is read by moderators in
# the admin, in their own language; the values stored are codes, never words.


class ModerationEntry(models.Model):
    """One moderator action, or a seat the server handed over by the room's rule: who,
    when, what and why. Written once, never changed."""

    class Kind(models.TextChoices):
        BAN = "ban", pgettext_lazy("moderation action", "Ban")
        UNBAN = "unban", pgettext_lazy("moderation action", "Unban")
        CLOSE_ROOM = "close_room", _("Room closed")
        SEAT_TO_BOT = "seat_to_bot", _("Seat to a computer")
        SEAT_TO_BOT_IDLE = "seat_to_bot_idle", _("Seat to a computer (player away)")
        SEAT_RECLAIMED = "seat_reclaimed", _("Seat reclaimed")
        TEMP_BAN = "temp_ban", pgettext_lazy("moderation action", "Temporary ban")
        BAN_ENDED = "ban_ended", _("Temporary ban over")
        WARN = "warn", pgettext_lazy("moderation action", "Warning")
        CHAT_TIMEOUT = "chat_timeout", pgettext_lazy("moderation action", "Chat timeout")
        SHADOW_MUTE = "shadow_mute", pgettext_lazy("moderation action", "Shadow mute")
        DISMISS = "dismiss", _("Reports dismissed")

    # Null when the server did it by the room's rule (on_abandon: bot), not a moderator.
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("moderator"),
    )
    kind = models.CharField(_("action"), max_length=20, choices=Kind.choices)
    reason = models.TextField(_("reason"))
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="moderation_entries",
        verbose_name=_("person"),
    )
    room = models.ForeignKey(
        "games.Room", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("room")
    )
    # What it did, as facts each moderator reads in their own language
    # (moderation.entry_facts); entries from before the facts were kept have their English
    # words in `detail` instead.
    facts = models.JSONField(_("what it did"), default=list, blank=True)
    detail = models.TextField(_("what it did, in English"), blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("moderation log entry")
        verbose_name_plural = _("moderation log")
        # Stored in English, as Django keeps every permission's name; marked so that the
        # admin's lists say them in the moderator's language (admin/permission_labels.py).
        permissions = [
            ("ban_user", gettext_noop("Can ban and unban users")),
            ("moderate_room", gettext_noop("Can close rooms and give seats to computer players")),
            ("work_reports", gettext_noop("Can work the reports' queue: dismiss, warn, time out, shadow-mute")),
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.moderator} {self.kind}"

    @property
    def shown_detail(self) -> str:
        """What it did, as a moderator reads it: in the active language."""
        return entry_facts.facts_said(self.facts) if self.facts else self.detail

    @property
    def shown_reason(self) -> str:
        """The reason as a moderator reads it: the server's own (no moderator), a fixed
        sentence kept in English, in the active language; a moderator's as written."""
        return gettext(self.reason) if self.moderator_id is None and self.reason else self.reason


class Case(models.Model):
    """One entry of the moderators' queue: the open reports about one account, added up
    (one open case per account). Closed by the action a moderator takes on it."""

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("report queue entry", "Open")
        CLOSED = "closed", pgettext_lazy("report queue entry", "Closed")

    class Outcome(models.TextChoices):
        DISMISSED = "dismissed", pgettext_lazy("report queue entry", "Dismissed")
        WARNED = "warned", pgettext_lazy("report queue entry", "Warned")
        CHAT_TIMEOUT = "chat_timeout", pgettext_lazy("moderation action", "Chat timeout")
        SHADOW_MUTE = "shadow_mute", pgettext_lazy("moderation action", "Shadow mute")
        TEMP_BAN = "temp_ban", pgettext_lazy("moderation action", "Temporary ban")
        BAN = "ban", pgettext_lazy("moderation action", "Ban")

    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="cases", verbose_name=_("person reported")
    )
    status = models.CharField(_("status"), max_length=6, choices=Status.choices, default=Status.OPEN)
    reports_count = models.PositiveIntegerField(_("reports"), default=0)
    opened_at = models.DateTimeField(_("opened at"))
    last_report_at = models.DateTimeField(_("last report at"))
    # A moderator working it, so that two do not.
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("worked by"),
    )
    claimed_at = models.DateTimeField(_("claimed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("closed by"),
    )
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    outcome = models.CharField(_("outcome"), max_length=12, choices=Outcome.choices, blank=True)
    entry = models.ForeignKey(
        ModerationEntry,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("moderation log entry"),
    )

    class Meta:
        constraints = (
            models.UniqueConstraint(
                fields=("target_user",), condition=models.Q(status="open"), name="one_open_case_per_account"
            ),
        )
        indexes = [models.Index(fields=["status", "-reports_count", "-last_report_at"])]
        verbose_name = _("report queue entry")
        verbose_name_plural = _("reports' queue")

    def __str__(self) -> str:
        return f"{self.target_user} ({self.reports_count})"


class Report(models.Model):
    """A person's report of another: a reason from the list, a note, and where (a room,
    a line of its talk)."""

    class Reason(models.TextChoices):
        OFFENSIVE_LANGUAGE = "offensive_language", _("Offensive language")
        CHEATING = "cheating", _("Cheating or collusion")
        STALLING = "stalling", _("Stalling or leaving games")
        NAME = "name", _("Offensive name")
        OTHER = "other", pgettext_lazy("report reason", "Other")

    case = models.ForeignKey(
        Case, on_delete=models.CASCADE, related_name="reports", verbose_name=_("report queue entry")
    )
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made", verbose_name=_("reporter")
    )
    reason = models.CharField(_("reason"), max_length=20, choices=Reason.choices)
    note = models.CharField(_("note"), max_length=500, blank=True)
    room = models.ForeignKey(
        "games.Room", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("room")
    )
    line = models.ForeignKey(
        "talk.ChatMessage",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("line of table talk"),
    )
    created_at = models.DateTimeField(_("made at"))
    # When the reporter was told it was handled (never how).
    handled_at = models.DateTimeField(_("handled at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("report")
        verbose_name_plural = _("reports")

    def __str__(self) -> str:
        return f"{self.reporter} on {self.case.target_user}: {self.reason}"


class Warning(models.Model):
    """A moderator's warning to a person, shown to them once before their next table.

    One of the fixed warnings (`canned`, a key of moderation/canned.py) is read in the
    reader's language; the moderator's own words (`canned` empty) as they wrote them.
    `text` holds the words either way, the fixed ones in English, for the log."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="warnings", verbose_name=_("person")
    )
    text = models.CharField(_("text"), max_length=500)
    canned = models.CharField(_("fixed warning"), max_length=40, blank=True)
    created_at = models.DateTimeField(_("given at"))
    read_at = models.DateTimeField(_("read at"), null=True, blank=True)

    class Meta:
        verbose_name = _("warning")
        verbose_name_plural = _("warnings")

    def __str__(self) -> str:
        return f"{self.user}: {self.text[:40]}"

    @property
    def words(self) -> str:
        """The warning as its reader reads it, in the active language."""
        return canned_text(self.canned) or self.text


class Abandonment(models.Model):
    """A person's idle clock ran out in a rated match (their seat went to a computer
    player, or the match was abandoned for it): what playbans count
    (moderation/playbans.py). A moderator's hand-over is not one."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="abandonments", verbose_name=_("person")
    )
    room = models.ForeignKey(
        "games.Room", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("room")
    )
    at = models.DateTimeField(_("at"))

    class Meta:
        indexes = [models.Index(fields=["user", "-at"])]
        verbose_name = _("abandonment")
        verbose_name_plural = _("abandonments")

    def __str__(self) -> str:
        return f"{self.user_id} at {self.at:%Y-%m-%d %H:%M}"
