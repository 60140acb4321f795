"""Reads: rooms, seats, and what one viewer may see of a room.

Everything a viewer receives about a game passes through the engine's `view`, and the
event log is filtered by each event's `visible_to`, so hidden cards never leave here.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from django.db.models import F, OuterRef, Q, QuerySet, Subquery
from django.db.models.fields.json import KT

from accounts.models import User
from core.times import iso

from . import names, store, timing
from .codes import is_room_code
from .errors import not_found
from .models import PUBLIC, Action, Event, Room, RoomStatus, Round, Seat
from .rules import fairness
from .store import Table


def room_get(*, code: str) -> Room:
    """The room with its host, for the lobby's listings."""
    room = Room.objects.select_related("host").filter(code=code).first() if is_room_code(code) else None
    if room is None:
        raise not_found()
    return room


def invite_of(*, code: str, user: User | None) -> tuple[str, str] | None:
    """The game's name (in the active language) and the host's of the room an invite link
    names (whoever holds the link may read them: it is the invitation); None where there is
    no such room, or where it is a private room that is over and `user` did not play in it
    (`hidden_from`)."""
    room = Room.objects.select_related("host").filter(code=code).first() if is_room_code(code) else None
    if room is None or hidden_from(room=room, user=user):
        return None
    return names.name_of(room.game), room.host.display_name or room.host.username


def room_for_play(*, code: str) -> Room:
    """The room alone: what the event log and the hand summaries need."""
    room = Room.objects.filter(code=code).first() if is_room_code(code) else None
    if room is None:
        raise not_found()
    return room


# A room that is over: what is left of it is its record (the replay, the log, the hands).
ENDED = (RoomStatus.FINISHED, RoomStatus.ABANDONED, RoomStatus.CLOSED)


def may_read_match(*, room: Room, user: User | None) -> bool:
    """Whether `user` may read the room's match whole (its replay) or, once it is over,
    its record (the hands' summaries, the event log, the table talk): anyone for a public room; for a
    private one, its players (seated in it, or at its end) and staff (moderators) only."""
    if room.public:
        return True
    if user is None or not user.is_authenticated:
        return False
    # A player whose seat went to a computer player (abandoned, or handed over by a
    # moderator) is one still: their moves name them.
    return (
        bool(user.is_staff)
        or room.seats.filter(user=user).exists()
        or Action.objects.filter(round__room=room, user=user).exists()
    )


def hidden_from(*, room: Room, user: User | None) -> bool:
    """Whether the room is, to `user`, as if it did not exist: a private room that is
    over, which its code (on its players' profiles, in old links) no longer opens to
    anyone but its players and staff. While it is played, whoever holds its code may
    watch, as its invitation says."""
    return room.status in ENDED and not may_read_match(room=room, user=user)


def room_hidden_from_code(*, code: str, user: User | None) -> bool:
    """`hidden_from` for the room `code` names (a room socket's opening): one indexed
    read, and a second only for a private room that is over."""
    room = Room.objects.filter(code=code, public=False, status__in=ENDED).first() if is_room_code(code) else None
    return room is not None and not may_read_match(room=room, user=user)


def room_shown_to(*, code: str, user: User | None) -> Room:
    """The room with its host, as rooms/{code}/ and its QR code show it: `not_found`, as
    for a room that does not exist, where it is `hidden_from` the user."""
    room = room_get(code=code)
    if hidden_from(room=room, user=user):
        raise not_found()
    return room


def table_shown_to(*, table: Table, user: User | None) -> Table:
    """The table, for the caller's view of it: `not_found` where it is `hidden_from` them."""
    if hidden_from(room=table.room, user=user):
        raise not_found()
    return table


def room_match_for(*, code: str, user: User | None) -> Room:
    """The room with its host, for a read of its match whole (the replay): `not_found`, as
    for a room that does not exist, where `user` may not read it (`may_read_match`)."""
    room = room_get(code=code)
    if not may_read_match(room=room, user=user):
        raise not_found()
    return room


def room_record_for(*, code: str, user: User | None) -> Room:
    """The room, for a read of its record (hands' summaries, event log, table talk): `not_found`,
    as for a room that does not exist, where it is a private room that is over and `user`
    may not read it (`may_read_match`). While it is played, whoever holds its code may
    watch, as its invitation says."""
    room = room_for_play(code=code)
    if hidden_from(room=room, user=user):
        raise not_found()
    return room


