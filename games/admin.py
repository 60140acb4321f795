"""Rooms, seats, rounds, actions and events for staff, with the moderator's actions.

Read-only: game state is only ever written through games.services (the moderator's
actions go through moderation.services, which calls them and keeps the log).
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from moderation import services as moderation
from moderation.admin_views import reason_page, require_perm

from .models import Action, Event, Room, RoomStatus, Round, Seat

# Rooms whose players get at most this long per turn count as live tables.
LIVE_TURN_SECONDS = 300


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "is_bot", "team", "joined_at", "last_acted_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ("number", "version", "started_at", "finished_at", "deadline_at")
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class PaceFilter(admin.SimpleListFilter):
    title = "pace"
    parameter_name = "pace"

    def lookups(self, request, model_admin):
        return [("live", "Live"), ("by_move", "Play-by-move")]

    def queryset(self, request, queryset):
        if self.value() == "live":
            return queryset.filter(options__turn_seconds__lte=LIVE_TURN_SECONDS)
        if self.value() == "by_move":
            return queryset.filter(options__turn_seconds__gt=LIVE_TURN_SECONDS)
        return queryset


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("code", "game", "name", "status", "host", "public", "version", "created_at")
    list_filter = ("game", "status", PaceFilter, "public", "created_at")
    search_fields = ("code", "name", "host__username", "seats__user__username", "seats__user__display_name")
    readonly_fields = (
        "code",
        "game",
        "options",
        "status",
        "status_reason",
        "host",
        "version",
        "event_seq",
        "scores",
        "created_at",
        "updated_at",
        "started_at",
        "finished_at",
        "moderation",
        "action_log",
    )
    inlines = [SeatInline, RoundInline]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("host").distinct()

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        # Viewing only: the change page shows everything; changes are moderator actions.
        return False

    @admin.display(description="Moderator actions")
    def moderation(self, room: Room) -> str:
        if room.status in (RoomStatus.CLOSED, RoomStatus.ABANDONED, RoomStatus.FINISHED):
            return "-"
        links = [(reverse("admin:games_room_close", args=[room.id]), "Close the room")]
        links += [
            (reverse("admin:games_room_seat_to_bot", args=[room.id, s.index]), f"Give seat {s.index} to a computer")
            for s in room.seats.filter(user__isnull=False).order_by("index")
        ]
        return format_html_join(" · ", '<a href="{}">{}</a>', links)

    @admin.display(description="Action log (every hand, hidden cards included)")
    def action_log(self, room: Room) -> str:
        rows = Action.objects.filter(round__room=room).select_related("round", "user").order_by("round__number", "seq")
        body = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
            (
                (
                    a.round.number,
                    a.seq,
                    a.seat,
                    a.user or ("computer" if a.by_bot else "-"),
                    a.payload,
                    "automatic" if a.automatic else "",
                    f"{a.created_at:%Y-%m-%d %H:%M:%S}",
                )
                for a in rows
            ),
        )
        return format_html(
            "<table><tr><th>hand</th><th>#</th><th>seat</th><th>by</th><th>action</th><th></th><th>at</th></tr>"
            "{}</table>",
            body,
        )

    def get_urls(self):
        urls = [
            path("<int:room_id>/close/", self.admin_site.admin_view(self.close_view), name="games_room_close"),
            path(
                "<int:room_id>/seat/<int:index>/to-bot/",
                self.admin_site.admin_view(self.seat_to_bot_view),
                name="games_room_seat_to_bot",
            ),
        ]
        return urls + super().get_urls()

    def close_view(self, request: HttpRequest, room_id: int) -> HttpResponse:
        room = get_object_or_404(Room, id=room_id)
        return reason_page(
            request,
            perm="moderation.moderate_room",
            title=f"Close room {room.code}",
            question="Nobody will be able to play on; everyone at the table sees the reason.",
            submit="Close the room",
            back=reverse("admin:games_room_change", args=[room.id]),
            act=lambda reason: moderation.room_close(moderator=request.user, room=room, reason=reason),
            done=f"Room {room.code} is closed.",
        )

    def seat_to_bot_view(self, request: HttpRequest, room_id: int, index: int) -> HttpResponse:
        room = get_object_or_404(Room, id=room_id)
        return reason_page(
            request,
            perm="moderation.moderate_room",
            title=f"Give seat {index} of room {room.code} to a computer player",
            question="The player loses the seat; a computer player takes it over and plays on.",
            submit="Give the seat away",
            back=reverse("admin:games_room_change", args=[room.id]),
            act=lambda reason: moderation.seat_give_to_bot(
                moderator=request.user, room=room, index=index, reason=reason
            ),
            done=f"Seat {index} is played by a computer now.",
        )


class ActionInline(admin.TabularInline):
    model = Action
    extra = 0
    fields = ("seq", "seat", "user", "payload", "automatic", "by_bot", "created_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("room", "number", "version", "started_at", "finished_at")
    list_filter = ("room__game",)
    search_fields = ("room__code",)
    readonly_fields = (
        "room",
        "number",
        "seed",
        "carry",
        "state",
        "version",
        "deadline_at",
        "due_at",
        "result",
        "started_at",
        "finished_at",
        "consistency",
    )
    inlines = [ActionInline]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="Consistency")
    def consistency(self, round_: Round) -> str:
        url = reverse("admin:games_round_replay", args=[round_.id])
        return format_html('<a href="{}">Replay from the seed and compare with the stored state</a>', url)

    def get_urls(self):
        view = self.admin_site.admin_view(self.replay_view)
        return [path("<int:round_id>/replay/", view, name="games_round_replay"), *super().get_urls()]

    def replay_view(self, request: HttpRequest, round_id: int) -> HttpResponse:
        require_perm(request, "games.view_round")
        round_ = get_object_or_404(Round.objects.select_related("room"), id=round_id)
        report = moderation.replay_check(moderator=request.user, round_=round_)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Replay of {round_}",
            "report": report,
            "back": reverse("admin:games_round_change", args=[round_.id]),
        }
        return TemplateResponse(request, "admin/moderation/replay.html", context)


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    list_display = ("round", "seq", "seat", "user", "automatic", "by_bot", "created_at")
    list_filter = ("automatic", "by_bot", "round__room__game")
    search_fields = ("round__room__code", "user__username")
    readonly_fields = ("round", "seq", "seat", "user", "payload", "automatic", "by_bot", "created_at")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("room", "seq", "round_number", "version", "visible_to", "created_at")
    search_fields = ("room__code",)
    readonly_fields = ("room", "seq", "round_number", "version", "data", "visible_to", "audience", "created_at")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
