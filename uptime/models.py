"""The heartbeat of the processes that serve the API, and the outages it showed."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Heartbeat(models.Model):
    """One row for the whole deployment (id 1): when a process serving the API last
    said it could serve. Every such process writes it (uptime.heartbeat), under its row
    lock, so a gap is seen by exactly one of them."""

    beat_at = models.DateTimeField(_("last beat at"))

    class Meta:
        verbose_name = _("heartbeat")
        verbose_name_plural = _("heartbeats")

    def __str__(self) -> str:
        return f"heartbeat at {self.beat_at:%Y-%m-%d %H:%M:%S}"


class Outage(models.Model):
    """A time during which no process could serve the API: no heartbeat for longer
    than UPTIME_OUTAGE_AFTER_SECONDS. The clocks of the turns it overlapped are
    extended by it (games.timing.outage_credit)."""

    started_at = models.DateTimeField(_("started at"))
    ended_at = models.DateTimeField(_("ended at"), db_index=True)

    class Meta:
        ordering = ["started_at"]
        verbose_name = _("outage")
        verbose_name_plural = _("outages")

    def __str__(self) -> str:
        return f"outage {self.started_at:%Y-%m-%d %H:%M:%S} to {self.ended_at:%H:%M:%S}"

    @property
    def seconds(self) -> float:
        return (self.ended_at - self.started_at).total_seconds()
