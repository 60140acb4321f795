from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Room


class Rating(models.Model):
    """A player's current rating in one game."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    # mu - 3 sigma, stored so the leaderboard orders by an index.
    shown = models.FloatField()
    matches = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="rating_unique_user_game")]
        indexes = [models.Index(fields=["game", "-shown"], name="rating_board")]
        # Named for the admin's lists of permissions, in the moderator's language.
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")

    def __str__(self) -> str:
        return f"{self.user_id} {self.game} {self.mu:.2f}±{self.sigma:.2f}"


class Placing(models.Model):
    """Where a seat finished a match, rated or not (computer players' seats too)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="placings")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="placings"
    )
    place = models.PositiveSmallIntegerField()
    score = models.IntegerField()
    won = models.BooleanField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["room", "seat"], name="placing_unique_seat")]
        indexes = [models.Index(fields=["user", "room"], name="placing_by_user")]
        verbose_name = _("place in a match")
        verbose_name_plural = _("places in matches")

    def __str__(self) -> str:
        return f"{self.room_id} seat {self.seat + 1}: place {self.place}"


class RatingChange(models.Model):
    """One person's rating before and after one rated match."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(max_length=20)
    seat = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["room", "user"], name="rating_change_unique_user")]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")

    def __str__(self) -> str:
        return f"{self.room_id} {self.user_id}: {self.mu_before:.2f} -> {self.mu_after:.2f}"
