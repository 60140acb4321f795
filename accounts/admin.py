from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from games.models import Action, Seat
from moderation import services as moderation
from moderation.admin_views import reason_page

from .models import User

RECENT_ACTIONS = 20


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "display_name", "is_guest", "is_staff", "is_active", "banned_at", "date_joined")
    list_filter = ("is_guest", "is_staff", "is_active")
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        ("Player", {"fields": ("display_name", "is_guest", "banned_at", "ban_reason")}),
        ("Play", {"fields": ("moderation", "rooms", "recent_actions")}),
    )
    readonly_fields = ("banned_at", "ban_reason", "moderation", "rooms", "recent_actions")

    @admin.display(description="Moderator actions")
    def moderation(self, user: User) -> str:
        if user.pk is None:
            return "-"
        if user.banned_at:
            return format_html('<a href="{}">Unban</a>', reverse("admin:accounts_user_unban", args=[user.pk]))
        return format_html('<a href="{}">Ban</a>', reverse("admin:accounts_user_ban", args=[user.pk]))

    @admin.display(description="Rooms")
    def rooms(self, user: User) -> str:
        seats = Seat.objects.filter(user=user).select_related("room").order_by("-room__created_at")
        return (
            format_html_join(
                ", ",
                '<a href="{}">{}</a> ({}, {})',
                (
                    (reverse("admin:games_room_change", args=[s.room_id]), s.room.code, s.room.game, s.room.status)
                    for s in seats
                ),
            )
            or "-"
        )

    @admin.display(description=f"Last {RECENT_ACTIONS} actions")
    def recent_actions(self, user: User) -> str:
        actions = Action.objects.filter(user=user).select_related("round__room").order_by("-created_at")
        return (
            format_html_join(
                "<br>",
                "{} {} hand {} #{}: <code>{}</code>",
                (
                    (f"{a.created_at:%Y-%m-%d %H:%M}", a.round.room.code, a.round.number, a.seq, a.payload)
                    for a in actions[:RECENT_ACTIONS]
                ),
            )
            or "-"
        )

    def get_urls(self):
        urls = [
            path("<int:user_id>/ban/", self.admin_site.admin_view(self.ban_view), name="accounts_user_ban"),
            path("<int:user_id>/unban/", self.admin_site.admin_view(self.unban_view), name="accounts_user_unban"),
        ]
        return urls + super().get_urls()

    def ban_view(self, request: HttpRequest, user_id: int) -> HttpResponse:
        user = get_object_or_404(User, pk=user_id)
        return reason_page(
            request,
            perm="moderation.ban_user",
            title=f"Ban {user.username}",
            question="The account can no longer log in or act; its tokens stop working at once.",
            submit="Ban",
            back=reverse("admin:accounts_user_change", args=[user.pk]),
            act=lambda reason: moderation.user_ban(moderator=request.user, user=user, reason=reason),
            done=f"{user.username} is banned.",
        )

    def unban_view(self, request: HttpRequest, user_id: int) -> HttpResponse:
        user = get_object_or_404(User, pk=user_id)
        return reason_page(
            request,
            perm="moderation.ban_user",
            title=f"Unban {user.username}",
            question="The account may log in and play again.",
            submit="Unban",
            back=reverse("admin:accounts_user_change", args=[user.pk]),
            act=lambda reason: moderation.user_unban(moderator=request.user, user=user, reason=reason),
            done=f"{user.username} is no longer banned.",
        )
