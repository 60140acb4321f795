from django.contrib import admin
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..admin_views import ReadOnlyAdmin
from ..models import ModerationEntry


@admin.register(ModerationEntry)
class ModerationEntryAdmin(ReadOnlyAdmin):
    """The moderation log: read-only for everyone, superusers included.

    The list is built to leave its reason column the room to be read in full beside the
    admin's menu and the filters at 1280 pixels: short dates, one column for whom or
    which room it concerned, and what the action did under its reason.
    """

    list_display = ("when", "by", "kind", "concerning", "reason_text")
    list_display_links = ("when",)
    list_filter = ("kind", "created_at")
    search_fields = ("moderator__username", "target_user__username", "room__code", "reason")
    fields = ("created_at", "moderator", "kind", "target_user", "room", "reason", "what_it_did")
    readonly_fields = fields
    list_select_related = ("moderator", "target_user", "room")

    class Media:
        css = {"all": ["moderation/admin.css"]}

    @admin.display(description=gettext_lazy("when (UTC)"), ordering="created_at")
    def when(self, entry: ModerationEntry) -> str:
        return f"{entry.created_at:%Y-%m-%d %H:%M}"

    @admin.display(description=gettext_lazy("moderator"), ordering="moderator__username")
    def by(self, entry: ModerationEntry) -> str:
        # No moderator: the server handed the seat over by the room's own rule.
        return entry.moderator.username if entry.moderator else _("the server (room rule)")

    @admin.display(description=gettext_lazy("concerning"))
    def concerning(self, entry: ModerationEntry) -> str:
        user = entry.target_user.username if entry.target_user else ""
        room = entry.room.code if entry.room else ""
        if user and room:
            # Translators: a moderation log entry concerns a person in a room (ana in ABC123).
            return _("%(username)s in %(room)s") % {"username": user, "room": room}
        return user or room or "-"

    @admin.display(description=gettext_lazy("what it did"))
    def what_it_did(self, entry: ModerationEntry) -> str:
        return entry.shown_detail

    # Its own name gives the column the CSS class that lets it wrap (admin.css).
    @admin.display(description=gettext_lazy("reason, and what it did"))
    def reason_text(self, entry: ModerationEntry) -> str:
        reason, did = entry.shown_reason, entry.shown_detail
        if not did:
            return reason
        return format_html('{}<div class="moderation-detail">{}</div>', reason, did)
