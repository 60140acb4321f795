"""Rooms, seats, rounds and actions, browsable by staff. Read-mostly: game state is
only ever written through games.services."""

from django.contrib import admin

from .models import Action, Event, Room, Round, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "is_bot", "team", "joined_at")
    readonly_fields = fields
    can_delete = False


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ("number", "version", "started_at", "finished_at", "deadline_at")
    readonly_fields = fields
    can_delete = False
    show_change_link = True


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("code", "game", "name", "status", "host", "public", "version", "created_at")
    list_filter = ("game", "status", "public", "created_at")
    search_fields = ("code", "name", "host__username", "seats__user__username")
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
    )
    inlines = [SeatInline, RoundInline]

    def has_add_permission(self, request) -> bool:
        return False


class ActionInline(admin.TabularInline):
    model = Action
    extra = 0
    fields = ("seq", "seat", "user", "payload", "automatic", "by_bot", "created_at")
    readonly_fields = fields
    can_delete = False


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
        "result",
        "started_at",
        "finished_at",
    )
    inlines = [ActionInline]

    def has_add_permission(self, request) -> bool:
        return False


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
