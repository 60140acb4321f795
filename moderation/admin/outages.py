"""The server's outages as the heartbeat recorded them (uptime): when no process could
serve the API, and so how much time the clocks of the tables in play were given back.
Read-only: they are facts, written by the heartbeat alone."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy

from uptime.models import Outage

from ..admin_views import ReadOnlyAdmin


@admin.register(Outage)
class OutageAdmin(ReadOnlyAdmin):
    list_display = ("started_at", "ended_at", "length")
    ordering = ("-started_at",)
    date_hierarchy = "started_at"

    @admin.display(description=gettext_lazy("seconds"))
    def length(self, outage: Outage) -> str:
        return f"{outage.seconds:.1f}"