def table_of(*, code: str) -> Table:
    """The room as it is played: seats, hand in play and rules (games.store)."""
    found = store.table(code)
    if found is None:
        raise not_found()
    return found


def table_and_token_user(*, code: str, key: str) -> tuple[Table | None, User | None]:
    """The room's table (None: no such room) and the account whose token `key` is (None:
    no such token; active or not), read together: an API call that reads the table
    signs in with the same read (api/table_auth.py)."""
    return store.table_and_token_user(code, key)


def view_by_code(*, code: str, user: User | None) -> dict[str, Any]:
    """The caller's view of a room, read in one query (the hottest read there is)."""
    return table_view(table=table_of(code=code), user=user)


class RoomPosition(NamedTuple):
    """How far a room has got: its `version` (a change counter, sent back with an
    action) and the `seq` of the last event in its log (for `events?after=`)."""

    version: int
    seq: int


def room_positions(*, codes: list[str]) -> dict[str, RoomPosition]:
    """The current position of each of these rooms that exists (one indexed query)."""
    # A socket's path can carry anything; only a possible code is looked up.
    codes = [code for code in codes if is_room_code(code)]
    rows = Room.objects.filter(code__in=codes).values_list("code", "version", "event_seq")
    return {code: RoomPosition(version, seq) for code, version, seq in rows}


def rooms_open_public() -> QuerySet[Room]:
    return (
        Room.objects.filter(status=RoomStatus.LOBBY, public=True)
        .select_related("host")
        .prefetch_related("seats__user")
        .order_by("-created_at")
    )


def rooms_of_user(*, user: User) -> QuerySet[Room]:
    return (
        Room.objects.filter(seats__user=user)
        .select_related("host")
        .prefetch_related("seats__user")
        .order_by("-updated_at")
    )


def seat_index_of(*, room: Room, user: User | None) -> int | None:
    """The index of `user`'s seat in the room (one query); None when they have none.
    A table in memory has its own `Table.seat_of`, which gives the seat."""
    if user is None or not user.is_authenticated:
        return None
    return room.seats.filter(user=user).values_list("index", flat=True).first()


def open_seats_of(*, user: User) -> QuerySet[Seat]:
    """The user's seats in rooms still in the lobby or in play, rooms in id order (the
    order in which a caller that changes several of them should lock them)."""
    return (
        Seat.objects.filter(user=user, room__status__in=[RoomStatus.LOBBY, RoomStatus.PLAYING])
        .select_related("room")
        .order_by("room_id")
    )


def room_has_other_players(*, room: Room, user: User) -> bool:
    """Whether a person other than `user` has a seat in the room."""
    return room.seats.filter(user__isnull=False).exclude(user=user).exists()


def seat_player(*, room: Room, index: int) -> User | None:
    seat = room.seats.filter(index=index).select_related("user").first()
    return None if seat is None else seat.user


def seat_public(seat: Seat) -> dict[str, Any]:
    return {
        "seat": seat.index,
        "user": seat.user.username if seat.user is not None else None,
        "display_name": seat.display_name,
        "is_bot": seat.is_bot,
        "team": seat.team,
        "client_seed": seat.client_seed,
    }


def fairness_committed(table: Table) -> dict[str, Any] | None:
    """The commitment to the seed of the next hand to be dealt, or, while a hand is in
    play (and after the match), to that hand's seed. Never the seed itself."""
    room, round_ = table.room, table.round
    if room.next_server_seed:
        seed, hand = room.next_server_seed, 1 if round_ is None else round_.number + 1
        algorithm = fairness.ALGORITHM
    elif round_ is not None and round_.server_seed:
        seed, hand = round_.server_seed, round_.number
        algorithm = deal_algorithm(round_)
    else:
        return None
    return {"algorithm": algorithm, "commitment": fairness.commitment(seed), "hand": hand}


def deal_algorithm(round_: Round) -> str:
    """The algorithm a hand was dealt under, as its record says (none: v1)."""
    fair = round_.state.get("fair") if isinstance(round_.state, dict) else None
    return fairness.algorithm_of(fair) if fair is not None else fairness.ALGORITHM_V1


