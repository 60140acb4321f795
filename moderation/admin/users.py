"""Players for staff: their accounts and play, with Ban and Unban on a player's page."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.html import format_html_join
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from accounts import selectors as account_selectors
from accounts.models import NameChange, User
from games import selectors as game_selectors
from games.models import Action, Room
from games.names import name_of

from .. import services as moderation
from ..admin_views import moderator_of, reason_page
from ..display import action_text
from .permission_labels import PermissionLabelsAdmin

RECENT_ACTIONS = 20
RECENT_ROOMS = 50


@admin.register(User)
class UserAdmin(PermissionLabelsAdmin, BaseUserAdmin):
    """Accounts for staff. Nobody deletes an account or switches it off here: a ban, with
    its reason and log entry, is the way to keep someone out. Moderators (no superuser)
    see a player's standing and play, not their e-mail, password or permissions (which a
    superuser reads in their own language)."""

    change_form_template = "admin/moderation/change_form.html"
    list_display = ("username", "display_name", "is_guest", "is_staff", "is_active", "banned_at", "date_joined")
    list_filter = (("banned_at", admin.EmptyFieldListFilter), "is_guest", "is_staff")
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        (None, {"fields": ("username", "password")}),
        # Django's admin's own words, which its catalogues translate.
        (gettext_lazy("Personal info"), {"fields": ("first_name", "last_name", "email")}),
        (gettext_lazy("Permissions"), {"fields": ("active", "is_staff", "is_superuser", "groups", "user_permissions")}),
        (gettext_lazy("Important dates"), {"fields": ("last_login", "date_joined")}),
        (
            gettext_lazy("Player"),
            {"fields": ("display_name", "earlier_names", "is_guest", "banned_at", "ban_reason", "same_browser")},
        ),
        (gettext_lazy("Play"), {"fields": ("rooms", "recent_actions")}),
    )
    moderator_fieldsets = (
        (
            None,
            {"fields": ("username", "display_name", "earlier_names", "is_guest", "active", "banned_at", "ban_reason")},
        ),
        (gettext_lazy("Ban evasion"), {"fields": ("same_browser",)}),
        (gettext_lazy("Dates"), {"fields": ("date_joined", "last_login")}),
        (gettext_lazy("Play"), {"fields": ("rooms", "recent_actions")}),
    )
    readonly_fields = ("active", "earlier_names", "same_browser", "banned_at", "ban_reason", "rooms", "recent_actions")

    class Media:
        css = {"all": ["moderation/admin.css"]}

    def get_fieldsets(self, request, obj=None):
        if obj is not None and not request.user.is_superuser:
            return self.moderator_fieldsets
        return super().get_fieldsets(request, obj)

    def get_search_fields(self, request):
        return self.search_fields if request.user.is_superuser else ("username", "display_name")

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "", extra_context=None):
        user = self.get_object(request, object_id)
        extra = {**(extra_context or {}), "moderation": user and self.moderation(request, user)}
        return super().change_view(request, object_id, form_url, extra)

    def moderation(self, request: HttpRequest, user: User) -> dict[str, Any] | None:
        """The box at the top of the page: the account's standing and Ban or Unban."""
        if not request.user.has_perm("moderation.ban_user"):
            return None
        if user.banned_at:
            # Translators: since is a date and time such as 2026-03-01 12:00; the reason is the moderator's words.
            banned = _("Banned since %(since)s UTC. Reason: %(reason)s")
            return {
                "status": banned % {"since": f"{user.banned_at:%Y-%m-%d %H:%M}", "reason": user.ban_reason},
                "alert": True,
                "actions": [{"url": reverse("admin:accounts_user_unban", args=[user.pk]), "label": _("Unban…")}],
            }
        return {
            "status": _("Not banned."),
            "actions": [
                {"url": reverse("admin:accounts_user_ban", args=[user.pk]), "label": _("Ban…"), "danger": True}
            ],
        }

    # Shown, never a form field: a ban (with its reason and log entry) is what switches it off.
    @admin.display(description=gettext_lazy("Active"), boolean=True)
    def active(self, user: User) -> bool:
        return user.is_active

    @admin.display(description=gettext_lazy("Earlier display names"))
    def earlier_names(self, user: User) -> str:
        # A player who misbehaved under one name is still known by it after a change.
        changes = NameChange.objects.filter(user=user)
        return format_html_join(
            "",
            "<div>{} → {} ({} UTC)</div>",
            ((c.before or _("(none)"), c.after, f"{c.changed_at:%Y-%m-%d %H:%M}") for c in changes),
        ) or pgettext("names", "None")

    @admin.display(description=gettext_lazy("Accounts made from the same browser"))
    def same_browser(self, user: User) -> str:
        # A banned person's new account shows here, when it was made in the same browser.
        others = account_selectors.accounts_of_browser(user=user)
        return format_html_join(
            ", ",
            '<a href="{}">{}</a>{}',
            (
                (
                    reverse("admin:accounts_user_change", args=[o.pk]),
                    o.username,
                    " " + _("(banned)") if o.banned_at else "",
                )
                for o in others
            ),
        ) or pgettext("accounts", "None")

    @admin.display(description=gettext_lazy("Rooms"))
    def rooms(self, user: User) -> str:
        # Where they sit, and where they played: a ban or a moderator takes seats away,
        # and their rooms must still be found from their page.
        rooms = (
            Room.objects.filter(Q(seats__user=user) | Q(rounds__actions__user=user))
            .distinct()
            .order_by("-created_at")[:RECENT_ROOMS]
        )
        return (
            format_html_join(
                ", ",
                '<a href="{}">{}</a> ({}, {})',
                ((reverse("admin:games_room_change", args=[r.id]), r.code, r.game, r.status) for r in rooms),
            )
            or "-"
        )

    @admin.display(description=format_lazy("{} ({})", gettext_lazy("Last actions"), RECENT_ACTIONS))
    def recent_actions(self, user: User) -> str:
        actions = Action.objects.filter(user=user).select_related("round__room").order_by("-created_at")
        # Translators: one action of a player, after its time and room: its hand's number, its number in the hand,
        # the player's seat, then the action ("hand 2 #14 seat 3: play: card 10♠").
        line = _("hand %(hand)s #%(seq)s seat %(seat)s: %(action)s")
        return (
            format_html_join(
                "",
                "<div>{} {} {}</div>",
                (
                    (
                        f"{a.created_at:%Y-%m-%d %H:%M}",
                        a.round.room.code,
                        line
                        % {"hand": a.round.number, "seq": a.seq, "seat": a.seat + 1, "action": action_text(a.payload)},
                    )
                    for a in actions[:RECENT_ACTIONS]
                ),
            )
            or "-"
        )

    def get_urls(self):
        urls = [
            path("<id:user_id>/ban/", self.admin_site.admin_view(self.ban_view), name="accounts_user_ban"),
            path("<id:user_id>/unban/", self.admin_site.admin_view(self.unban_view), name="accounts_user_unban"),
        ]
        return urls + super().get_urls()

    def ban_view(self, request: HttpRequest, user_id: int) -> HttpResponse:
        user = get_object_or_404(User, pk=user_id)
        return reason_page(
            request,
            perm="moderation.ban_user",
            title=_("Ban %(username)s") % {"username": user.username},
            question=_(
                "The account can no longer sign in or act; its tokens stop working at once. It leaves the rooms "
                "still open: in a game in play a computer player takes its seat, in a lobby the seat is freed, and "
                "a room with nobody else seated is shut down. The player, when trying to sign in, and those tables "
                "read the reason."
            ),
            consequences=[
                # Translators: a room a ban takes a seat in: its code, its game's name, its status (lobby, playing).
                _("%(code)s (%(game)s, %(status)s), seat %(seat)s")
                % {"code": s.room.code, "game": name_of(s.room.game), "status": s.room.status, "seat": s.index + 1}
                for s in game_selectors.open_seats_of(user=user)
            ],
            submit=pgettext("button", "Ban"),
            back=reverse("admin:accounts_user_change", args=[user.pk]),
            act=lambda reason: moderation.user_ban(moderator=moderator_of(request), user=user, reason=reason),
            done=_("%(username)s is banned.") % {"username": user.username},
        )

    def unban_view(self, request: HttpRequest, user_id: int) -> HttpResponse:
        user = get_object_or_404(User, pk=user_id)
        return reason_page(
            request,
            perm="moderation.ban_user",
            title=_("Unban %(username)s") % {"username": user.username},
            question=_("The account may sign in and play again (its old sessions stay signed out)."),
            submit=pgettext("button", "Unban"),
            back=reverse("admin:accounts_user_change", args=[user.pk]),
            act=lambda reason: moderation.user_unban(moderator=moderator_of(request), user=user, reason=reason),
            done=_("%(username)s is no longer banned.") % {"username": user.username},
        )
