"""Players' personal access tokens: a moderator sees whose they are, what they may do
and when they were last used, and revokes one by deleting it (its secret then answers
401; Django's admin log records the deletion). Apps registered for OAuth2, their grants
and tokens have django-oauth-toolkit's own admin pages: deleting an app revokes every
token it was given."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from grants.models import PersonalToken

from ..admin_views import _ModelAdmin


@admin.register(PersonalToken)
class PersonalTokenAdmin(_ModelAdmin):
    list_display = ("name", "user", "scope", "created_at", "last_used_at")
    list_filter = ("scope",)
    search_fields = ("user__username", "name")
    ordering = ("-created_at",)
    readonly_fields = ("user", "name", "scope", "created_at", "last_used_at")
    exclude = ("digest",)
    actions = ["delete_selected"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a token is made by its player, who alone sees its secret

    def has_change_permission(self, request: HttpRequest, obj: PersonalToken | None = None) -> bool:
        return False
