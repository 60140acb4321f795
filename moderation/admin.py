from django.contrib import admin

from .admin_views import ReadOnlyAdmin
from .models import ModerationEntry


@admin.register(ModerationEntry)
class ModerationEntryAdmin(ReadOnlyAdmin):
    """The moderation log: read-only for everyone, superusers included."""

    list_display = ("created_at", "moderator", "kind", "target_user", "room_code", "reason_text", "detail_text")
    list_filter = ("kind", "created_at")
    search_fields = ("moderator__username", "target_user__username", "room__code", "reason")
    fields = ("created_at", "moderator", "kind", "target_user", "room", "reason", "detail")
    readonly_fields = fields
    list_select_related = ("moderator", "target_user", "room")

    class Media:
        css = {"all": ["moderation/admin.css"]}

    @admin.display(description="room", ordering="room__code")
    def room_code(self, entry: ModerationEntry) -> str:
        return entry.room.code if entry.room else "-"

    # Their own names give the columns the CSS classes that let them wrap (admin.css).
    @admin.display(description="reason")
    def reason_text(self, entry: ModerationEntry) -> str:
        return entry.reason

    @admin.display(description="what it did")
    def detail_text(self, entry: ModerationEntry) -> str:
        return entry.detail or "-"
