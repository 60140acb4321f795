"""Rooms, seats, rounds (hands), the append-only action log and the per-room event log.

The engine state of the hand in play lives in `Round.state`; `Room.version` counts every
change to the room (lobby moves and applied actions alike) and is what clients send
back with an action. All writes go through games.services, which lock the room row.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models


class RoomStatus(models.TextChoices):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"
    CLOSED = "closed"


class Room(models.Model):
    code = models.CharField(max_length=12, unique=True)
    game = models.CharField(max_length=20)
    name = models.CharField(max_length=80, blank=True)
    options = models.JSONField(default=dict)
    # Whether `options["rated"]` was left to the seats and decided by them at the start
    # (rated unless a computer player sat down), so that a new table "with the same
    # settings" asks what its host asked, not what the seats of this one decided.
    rated_by_seats = models.BooleanField(default=False)
    public = models.BooleanField(default=True)
    status = models.CharField(max_length=10, choices=RoomStatus.choices, default=RoomStatus.LOBBY)
    status_reason = models.CharField(max_length=200, blank=True)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_rooms")
    version = models.PositiveIntegerField(default=0)
    # Last sequence number handed out in this room's event log.
    event_seq = models.PositiveIntegerField(default=0)
    # Match totals per seat, copied from each scored hand for cheap listing.
    scores = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The server seed of the hand to be dealt next (games.rules.fairness), drawn before
    # its players may set their own seeds; only its commitment is shown until that hand
    # is over. Empty while a hand is in play and after the match.
    next_server_seed = models.CharField(max_length=64, blank=True, default="")
    # The seat whose player `status_reason` is about (the idle player of an abandoned
    # match), so that the view can say it to them as "you".
    status_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # Once the match is over: the seats whose people want a rematch with the same
    # players, and the room of that rematch once every one of them agreed.
    rematch_agreed = models.JSONField(default=list, blank=True)
    rematch_code = models.CharField(max_length=12, blank=True, default="")

    class Meta:
        indexes = [models.Index(fields=["status", "public", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.code} ({self.game}, {self.status})"

    @property
    def asked_options(self) -> dict[str, Any]:
        """The options as the host asked for them: `rated` left to the seats again where
        they decided it, for a new table (or a rematch) with the same settings."""
        return {**self.options, "rated": None} if self.rated_by_seats else dict(self.options)


class Seat(models.Model):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    is_bot = models.BooleanField(default=False)
    # The seat's fixed, public team (games.rules.base.Game.team_choice), null where the
    # room has none. In the lobby: the team its player chose, in rooms whose players
    # choose (else null). From the start: the team it plays in, as the engine says
    # (`Game.seat_teams`): the lobby's choice, or the one the engine set (drawn by lot,
    # or by seat). So after the start it is not necessarily a choice: a rematch asks
    # for it again only where the new room's players choose their teams.
    team = models.PositiveSmallIntegerField(null=True, blank=True)
    joined_at = models.DateTimeField(null=True, blank=True)
    # The player's own last action; automatic ones do not count.
    last_acted_at = models.DateTimeField(null=True, blank=True)
    # Since when the game waits for this seat's player: the start of their turn, the
    # same seat's next turn included; null when it does not wait for them (kept by
    # games.services.timekeeper at every change: clocks, "your turn" lists and notices).
    turn_since = models.DateTimeField(null=True, blank=True)
    # The player's own waiting time before the turn in progress, in seconds: the time
    # the game waited for them in the turns since their own last action, less the
    # pauses between hands and the server's outages. The turn in progress adds
    # now - turn_since; abandonment comes when the sum reaches abandon_seconds.
    idle_seconds = models.FloatField(default=0)
    # The player's public part in the next deal's shuffle (games.rules.fairness).
    client_seed = models.CharField(max_length=64, blank=True, default="")

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

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    carry = models.JSONField(null=True, blank=True)
    # What the hand's deals follow from (games.rules.fairness); empty for hands dealt
    # before deals were provable, which follow `seed` alone. Secret until the hand ends.
    server_seed = models.CharField(max_length=64, blank=True, default="")
    client_seeds = models.JSONField(null=True, blank=True)
    state = models.JSONField()
    # Number of actions applied in this hand (= the last Action.seq).
    version = models.PositiveIntegerField(default=0)
    # When the players to act run out of time (shown to clients as `deadline`).
    deadline_at = models.DateTimeField(null=True, blank=True)
    # When computer players to act should move (a short delay, so play looks natural).
    bots_due_at = models.DateTimeField(null=True, blank=True)
    # The earliest moment the server has something to do here: the deadline, the bots'
    # move or an idle player's abandonment. The sweeper looks for overdue rounds by it.
    due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The due time a task is queued for at the room's version, so that neither a change
    # nor the beat pickup queues it again; null when none is (games/services/clock.py).
    task_due_at = models.DateTimeField(null=True, blank=True)
    # The end of the last outage (uptime.Outage) already given back to this hand's
    # clocks; null: none since the hand began.
    outages_until = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["room", "number"]
        constraints = [models.UniqueConstraint(fields=["room", "number"], name="round_unique_number")]

    def __str__(self) -> str:
        return f"{self.room.code} hand {self.number}"


class Action(models.Model):
    """Append-only: one row per applied action, in order."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    payload = models.JSONField()
    # Taken by the server for a player (a timeout); computer players' moves are not automatic.
    automatic = models.BooleanField(default=False)
    by_bot = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "seq"]
        constraints = [models.UniqueConstraint(fields=["round", "seq"], name="action_unique_seq")]

    def __str__(self) -> str:
        return f"{self.round} #{self.seq} seat {self.seat + 1} {self.payload.get('type')}"


PUBLIC = -1


class Event(models.Model):
    """The room's log as clients read it; `visible_to` null means everyone."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    round_number = models.PositiveIntegerField(null=True, blank=True)
    version = models.PositiveIntegerField()
    data = models.JSONField()
    visible_to = models.JSONField(null=True, blank=True)
    # The same as a bit set (bit i: seat i) that every database can filter on;
    # -1 (all bits) is public.
    audience = models.BigIntegerField(default=-1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["room", "seq"]
        constraints = [models.UniqueConstraint(fields=["room", "seq"], name="event_unique_seq")]

    def __str__(self) -> str:
        return f"{self.room.code} event {self.seq}"


class IdempotentRequest(models.Model):
    """The first answer to an action sent with an Idempotency-Key, replayed on repeats."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    key = models.CharField(max_length=100)
    room = models.ForeignKey(Room, on_delete=models.CASCADE)
    request_hash = models.CharField(max_length=64)
    response = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_unique_key")]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key}"