def fairness_revealed(round_: Round) -> dict[str, Any] | None:
    """A finished hand's seeds and every deal made in it, for anyone to check; None for
    hands dealt before deals were provable (or forced by a test)."""
    fair = round_.state.get("fair") if isinstance(round_.state, dict) else None
    if round_.result is None or not round_.server_seed or fair is None:
        return None
    return {
        "algorithm": fairness.algorithm_of(fair),
        "game": round_.state.get("game"),
        "code": fair["code"],
        "hand": fair["hand"],
        "commitment": fairness.commitment(round_.server_seed),
        "server_seed": round_.server_seed,
        "client_seeds": list(fair["client_seeds"]),
        "deals": fair["deals"],
    }


def rematch_of(room: Room) -> dict[str, Any] | None:
    """Once the match is over: who wants a rematch with the same players, and its room
    once everyone agreed (games.services.rematch); None before, and for a closed room."""
    if room.status not in (RoomStatus.FINISHED, RoomStatus.ABANDONED):
        return None
    return {"agreed": list(room.rematch_agreed), "room": room.rematch_code or None}


def status_reason_for(table: Table, seat: Seat | None) -> str:
    """Why the match ended as it did, said to its reader: the player whose idleness
    ended it reads "you", everyone else their name."""
    room = table.room
    if seat is not None and room.status_seat is not None and seat.index == room.status_seat:
        if room.status == RoomStatus.ABANDONED:
            return "You did not play in time; the match was abandoned."
    return room.status_reason


def status_cause_of(room: Room) -> dict[str, Any] | None:
    """Why the room ended, for a client to say in its reader's language: the cause's
    code, the idle player's seat and a moderator's own words (None where they do not
    apply); None for a room not ended, or a match played out."""
    if not room.status_cause:
        return None
    return {"code": room.status_cause, "seat": room.status_seat, "words": room.status_words or None}


def table_view(*, table: Table, user: User | None) -> dict[str, Any]:
    """The caller's view: the engine's view of the hand in play plus the room's facts."""
    return seat_view(table=table, mine=table.seat_of(user))


def seat_view(*, table: Table, mine: Seat | None) -> dict[str, Any]:
    """What the person in seat `mine` sees (None: anyone not seated). A function of the
    table alone: a view pushed on the socket (games/view_push.py) is the one `GET state`
    answers at the same version. Made once per table as it stands (`Table.views`): the
    view is read, never changed, by whoever asks for it."""
    key = None if mine is None else mine.index
    made = table.views.get(key)
    if made is None:
        made = table.views[key] = _seat_view(table, mine)
    return made


def _seat_view(table: Table, mine: Seat | None) -> dict[str, Any]:
    room, seats, round_ = table.room, table.seats, table.round
    seat = None if mine is None else mine.index
    base: dict[str, Any] = {
        "code": room.code,
        "game": room.game,
        "version": room.version,
        "status": room.status,
        "status_reason": status_reason_for(table, mine),
        "status_cause": status_cause_of(room),
        "deadline": iso(round_.deadline_at) if round_ and room.status == RoomStatus.PLAYING else None,
        "abandon_deadline": iso(timing.abandon_at(table, mine)) if mine is not None else None,
        "rematch": rematch_of(room),
        "fairness": fairness_committed(table),
    }
    if round_ is None:
        view: dict[str, Any] = {
            "phase": "lobby",
            "round": 0,
            "dealer": None,
            "to_act": [],
            "seats": [{} for _ in seats],
            "trick": [],
            "trump": None,
            "bid": None,
            "scores": room.scores,
            "last_round": None,
        }
        if seat is not None:
            view["you"] = {"seat": seat, "hand": [], "legal_actions": []}
    else:
        view = table.rules.view(round_.state, seat)
    if room.status in (RoomStatus.CLOSED, RoomStatus.ABANDONED):
        # Nobody may act in a closed room, whatever the hand's phase says.
        view["to_act"] = []
        if "you" in view:
            view["you"]["legal_actions"] = []
    elif mine is not None and mine.is_bot and "you" in view:
        # A computer player holds the caller's seat while they are away: it acts, they
        # may only reclaim the seat.
        view["you"]["legal_actions"] = []
    view["seats"] = [{**seat_public(s), **facts} for s, facts in zip(seats, view["seats"], strict=True)]
    return {**base, **view}


