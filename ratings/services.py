"""The only write path of ratings: a finished match's placings and rating changes,
and the rebuild of every rating from the match history."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from games.models import Room, RoomStatus, Seat
from games.store import rounds_latest_first

from .models import Placing, Rating, RatingChange
from .skill import START, Skill, rate
from .standings import standings


def is_rated(room: Room, seats: Sequence[Seat]) -> bool:
    """The room's `rated` option, fixed at the start; rooms started before it existed
    count as rated when every seat was a person's."""
    rated = room.options.get("rated")
    if rated is None:
        return not any(s.is_bot and s.user_id is None for s in seats)
    return bool(rated)


def match_finished_record(*, room: Room, seats: Sequence[Seat], result: dict[str, Any], **_: Any) -> None:
    """Receives games.signals.match_finished, inside the room's transaction."""
    match_record(room=room, seats=seats, result=result)


def match_record(*, room: Room, seats: Sequence[Seat], result: dict[str, Any]) -> None:
    """Store where each seat finished and, in a rated room, update the people's
    ratings. Expects the room lock held (or, in the rebuild, nothing else writing)."""
    sides = standings(room.game, result, len(seats))
    place_of = {seat: side.place for side in sides for seat in side.seats}
    winners = set(result.get("winners") or ())
    scores = result["scores"]
    Placing.objects.bulk_create(
        [
            Placing(
                room=room,
                seat=s.index,
                user_id=s.user_id,
                place=place_of[s.index],
                score=scores[s.index],
                won=s.index in winners,
            )
            for s in seats
        ]
    )
    people = {s.index: s.user_id for s in seats if s.user_id is not None}
    if not is_rated(room, seats) or not people or len(sides) < 2:
        return
    # Locked in user order, so two matches ending at once over the same players wait
    # for each other instead of deadlocking.
    current = {
        r.user_id: r
        for r in Rating.objects.select_for_update()
        .filter(user_id__in=people.values(), game=room.game)
        .order_by("user_id")
    }
    before = {seat: Skill(current[u].mu, current[u].sigma) if u in current else START for seat, u in people.items()}
    after = rate(sides, before)
    changes = []
    for seat, user_id in sorted(people.items()):
        old, new = before[seat], after[seat]
        rating = current.get(user_id) or Rating(user_id=user_id, game=room.game, matches=0)
        rating.mu, rating.sigma, rating.shown = new.mu, new.sigma, new.shown
        rating.matches += 1
        rating.save()
        changes.append(
            RatingChange(
                room=room,
                user_id=user_id,
                game=room.game,
                seat=seat,
                mu_before=old.mu,
                sigma_before=old.sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
            )
        )
    RatingChange.objects.bulk_create(changes)


def ratings_rebuild() -> int:
    """Every rating again from nothing, replaying the finished matches in the order
    they finished; the same numbers the live updates gave. Returns the matches read."""
    with transaction.atomic():
        RatingChange.objects.all().delete()
        Placing.objects.all().delete()
        Rating.objects.all().delete()
        count = 0
        rooms = Room.objects.filter(status=RoomStatus.FINISHED).order_by("finished_at", "id")
        for room in rooms.prefetch_related("seats").iterator(chunk_size=200):
            last = rounds_latest_first(room).filter(result__isnull=False).first()
            if last is None or last.result is None:
                continue
            seats = sorted(room.seats.all(), key=lambda s: s.index)
            match_record(room=room, seats=seats, result=last.result)
            count += 1
        return count
