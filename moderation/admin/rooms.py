"""Rooms, seats, rounds, actions and events for staff, with the moderator's actions.

Read-only, and nothing is deleted here: game state is only ever written through
games.services (the moderator's actions go through moderation.services, which calls
them and keeps the log). Seats are numbered from 1, as the players see them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.functional import Promise
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from games.models import Action, Event, Room, RoomStatus, Round, Seat
from games.replay import round_replay

from .. import services as moderation
from ..admin_views import ReadOnlyAdmin, ReadOnlyInline, moderator_of, reason_page, require_perm
from ..display import action_text, seat_in, seat_label, state_html, text

# Rooms whose players get at most this long per turn count as live tables.
LIVE_TURN_SECONDS = 300


def _seat_to_bot(data: dict[str, Any]) -> str:
    name = {"name": data.get("name", "")}
    if data.get("idle"):
        return _("%(name)s away, a computer player holds the seat for them") % name
    if data.get("banned"):
        return _("%(name)s out (banned), a computer player plays on") % name
    return _("%(name)s out, a computer player plays on") % name


# The room's log events that hand a seat over, and how the room's page words each.
HANDOVER_EVENTS: dict[str, Callable[[dict[str, Any]], str]] = {
    "seat_to_bot": _seat_to_bot,
    "seat_reclaimed": lambda d: _("%(name)s back, took the seat back") % {"name": d.get("name", "")},
}

# How the moderation box at the top of a room's page says where the room stands.
ROOM_STANDING: dict[str, Promise] = {
    RoomStatus.LOBBY: gettext_lazy("This room is in its lobby."),
    RoomStatus.PLAYING: gettext_lazy("This room is playing."),
    RoomStatus.FINISHED: gettext_lazy("This room is finished."),
    RoomStatus.ABANDONED: gettext_lazy("This room is abandoned."),
    RoomStatus.CLOSED: gettext_lazy("This room is closed."),
}


class SeatInline(ReadOnlyInline):
    model = Seat
    extra = 0
    fields = ("number", "user", "is_bot", "team", "joined_at", "last_acted_at", "turn_since", "idle_seconds")
    readonly_fields = fields

    @admin.display(description=gettext_lazy("seat"))
    def number(self, seat: Seat) -> str:
        return seat_label(seat.index)


class RoundInline(ReadOnlyInline):
    model = Round
    extra = 0
    fields = ("number", "version", "started_at", "finished_at", "deadline_at")
    readonly_fields = fields
    show_change_link = True
    verbose_name = gettext_lazy("hand")
    verbose_name_plural = gettext_lazy("hands")


class PaceFilter(admin.SimpleListFilter):
    title = gettext_lazy("pace")
    parameter_name = "pace"

    def lookups(self, request, model_admin):
        return [("live", pgettext_lazy("pace", "Live")), ("by_move", pgettext_lazy("pace", "Play-by-move"))]

    def queryset(self, request, queryset):
        if self.value() == "live":
            return queryset.filter(options__turn_seconds__lte=LIVE_TURN_SECONDS)
        if self.value() == "by_move":
            return queryset.filter(options__turn_seconds__gt=LIVE_TURN_SECONDS)
        return queryset


def seat_names(room: Room) -> list[str]:
    """The names at the table, by seat index, as the players see them."""
    return [seat.display_name for seat in room.seats.select_related("user").order_by("index")]


@admin.register(Room)
class RoomAdmin(ReadOnlyAdmin):
    change_form_template = "admin/moderation/change_form.html"
    list_display = ("code", "game", "name", "status", "host", "public", "version", "created_at")
    list_filter = ("game", "status", PaceFilter, "public", "created_at")
    search_fields = ("code", "name", "host__username", "seats__user__username", "seats__user__display_name")
    fields = (
        "code",
        "game",
        "name",
        "public",
        "status",
        "status_reason",
        "host",
        "version",
        "created_at",
        "started_at",
        "finished_at",
        "options_text",
        "scores_text",
        "handovers",
        "action_log",
    )
    readonly_fields = fields
    inlines = [SeatInline, RoundInline]

    class Media:
        css = {"all": ["moderation/admin.css"]}

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("host").distinct()

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "", extra_context=None):
        room = self.get_object(request, object_id)
        extra = {**(extra_context or {}), "moderation": room and self.moderation(request, room)}
        return super().change_view(request, object_id, form_url, extra)

    def moderation(self, request: HttpRequest, room: Room) -> dict[str, Any] | None:
        """The box at the top of the page: the room's state and what a moderator may do."""
        if not request.user.has_perm("moderation.moderate_room"):
            return None
        standing = str(ROOM_STANDING.get(room.status, room.status))
        if room.status not in (RoomStatus.LOBBY, RoomStatus.PLAYING):
            status = f"{standing} {room.status_reason}" if room.status_reason else standing
            return {"status": status, "none": _("Nothing to moderate.")}
        actions: list[dict[str, Any]] = [
            {
                "url": reverse("admin:games_room_seat_to_bot", args=[room.id, s.index]),
                # Translators: the seat is such as "Seat 2 (Ann)".
                "label": _("Give %(seat)s to a computer player…") % {"seat": seat_label(s.index, s.display_name)},
            }
            for s in room.seats.filter(user__isnull=False).select_related("user").order_by("index")
        ]
        actions.append(
            {
                "url": reverse("admin:games_room_close", args=[room.id]),
                "label": _("Shut down this room…"),
                "danger": True,
            }
        )
        return {"status": standing, "actions": actions}

    @admin.display(description=gettext_lazy("Options"))
    def options_text(self, room: Room) -> str:
        return format_html_join(
            "", "<div>{}: {}</div>", ((k.replace("_", " "), text(v, k)) for k, v in room.options.items())
        )

    @admin.display(description=gettext_lazy("Match scores"))
    def scores_text(self, room: Room) -> str:
        names = seat_names(room)
        return format_html_join(
            "", "<div>{}: {}</div>", ((seat_in(i, names), score) for i, score in enumerate(room.scores))
        )

    @admin.display(description=gettext_lazy("Seats handed over"))
    def handovers(self, room: Room) -> str:
        """Every seat that changed hands during the match, from the room's own log: a
        moderator's or a ban's, a player away (on_abandon: bot), a player back."""
        rows = Event.objects.filter(room=room, data__type__in=HANDOVER_EVENTS).order_by("seq")
        names = seat_names(room)
        return (
            format_html_join(
                "",
                "<div>{} {}: {}{}</div>",
                (
                    (
                        f"{e.created_at:%Y-%m-%d %H:%M:%S}",
                        seat_in(e.data["seat"], names),
                        HANDOVER_EVENTS[e.data["type"]](e.data),
                        f" ({e.data['reason']})" if e.data.get("reason") else "",
                    )
                    for e in rows
                ),
            )
            or "-"
        )

    @admin.display(description=gettext_lazy("Action log (every hand, hidden cards included)"))
    def action_log(self, room: Room) -> str:
        rows = Action.objects.filter(round__room=room).select_related("round", "user").order_by("round__number", "seq")
        body = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    a.round.number,
                    a.seq,
                    a.seat + 1,
                    a.user or (_("computer") if a.by_bot else "-"),
                    action_text(a.payload),
                    _("automatic") if a.automatic else "",
                    f"{a.created_at:%Y-%m-%d %H:%M:%S}",
                )
                for a in rows
            ),
        )
        return format_html(
            '<div class="game-state"><table class="game-state"><tr><th>{}</th><th>#</th><th>{}</th><th>{}</th>'
            "<th>{}</th><th></th><th>{}</th></tr>{}</table></div>",
            pgettext("admin column", "hand"),
            pgettext("admin column", "seat"),
            pgettext("admin column", "by"),
            pgettext("admin column", "action"),
            pgettext("admin column", "at"),
            body,
        )

    def get_urls(self):
        urls = [
            path("<id:room_id>/close/", self.admin_site.admin_view(self.close_view), name="games_room_close"),
            path(
                "<id:room_id>/seat/<id:index>/to-bot/",
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
            title=_("Shut down room %(code)s") % {"code": room.code},
            question=_("Play stops for good and nobody can act any more. Everyone at the table reads the reason."),
            submit=_("Shut down the room"),
            back=reverse("admin:games_room_change", args=[room.id]),
            act=lambda reason: moderation.room_close(moderator=moderator_of(request), room=room, reason=reason),
            done=_("Room %(code)s is shut down.") % {"code": room.code},
        )

    def seat_to_bot_view(self, request: HttpRequest, room_id: int, index: int) -> HttpResponse:
        room = get_object_or_404(Room, id=room_id)
        seat = get_object_or_404(Seat.objects.select_related("user"), room=room, index=index)
        label = seat_label(index, seat.display_name)
        return reason_page(
            request,
            perm="moderation.moderate_room",
            # Translators: the seat is such as "Seat 2 (Ann)".
            title=_("Give %(seat)s of room %(code)s to a computer player") % {"seat": label, "code": room.code},
            question=_(
                "The player loses the seat and a computer player plays on. Everyone at the table, the player too, "
                "reads the reason."
            ),
            submit=_("Give the seat to a computer player"),
            back=reverse("admin:games_room_change", args=[room.id]),
            act=lambda reason: moderation.seat_give_to_bot(
                moderator=moderator_of(request), room=room, index=index, reason=reason
            ),
            done=_("Seat %(number)s is played by a computer now.") % {"number": index + 1},
        )


class ActionInline(ReadOnlyInline):
    model = Action
    extra = 0
    fields = ("seq", "seat_number", "user", "action", "automatic", "by_bot", "created_at")
    readonly_fields = fields

    @admin.display(description=gettext_lazy("seat"))
    def seat_number(self, action: Action) -> int:
        return action.seat + 1

    @admin.display(description=pgettext_lazy("game move", "action"))
    def action(self, action: Action) -> str:
        return action_text(action.payload)


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("room", "number", "version", "started_at", "finished_at")
    list_filter = ("room__game",)
    search_fields = ("room__code",)
    fields = (
        "room",
        "number",
        "version",
        "seed",
        "started_at",
        "finished_at",
        "deadline_at",
        "due_at",
        "state_view",
        "result_view",
        "carry_view",
        "consistency",
    )
    readonly_fields = fields
    inlines = [ActionInline]

    class Media:
        css = {"all": ["moderation/admin.css"]}

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("room")

    @admin.display(description=gettext_lazy("State (hidden cards included)"))
    def state_view(self, round_: Round) -> str:
        return state_html(round_.state, seat_names(round_.room))

    @admin.display(description=gettext_lazy("Result"))
    def result_view(self, round_: Round) -> str:
        return state_html(round_.result, seat_names(round_.room))

    @admin.display(description=gettext_lazy("Carried from the hand before"))
    def carry_view(self, round_: Round) -> str:
        return state_html(round_.carry, seat_names(round_.room))

    @admin.display(description=gettext_lazy("Consistency"))
    def consistency(self, round_: Round) -> str:
        url = reverse("admin:games_round_replay", args=[round_.id])
        return format_html('<a href="{}">{}</a>', url, _("Replay from the seed and compare with the stored state"))

    def get_urls(self):
        view = self.admin_site.admin_view(self.replay_view)
        return [path("<id:round_id>/replay/", view, name="games_round_replay"), *super().get_urls()]

    def replay_view(self, request: HttpRequest, round_id: int) -> HttpResponse:
        # Reading, not moderating: it changes nothing, so it is not a moderation log entry.
        require_perm(request, "games.view_round")
        round_ = get_object_or_404(Round.objects.select_related("room"), id=round_id)
        report = round_replay(round_=round_)
        context = {
            **self.admin_site.each_context(request),
            # Translators: the room's code and the hand's number.
            "title": _("Replay of %(code)s, hand %(number)s") % {"code": round_.room.code, "number": round_.number},
            "report": report,
            "back": reverse("admin:games_round_change", args=[round_.id]),
        }
        return TemplateResponse(request, "admin/moderation/replay.html", context)


@admin.register(Action)
class ActionAdmin(ReadOnlyAdmin):
    list_display = ("round", "seq", "seat_number", "user", "action", "automatic", "by_bot", "created_at")
    list_filter = ("automatic", "by_bot", "round__room__game")
    search_fields = ("round__room__code", "user__username")
    fields = ("round", "seq", "seat_number", "user", "action", "automatic", "by_bot", "created_at")
    readonly_fields = fields

    @admin.display(description=gettext_lazy("seat"), ordering="seat")
    def seat_number(self, action: Action) -> int:
        return action.seat + 1

    @admin.display(description=pgettext_lazy("game move", "action"))
    def action(self, action: Action) -> str:
        return action_text(action.payload)


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("room", "seq", "round_number", "version", "what", "seen_by", "created_at")
    search_fields = ("room__code",)
    fields = ("room", "seq", "round_number", "version", "what", "seen_by", "created_at")
    readonly_fields = fields

    @admin.display(description=gettext_lazy("event"))
    def what(self, event: Event) -> str:
        return action_text(event.data)

    @admin.display(description=gettext_lazy("seen by"))
    def seen_by(self, event: Event) -> str:
        if event.visible_to is None:
            return _("everyone")
        return text(event.visible_to, "visible_to")