def events_for(*, room: Room, seat: int | None, after: int = 0, limit: int = 500) -> list[dict[str, Any]]:
    """The events after `after` that the holder of seat `seat` may read (None: anyone
    seated nowhere), at most `limit` (`seat_index_of` finds the caller's seat)."""
    rows = Event.objects.filter(room=room, seq__gt=after)
    if seat is None:
        rows = rows.filter(audience=PUBLIC)
    else:
        rows = rows.annotate(mine=F("audience").bitand(1 << seat)).exclude(mine=0)
    rows = rows.order_by("seq")[:limit]
    return [event_shown(e) for e in rows]


def event_shown(event: Event) -> dict[str, Any]:
    """An event as its viewers read it (`GET events`, and the socket's pushed views)."""
    return {
        "seq": event.seq,
        "round": event.round_number,
        "version": event.version,
        "at": iso(event.created_at),
        **event.data,
    }


def event_seen_by(event: Event, seat: int | None) -> bool:
    """Whether the person in `seat` (None: anyone not seated) may read `event`: the same
    rule as `events_for`'s query, on an event in memory."""
    if event.audience == PUBLIC:
        return True
    return seat is not None and bool(event.audience & (1 << seat))


def rounds_summary(*, room: Room, after: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
    """Finished hands after hand `after` (at most `limit`), each as the engine's public
    result with its deals revealed."""
    rows = room.rounds.filter(result__isnull=False, number__gt=after).order_by("number")
    return [
        {
            "round": r.number,
            "started_at": iso(r.started_at),
            "finished_at": iso(r.finished_at),
            **(r.result or {}),
            "fairness": fairness_revealed(r),
        }
        for r in (rows if limit is None else rows[:limit])
    ]


def room_code_of_round(*, round_id: int) -> str | None:
    return Round.objects.filter(id=round_id).values_list("room__code", flat=True).first()


def rooms_overdue(*, now: datetime, limit: int = 500) -> list[str]:
    """The codes of rooms in play whose hand's due time has passed (for the sweeper)."""
    return list(
        Round.objects.filter(due_at__lte=now, room__status=RoomStatus.PLAYING)
        .order_by("due_at")
        .values_list("room__code", flat=True)[:limit]
    )


def rooms_owed_an_outage(*, started: datetime, ended: datetime) -> list[str]:
    """The codes of rooms in play whose clock was still running when an outage began and
    that have not been given it yet (uptime.Outage), soonest due first."""
    owed = Round.objects.filter(room__status=RoomStatus.PLAYING, deadline_at__gt=started, started_at__lt=ended)
    owed = owed.filter(Q(outages_until__isnull=True) | Q(outages_until__lt=ended))
    return list(owed.order_by("due_at").values_list("room__code", flat=True))


def turns_of(*, user: User) -> list[dict[str, Any]]:
    """The rooms where the game waits for `user` now, soonest deadline first (rooms with
    no deadline last, then the longest waiting): one query on the seats' turn index,
    however many rooms the player sits in."""
    hand = store.rounds_latest_first(OuterRef("room_id"))
    seats = (
        Seat.objects.filter(user=user, turn_since__isnull=False, room__status=RoomStatus.PLAYING)
        .annotate(
            deadline=Subquery(hand.values("deadline_at")[:1]),
            phase=Subquery(hand.annotate(phase=KT("state__phase")).values("phase")[:1]),
        )
        .values("room__code", "room__game", "room__name", "room__version", "phase", "deadline", "turn_since")
        .order_by(F("deadline").asc(nulls_last=True), "turn_since", "room__code")
    )
    return [
        {
            "code": s["room__code"],
            "game": s["room__game"],
            "name": s["room__name"],
            "version": s["room__version"],
            "phase": s["phase"],
            "deadline": iso(s["deadline"]),
            "since": iso(s["turn_since"]),
        }
        for s in seats
    ]


def rooms_playing_of(*, user: User) -> set[str]:
    """The codes of the rooms where `user` holds a seat in a match under way."""
    return set(Seat.objects.filter(user=user, room__status=RoomStatus.PLAYING).values_list("room__code", flat=True))
