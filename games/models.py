"""Rooms, seats, rounds (hands), the append-only action log and the per-room event log.

The engine state of the hand in play lives in `Round.state`; `Room.version` counts every
change to the room (lobby moves and applied actions alike) and is what clients send
back with an action. All writes go through games.services, which lock the room row.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

# The models' and their fields' names are read by moderators in the admin, in their own
# language; the values stored are codes, never words.


class RoomStatus(models.TextChoices):
    # The labels the admin's lists and filters show; the API gives the codes.
    LOBBY = "lobby", pgettext_lazy("room status", "lobby")
    PLAYING = "playing", pgettext_lazy("room status", "playing")
    FINISHED = "finished", pgettext_lazy("room status", "finished")
    ABANDONED = "abandoned", pgettext_lazy("room status", "abandoned")
    CLOSED = "closed", pgettext_lazy("room status", "closed")


class EndCause(models.TextChoices):
    """Why an abandoned or closed room ended, as a code a client words in its reader's
    language (the view's `status_cause`); `Room.status_reason` keeps the server's own
    English words beside it."""

    IDLE = "idle"  # A player did not play in time (`status_seat`: theirs).
    EVERYONE_AWAY = "everyone_away"  # The last person's seat went to a computer player.
    EVERYONE_LEFT = "everyone_left"  # Everyone left the lobby before the start.
    MODERATOR = "moderator"  # A moderator closed it (`status_words`: their own words).


class Room(models.Model):
    code = models.CharField(_("code"), max_length=12, unique=True)
    game = models.CharField(_("game"), max_length=20)
    name = models.CharField(_("name"), max_length=80, blank=True)
    options = models.JSONField(_("options"), default=dict)
    # Whether `options["rated"]` was left to the seats and decided by them at the start
    # (rated unless a computer player sat down), so that a new table "with the same
    # settings" asks what its host asked, not what the seats of this one decided.
    rated_by_seats = models.BooleanField(_("rated or not left to the seats"), default=False)
    public = models.BooleanField(_("public"), default=True)
    status = models.CharField(_("status"), max_length=10, choices=RoomStatus.choices, default=RoomStatus.LOBBY)
    status_reason = models.CharField(_("why it ended, in English"), max_length=200, blank=True)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_rooms", verbose_name=_("host")
    )
    version = models.PositiveIntegerField(_("version"), default=0)
    # Last sequence number handed out in this room's event log.
    event_seq = models.PositiveIntegerField(_("last event's number"), default=0)
    # Match totals per seat, copied from each scored hand for cheap listing.
    scores = models.JSONField(_("match scores"), default=list, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("changed at"), auto_now=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # The server seed of the hand to be dealt next (games.rules.fairness), drawn before
    # its players may set their own seeds; only its commitment is shown until that hand
    # is over. Empty while a hand is in play and after the match.
    next_server_seed = models.CharField(_("next hand's server seed"), max_length=64, blank=True, default="")
    # The seat whose player `status_reason` is about (the idle player of an abandoned
    # match), so that the view can say it to them as "you".
    status_seat = models.PositiveSmallIntegerField(_("idle player's seat"), null=True, blank=True)
    # Why it ended, as a code (blank for a match played out), and a moderator's own
    # words for closing it: what a reader's own language is made from.
    status_cause = models.CharField(_("why it ended"), max_length=16, choices=EndCause.choices, blank=True, default="")
    status_words = models.CharField(_("moderator's words"), max_length=200, blank=True, default="")
    # Once the match is over: the seats whose people want a rematch with the same
    # players, and the room of that rematch once every one of them agreed.
    rematch_agreed = models.JSONField(_("seats wanting a rematch"), default=list, blank=True)
    rematch_code = models.CharField(_("rematch's room code"), max_length=12, blank=True, default="")

    class Meta:
        indexes = [models.Index(fields=["status", "public", "-created_at"])]
        verbose_name = _("room")
        verbose_name_plural = _("rooms")

    def __str__(self) -> str:
        return f"{self.code} ({self.game}, {self.status})"

    @property
    def asked_options(self) -> dict[str, Any]:
        """The options as the host asked for them: `rated` left to the seats again where
        they decided it, for a new table (or a rematch) with the same settings."""
        return {**self.options, "rated": None} if self.rated_by_seats else dict(self.options)


class Seat(models.Model):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats", verbose_name=_("room"))
    index = models.PositiveSmallIntegerField(_("seat, counted from 0"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
        verbose_name=_("player"),
    )
    is_bot = models.BooleanField(_("computer player"), default=False)
    # The seat's fixed, public team (games.rules.base.Game.team_choice), null where the
    # room has none. In the lobby: the team its player chose, in rooms whose players
    # choose (else null). From the start: the team it plays in, as the engine says
    # (`Game.seat_teams`): the lobby's choice, or the one the engine set (drawn by lot,
    # or by seat). So after the start it is not necessarily a choice: a rematch asks
    # for it again only where the new room's players choose their teams.
    team = models.PositiveSmallIntegerField(_("team"), null=True, blank=True)
    joined_at = models.DateTimeField(_("sat down at"), null=True, blank=True)
    # The player's own last action; automatic ones do not count.
    last_acted_at = models.DateTimeField(_("own last move at"), null=True, blank=True)
    # Since when the game waits for this seat's player: the start of their turn, the
    # same seat's next turn included; null when it does not wait for them (kept by
    # games.services.timekeeper at every change: clocks, "your turn" lists and notices).
    turn_since = models.DateTimeField(_("waited for since"), null=True, blank=True)
    # The player's own waiting time before the turn in progress, in seconds: the time
    # the game waited for them in the turns since their own last action, less the
    # pauses between hands and the server's outages. The turn in progress adds
    # now - turn_since; abandonment comes when the sum reaches abandon_seconds.
    idle_seconds = models.FloatField(_("seconds waited for before this turn"), default=0)
    # The player's public part in the next deal's shuffle (games.rules.fairness).
    client_seed = models.CharField(_("player's seed"), max_length=64, blank=True, default="")

    class Meta:
        ordering = ["room", "index"]
        indexes = [
            # A player's waiting rooms (me/turns), and the seats waiting longest (notices).
            models.Index(
                fields=["user", "turn_since"], name="seat_turn_by_user", condition=models.Q(turn_since__isnull=False)
            ),
            models.Index(fields=["turn_since"], name="seat_turn_since", condition=models.Q(turn_since__isnull=False)),
        ]
        constraints = [
            models.UniqueConstraint(fields=["room", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["room", "user"], condition=models.Q(user__isnull=False), name="seat_unique_user"
            ),
        ]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")

    def __str__(self) -> str:
        # Numbered from 1, as the players see their seats.
        return f"{self.room.code} seat {self.index + 1}"

    @property
    def is_free(self) -> bool:
        return self.user_id is None and not self.is_bot

    @property
    def display_name(self) -> str:
        # A seat a computer player holds for a person who was away still names them.
        if self.is_bot and self.user_id is None:
            return f"Computer {self.index + 1}"
        return self.user.shown_name if self.user is not None else ""


class Round(models.Model):
    """One hand. Rebuildable: new_round(options, players, seed, carry) + its actions."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("room"))
    number = models.PositiveIntegerField(_("number"))
    seed = models.BigIntegerField(_("seed"))
    carry = models.JSONField(_("carried from the hand before"), null=True, blank=True)
    # What the hand's deals follow from (games.rules.fairness); empty for hands dealt
    # before deals were provable, which follow `seed` alone. Secret until the hand ends.
    server_seed = models.CharField(_("server seed"), max_length=64, blank=True, default="")
    client_seeds = models.JSONField(_("players' seeds"), null=True, blank=True)
    state = models.JSONField(_("state"))
    # Number of actions applied in this hand (= the last Action.seq).
    version = models.PositiveIntegerField(_("version"), default=0)
    # When the players to act run out of time (shown to clients as `deadline`).
    deadline_at = models.DateTimeField(_("turn ends at"), null=True, blank=True)
    # When computer players to act should move (a short delay, so play looks natural).
    bots_due_at = models.DateTimeField(_("computer players move at"), null=True, blank=True)
    # The earliest moment the server has something to do here: the deadline, the bots'
    # move or an idle player's abandonment. The sweeper looks for overdue rounds by it.
    due_at = models.DateTimeField(_("server's next task at"), null=True, blank=True, db_index=True)
    # The due time a task is queued for at the room's version, so that neither a change
    # nor the beat pickup queues it again; null when none is (games/services/clock.py).
    task_due_at = models.DateTimeField(_("task queued for"), null=True, blank=True)
    # The end of the last outage (uptime.Outage) already given back to this hand's
    # clocks; null: none since the hand began.
    outages_until = models.DateTimeField(_("outages given back until"), null=True, blank=True)
    result = models.JSONField(_("result"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["room", "number"]
        constraints = [models.UniqueConstraint(fields=["room", "number"], name="round_unique_number")]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")

    def __str__(self) -> str:
        return f"{self.room.code} hand {self.number}"


class Action(models.Model):
    """Append-only: one row per applied action, in order."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="actions", verbose_name=_("hand"))
    seq = models.PositiveIntegerField(_("number in the hand"))
    seat = models.PositiveSmallIntegerField(_("seat, counted from 0"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, verbose_name=_("player")
    )
    payload = models.JSONField(_("action's data"))
    # Taken by the server for a player (a timeout); computer players' moves are not automatic.
    automatic = models.BooleanField(_("automatic"), default=False)
    by_bot = models.BooleanField(_("by a computer player"), default=False)
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["round", "seq"]
        constraints = [models.UniqueConstraint(fields=["round", "seq"], name="action_unique_seq")]
        verbose_name = pgettext_lazy("game move", "action")
        verbose_name_plural = pgettext_lazy("game move", "actions")

    def __str__(self) -> str:
        return f"{self.round} #{self.seq} seat {self.seat + 1} {self.payload.get('type')}"


PUBLIC = -1


class Event(models.Model):
    """The room's log as clients read it; `visible_to` null means everyone."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="events", verbose_name=_("room"))
    seq = models.PositiveIntegerField(_("number in the room's log"))
    round_number = models.PositiveIntegerField(_("hand's number"), null=True, blank=True)
    version = models.PositiveIntegerField(_("version"))
    data = models.JSONField(_("event"))
    visible_to = models.JSONField(_("seen by"), null=True, blank=True)
    # The same as a bit set (bit i: seat i) that every database can filter on;
    # -1 (all bits) is public.
    audience = models.BigIntegerField(_("seen by, as bits of seats"), default=-1)
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["room", "seq"]
        constraints = [models.UniqueConstraint(fields=["room", "seq"], name="event_unique_seq")]
        verbose_name = _("event")
        verbose_name_plural = _("events")

    def __str__(self) -> str:
        return f"{self.room.code} event {self.seq}"


class IdempotentRequest(models.Model):
    """The first answer to an action sent with an Idempotency-Key, replayed on repeats."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("player"))
    key = models.CharField(_("key (Idempotency-Key)"), max_length=100)
    room = models.ForeignKey(Room, on_delete=models.CASCADE, verbose_name=_("room"))
    request_hash = models.CharField(_("request's digest"), max_length=64)
    response = models.JSONField(_("first answer"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_unique_key")]
        verbose_name = _("first answer to a repeated action")
        verbose_name_plural = _("first answers to repeated actions")

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key}"
