"""Reads of ratings: a player's profile, the leaderboard, a player's finished matches."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet
from django.utils.translation import gettext as _

from accounts import selectors as accounts
from accounts.models import User
from core.errors import ServiceError
from games import rules
from games.models import RoomStatus, Seat

from .models import Placing, Rating, RatingChange
from .skill import Skill


def player_get(*, username: str) -> User:
    """The player by name, compared as sign-in compares names."""
    return accounts.user_named(username=username)


def player_profile(*, user: User) -> dict[str, Any]:
    ratings = {
        r.game: {"mu": r.mu, "sigma": r.sigma, "shown": r.shown, "matches": r.matches}
        for r in Rating.objects.filter(user=user).order_by("game")
    }
    placings = Placing.objects.filter(user=user, room__status=RoomStatus.FINISHED).aggregate(
        played=Count("id"), won=Count("id", filter=Q(won=True))
    )
    return {
        "username": user.username,
        "display_name": user.shown_name,
        "ratings": ratings,
        "matches": {
            "played": placings["played"],
            "won": placings["won"],
            "abandoned": Seat.objects.filter(user=user, room__status=RoomStatus.ABANDONED).count(),
        },
    }


def leaderboard(*, game: str) -> QuerySet[Rating]:
    """The game's rated players with enough rated matches, best shown rating first.
    Banned accounts are left out (their ratings stay, should the ban be lifted)."""
    if game not in {g.key for g in rules.all_games()}:
        raise ServiceError("invalid", _("No such game."), 400, "game")
    return (
        Rating.objects.filter(game=game, matches__gte=settings.LEADERBOARD_MIN_MATCHES, user__banned_at__isnull=True)
        .select_related("user")
        .order_by("-shown", "user_id")
    )


def leaderboard_row(rating: Rating, rank: int) -> dict[str, Any]:
    return {
        "rank": rank,
        "username": rating.user.username,
        "display_name": rating.user.shown_name,
        "mu": rating.mu,
        "sigma": rating.sigma,
        "shown": rating.shown,
        "matches": rating.matches,
    }


def matches_of(*, user: User, viewer: User | None = None) -> QuerySet[Placing]:
    """The player's finished matches, newest first, with everything a row shows. A
    private room's match is listed to those who may read it (games.selectors.
    may_read_match): the player themself, the others who played in it, and staff; to
    anyone else it is not there, so its code (the key to its replay) and who played it
    stay among its players. (The profile's counts and the ratings still count it.)"""
    placings = Placing.objects.filter(user=user, room__status=RoomStatus.FINISHED)
    if viewer is None or not viewer.is_staff:
        shown = Q(room__public=True)
        if viewer is not None:
            shown |= Q(Exists(Placing.objects.filter(room=OuterRef("room"), user=viewer)))
        placings = placings.filter(shown)
    return (
        placings.select_related("room")
        .prefetch_related(
            Prefetch("room__placings", queryset=Placing.objects.select_related("user").order_by("seat")),
            Prefetch("room__rating_changes", queryset=RatingChange.objects.filter(user=user)),
        )
        .order_by("-room__finished_at", "-room_id")
    )


def match_row(placing: Placing) -> dict[str, Any]:
    room = placing.room
    change = next(iter(room.rating_changes.all()), None)
    players = [
        {
            "seat": p.seat,
            # As the table names a computer player's seat (games.models.Seat).
            "display_name": p.user.shown_name if p.user is not None else f"Computer {p.seat + 1}",
            "username": p.user.username if p.user is not None else None,
            "score": p.score,
        }
        for p in room.placings.all()
    ]
    return {
        "code": room.code,
        "game": room.game,
        "name": room.name,
        "finished_at": room.finished_at,
        "rated": change is not None,
        "seat": placing.seat,
        "place": placing.place,
        "score": placing.score,
        "players": players,
        "rating_change": None
        if change is None
        else {
            "mu_before": change.mu_before,
            "mu_after": change.mu_after,
            "shown_before": Skill(change.mu_before, change.sigma_before).shown,
            "shown_after": Skill(change.mu_after, change.sigma_after).shown,
        },
    }
