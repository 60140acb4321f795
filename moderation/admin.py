from django.contrib import admin

from .models import ModerationEntry


@admin.register(ModerationEntry)
class ModerationEntryAdmin(admin.ModelAdmin):
    """The moderation log: read-only for everyone, superusers included."""

    list_display = ("created_at", "moderator", "kind", "target_user", "room", "reason")
    list_filter = ("kind", "created_at")
    search_fields = ("moderator__username", "target_user__username", "room__code", "reason")
    readonly_fields = ("created_at", "moderator", "kind", "target_user", "room", "reason", "detail")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
