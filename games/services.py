"""The only write path for rooms, seats, rounds and actions.

Every service that changes a room locks its row first (`_lock_room`), so all changes
to one room are serialized; rounds, actions and events of a room are only written
while that lock is held. Engine work happens inside the lock, so a check and the
write it justifies can never be split by another request.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User

from . import hot_reads, live, rules, selectors, timing, write_batch
from .codes import new_code
from .errors import ServiceError, not_host, not_seated
from .models import PUBLIC, Action, Event, IdempotentRequest, Room, RoomStatus, Round, Seat
from .rules.base import ROUND_OVER
from .rules.base import Event as RuleEvent
from .rules.errors import RuleError

logger = logging.getLogger(__name__)

# A runaway loop of computer players would be a bug; stop well before it hurts.
MAX_BOT_STEPS = 2000


# -- rooms and seats --------------------------------------------------------------


@transaction.atomic
def room_create(*, host: User, game: str, options: dict[str, Any] | None, name: str = "", public: bool = True) -> Room:
    try:
        game_rules = rules.get(game)
        checked = game_rules.validate_options(options)
    except RuleError as err:
        raise ServiceError.from_rule(err) from None
    seats = game_rules.seat_count(checked)
    lobby_teams = game_rules.lobby_teams(checked)
    for _ in range(10):
        try:
            with transaction.atomic():
                room = Room.objects.create(
                    code=new_code(),
                    game=game,
                    name=name,
                    options=checked,
                    public=public,
                    host=host,
                    scores=[0] * seats,
                )
                break
        except IntegrityError:
            continue  # the code was taken; draw another
    else:  # pragma: no cover - 31^6 codes make ten collisions in a row implausible
        raise ServiceError("server_busy", "Could not allocate a room code.", 503)
    Seat.objects.bulk_create(
        [
            Seat(room=room, index=0, user=host, joined_at=timezone.now(), team=0 if lobby_teams else None),
            *(Seat(room=room, index=i) for i in range(1, seats)),
        ]
    )
    _log(room, {"type": "room_created", "game": game, "host": host.shown_name})
    room.save()
    return room


def _lock_room(code: str) -> Room:
    room = hot_reads.room_by_code(code, for_update=True)
    if room is None:
        raise ServiceError("not_found", "No such room.", 404)
    return room


def _require_open(room: Room) -> None:
    if room.status in (RoomStatus.CLOSED, RoomStatus.ABANDONED):
        raise ServiceError("room_closed", f"This room is {room.status}.", 409)


def _require_lobby(room: Room) -> None:
    _require_open(room)
    if room.status != RoomStatus.LOBBY:
        raise ServiceError("already_started", "The game has already started.", 409)


def _touch(room: Room) -> None:
    """Count a change: clients holding an older version must refetch (and are told so
    on the room's WebSocket once the change commits)."""
    room.version += 1
    live.announce_after_commit(room)


def _pick_team(room: Room, seats: list[Seat], team: int | None, mover: Seat | None = None) -> int | None:
    """The team a joining player (or bot) takes: the one asked for if it has room, or
    the one with the most free places. None where the game has no lobby teams."""
    sizes = rules.get(room.game).lobby_teams(room.options)
    if sizes is None:
        if team is not None:
            raise ServiceError("invalid", "This room has no teams to choose from.", 400, "team")
        return None
    members = [sum(1 for s in seats if s.team == t and s is not mover and not s.is_free) for t in range(len(sizes))]
    if team is None:
        team = max(range(len(sizes)), key=lambda t: (sizes[t] - members[t], -t))
    if not 0 <= team < len(sizes):
        raise ServiceError("invalid", f"Teams are numbered 0 to {len(sizes) - 1}.", 400, "team")
    if members[team] >= sizes[team]:
        raise ServiceError("team_full", f"Team {team} already has its {sizes[team]} players.", 409)
    return team


@transaction.atomic
def room_join(*, code: str, user: User, team: int | None = None) -> Seat:
    """Take a free seat, or, already seated in a room with lobby teams, switch team."""
    room = _lock_room(code)
    _require_lobby(room)
    seats = list(room.seats.select_related("user"))
    mine = next((s for s in seats if s.user_id == user.id), None)
    if mine is not None:
        if team is None or team == mine.team or rules.get(room.game).lobby_teams(room.options) is None:
            raise ServiceError("already_seated", "You already have a seat in this room.", 409)
        mine.team = _pick_team(room, seats, team, mover=mine)
        mine.save(update_fields=["team"])
        _touch(room)
        _log(room, {"type": "team_changed", "seat": mine.index, "team": mine.team})
        room.save()
        return mine
    free = [s for s in seats if s.is_free]
    if not free:
        raise ServiceError("room_full", "Every seat is taken.", 409)
    seat = free[0]
    seat.team = _pick_team(room, seats, team)
    seat.user = user
    seat.joined_at = timezone.now()
    seat.save()
    _touch(room)
    _log(room, {"type": "joined", "seat": seat.index, "name": user.shown_name})
    room.save()
    return seat


@transaction.atomic
def room_leave(*, code: str, user: User) -> None:
    room = _lock_room(code)
    _require_lobby(room)
    seat = room.seats.filter(user=user).first()
    if seat is None:
        raise not_seated()
    _vacate(room, seat, user, {"type": "left", "seat": seat.index, "name": user.shown_name})
    room.save()


def _vacate(room: Room, seat: Seat, user: User, event: dict[str, Any]) -> None:
    """Free a lobby seat and log `event`; the host's role passes on. Expects the room
    lock held; the caller saves the room."""
    seat.user = None
    seat.team = None
    seat.joined_at = None
    seat.save()
    _log(room, event)
    if room.host_id == user.id:
        # The room lives on with another human as host; with nobody left it is over.
        heir = room.seats.filter(user__isnull=False).order_by("index").first()
        if heir is None:
            room.status = RoomStatus.ABANDONED
            room.status_reason = "Everyone left before the start."
            room.finished_at = timezone.now()
            _log(room, {"type": "abandoned", "reason": room.status_reason})
        else:
            room.host_id = heir.user_id
            _log(room, {"type": "host_changed", "seat": heir.index})
    _touch(room)


@transaction.atomic
def room_add_bot(*, code: str, user: User, team: int | None = None) -> Seat:
    room = _lock_room(code)
    _require_lobby(room)
    if room.host_id != user.id:
        raise not_host()
    seats = list(room.seats.all())
    seat = next((s for s in seats if s.is_free), None)
    if seat is None:
        raise ServiceError("room_full", "Every seat is taken.", 409)
    seat.team = _pick_team(room, seats, team)
    seat.is_bot = True
    seat.joined_at = timezone.now()
    seat.save()
    _touch(room)
    _log(room, {"type": "bot_added", "seat": seat.index})
    room.save()
    return seat


@transaction.atomic
def room_start(*, code: str, user: User) -> Room:
    room = _lock_room(code)
    _require_lobby(room)
    if room.host_id != user.id:
        raise not_host()
    seats = list(room.seats.all())
    if any(s.is_free for s in seats):
        raise ServiceError("seats_not_filled", "Every seat must be taken before the start.", 409)
    sizes = rules.get(room.game).lobby_teams(room.options)
    if sizes is not None and [sum(1 for s in seats if s.team == t) for t in range(len(sizes))] != list(sizes):
        raise ServiceError("teams_not_filled", f"The teams must have {' and '.join(map(str, sizes))} players.", 409)
    room.status = RoomStatus.PLAYING
    room.started_at = timezone.now()
    _touch(room)
    _log(room, {"type": "started"})
    round_ = _round_begin(room, number=1, carry=None, seats=seats)
    round_ = _advance_bots(room, round_, seats)
    _plan(room, round_, seats, before=None)
    room.save()
    return room


# -- rounds and actions -----------------------------------------------------------


def _round_begin(
    room: Room, *, number: int, carry: dict[str, Any] | None, seats: list[Seat] | None = None, deal: Any = None
) -> Round:
    """Deal a hand; the first one inherits from the table as it starts (`seats`).

    Expects the room lock held.
    """
    game_rules = rules.get(room.game)
    seed = secrets.randbits(62)
    players = room.seats.count() if seats is None else len(seats)
    if number == 1 and seats is not None:
        host_seat = next(s.index for s in seats if s.user_id == room.host_id)
        teams = [s.team for s in sorted(seats, key=lambda s: s.index)]
        carry = game_rules.first_carry(
            options=room.options, players=players, host_seat=host_seat, teams=teams, seed=seed
        )
    state = game_rules.new_round(options=room.options, players=players, seed=seed, carry=carry, deal=deal)
    round_ = Round.objects.create(room=room, number=number, seed=seed, carry=carry, state=state)
    _log(room, {"type": "round_started", "round": number}, round_number=number)
    return round_


@dataclass
class Submitted:
    view: dict[str, Any]
    replayed: bool = False


def _request_hash(version: Any, action: Any, code: str) -> str:
    raw = json.dumps({"room": code, "version": version, "action": action}, sort_keys=True)
    return hashlib.sha256(raw.encode()).hexdigest()


def action_submit(*, code: str, user: User, version: Any, action: Any, idempotency_key: str | None = None) -> Submitted:
    """Apply one player's action, then whatever computer players owe, atomically.

    Order of checks: seat, idempotent replay, room status, version, then the engine.
    """
    try:
        return _action_submit(code=code, user=user, version=version, action=action, idempotency_key=idempotency_key)
    except IntegrityError:
        # The room lock serializes one room's requests, not one user's keys: the same
        # key sent at once to two rooms passes both lookups, and the later insert then
        # waits for the earlier commit and violates the unique key. Its move was rolled
        # back with its transaction; answer as if the other had come first.
        earlier = IdempotentRequest.objects.filter(user=user, key=idempotency_key).first() if idempotency_key else None
        if earlier is None:
            raise
        return _replay(earlier, _request_hash(version, action, code))


def _replay(earlier: IdempotentRequest, request_hash: str) -> Submitted:
    """The first answer again, when this is the same request; refused otherwise."""
    if earlier.request_hash != request_hash:
        raise ServiceError("idempotency_key_reused", "This Idempotency-Key was used for a different request.", 422)
    return Submitted(view=earlier.response, replayed=True)


@transaction.atomic
def _action_submit(*, code: str, user: User, version: Any, action: Any, idempotency_key: str | None) -> Submitted:
    # A move's round trips: the token and the table (prepared reads), the batched
    # writes and the commit; scripts/profile_actions.py shows where its time goes.
    found = hot_reads.table(code, for_update=True)
    if found is None:
        raise ServiceError("not_found", "No such room.", 404)
    room, seats, round_ = found
    seat = next((s for s in seats if s.user_id == user.id), None)
    if seat is None:
        raise not_seated()
    request_hash = _request_hash(version, action, code) if idempotency_key else ""
    if idempotency_key:
        earlier = IdempotentRequest.objects.filter(user=user, key=idempotency_key).first()
        if earlier is not None:
            return _replay(earlier, request_hash)
    _require_open(room)
    if room.status == RoomStatus.LOBBY:
        raise ServiceError("not_playing", "The game has not started.", 409)
    if room.status == RoomStatus.FINISHED:
        raise ServiceError("not_playing", "The match is over.", 409)
    if version != room.version:
        raise ServiceError(
            "stale_version", f"The room is at version {room.version}; fetch the state and retry.", 409, "version"
        )
    before = timing.turn_of(room, round_)
    # The rows this move writes go to the database together, in one round trip.
    with write_batch.batched():
        round_ = _apply(room, round_, seat.index, action, user=user)
        seat.last_acted_at = timezone.now()
        write_batch.update(seat, ["last_acted_at"])
        round_ = _advance_bots(room, round_, seats)
        _plan(room, round_, seats, before=before)
        write_batch.update(room)
    view = selectors.room_view(room=room, user=user, seats=seats, round_=round_)
    if idempotency_key:
        IdempotentRequest.objects.create(
            user=user, key=idempotency_key, room=room, request_hash=request_hash, response=view
        )
    return Submitted(view=view)


def _apply(
    room: Room,
    round_: Round,
    seat: int,
    action: Any,
    *,
    user: User | None,
    by_bot: bool = False,
    automatic: bool = False,
) -> Round:
    """Run one action through the engine and record it. Expects the room lock held.

    Returns the round now in play (a new one when this action completed the hand). The
    round in play is saved by the caller's `_plan`, once per request however many
    actions it applied.
    """
    game_rules = rules.get(room.game)
    try:
        applied = game_rules.apply(round_.state, seat, action)
    except RuleError as err:
        raise ServiceError.from_rule(err) from None
    round_.state = applied.state
    round_.version += 1
    write_batch.insert(
        Action(
            round=round_, seq=round_.version, seat=seat, user=user, payload=action, by_bot=by_bot, automatic=automatic
        )
    )
    _touch(room)
    _log_rule_events(room, round_.number, applied.events)
    result = game_rules.result(round_.state)
    if result is not None and round_.result is None:
        round_.result = result
        round_.finished_at = timezone.now()
        room.scores = result.get("scores", room.scores)
    if game_rules.is_match_over(round_.state):
        # The engine's own match_over event has told everyone; the room just closes.
        room.status = RoomStatus.FINISHED
        room.finished_at = timezone.now()
    if game_rules.is_complete(round_.state):
        round_.deadline_at = round_.bots_due_at = round_.due_at = None
        write_batch.update(round_)
        round_ = _round_begin(room, number=round_.number + 1, carry=game_rules.carry(round_.state))
    return round_


def _advance_bots(room: Room, round_: Round, seats: list[Seat]) -> Round:
    """Let computer players act at once where they should. Expects the room lock held.

    With a bot delay configured they move later through the worker (round_due), except
    between hands, where they are ready at once.
    """
    bots = {s.index for s in seats if s.is_bot}
    if not bots:
        return round_
    game_rules = rules.get(room.game)
    for _ in range(MAX_BOT_STEPS):
        if room.status != RoomStatus.PLAYING:
            return round_
        if not timing.bots_inline() and round_.state.get("phase") != ROUND_OVER:
            return round_
        due = [s for s in game_rules.to_act(round_.state) if s in bots]
        if not due:
            return round_
        seat = due[0]
        round_ = _apply(room, round_, seat, game_rules.bot_action(round_.state, seat), user=None, by_bot=True)
    raise RuntimeError(f"computer players did not yield in room {room.code}")


# -- time: deadlines, timeouts, abandonment ----------------------------------------


def _plan(
    room: Room, round_: Round, seats: list[Seat], *, before: timing.Turn | None, now: datetime | None = None
) -> None:
    """Store when the server must next act in this round and schedule it after commit.

    Expects the room lock held.
    """
    now = now or timezone.now()
    timing.plan(room=room, round_=round_, seats=seats, before=before, now=now)
    write_batch.update(round_)
    if (
        round_.due_at is not None
        and getattr(settings, "GAME_TASKS_ENABLED", True)
        and round_.due_at - now <= timing.task_horizon()
    ):
        round_id, version, eta = round_.id, room.version, round_.due_at
        transaction.on_commit(lambda: _schedule_round_due(round_id, version, eta))


def _schedule_round_due(round_id: int, version: int, eta: datetime) -> None:
    from .tasks import round_due

    try:
        round_due.apply_async(args=(round_id, version), eta=eta)
    except Exception:  # the broker is down: the sweeper will find the round overdue
        logger.exception("could not schedule round %s v%s; the sweeper will catch up", round_id, version)


@transaction.atomic
def round_due(*, round_id: int, version: int | None = None, now: datetime | None = None) -> bool:
    """Do whatever is overdue in a round: bots' moves, timed-out players' automatic
    actions, or abandonment. Returns whether anything was applied.

    Harmless when repeated, late or raced: it locks the room, and does nothing when the
    room moved past `version` (a newer task is scheduled) or nothing is due yet.
    """
    now = now or timezone.now()
    room_id = Round.objects.filter(id=round_id).values_list("room_id", flat=True).first()
    if room_id is None:
        return False
    room = Room.objects.select_for_update().get(id=room_id)
    if room.status != RoomStatus.PLAYING or (version is not None and version != room.version):
        return False
    round_ = Round.objects.select_for_update().filter(room=room).order_by("-number").first()
    if round_.id != round_id:
        return False
    seats = list(room.seats.select_related("user"))
    game_rules = rules.get(room.game)
    acted = False
    for _ in range(MAX_BOT_STEPS):
        due = timing.due_now(room=room, round_=round_, seats=seats, now=now)
        if due.abandoned is not None:
            _abandon(room, round_, seats, due.abandoned)
            acted = True
            break
        if due.bots:
            seat, by_bot, automatic = due.bots[0], True, False
            action = game_rules.bot_action(round_.state, due.bots[0])
        elif due.timed_out:
            seat, by_bot, automatic = due.timed_out[0], False, True
            action = game_rules.timeout_action(round_.state, seat)
            _log(room, {"type": "timed_out", "seat": seat}, round_.number)
        else:
            break
        before = timing.turn_of(room, round_)
        round_ = _apply(room, round_, seat, action, user=None, by_bot=by_bot, automatic=automatic)
        round_ = _advance_bots(room, round_, seats)
        # Re-plan in memory with the same clock, so the loop sees the next deadlines.
        timing.plan(room=room, round_=round_, seats=seats, before=before, now=now)
        acted = True
    if acted:
        _plan(room, round_, seats, before=timing.turn_of(room, round_), now=now)
        room.save()
    return acted


def _abandon(room: Room, round_: Round, seats: list[Seat], seat: int) -> None:
    # People read the reason on the table: the player's name, not a seat index.
    idle = next((s for s in seats if s.index == seat and s.user_id is not None), None)
    who = idle.user.shown_name if idle is not None else f"The player in seat {seat + 1}"
    room.status = RoomStatus.ABANDONED
    room.status_reason = f"{who} did not play for too long; the match was abandoned."
    room.finished_at = timezone.now()
    _touch(room)
    _log(room, {"type": "abandoned", "seat": seat, "reason": room.status_reason}, round_.number)
    round_.deadline_at = round_.bots_due_at = round_.due_at = None
    round_.save()


def rounds_overdue(*, now: datetime | None = None, limit: int = 500) -> list[int]:
    """Rounds whose due time has passed in rooms still being played (for the sweeper)."""
    now = now or timezone.now()
    return list(
        Round.objects.filter(due_at__lte=now, room__status=RoomStatus.PLAYING)
        .order_by("due_at")
        .values_list("id", flat=True)[:limit]
    )


def rounds_sweep(*, now: datetime | None = None) -> int:
    """Handle every overdue round, each in its own transaction. Safe to run twice at once."""
    handled = 0
    for round_id in rounds_overdue(now=now):
        if round_due(round_id=round_id, version=None, now=now):
            handled += 1
    return handled


# -- the event log ----------------------------------------------------------------


def _log(
    room: Room, data: dict[str, Any], round_number: int | None = None, visible_to: list[int] | None = None
) -> None:
    """Append to the room's log. Expects the room lock held; the caller saves the room."""
    _log_rule_events(room, round_number, [RuleEvent(data, visible_to)])


def _log_rule_events(room: Room, round_number: int | None, events: list[RuleEvent]) -> None:
    """Append events in one insert. Expects the room lock held; the caller saves the room."""
    rows = []
    for event in events:
        room.event_seq += 1
        rows.append(
            Event(
                room=room,
                seq=room.event_seq,
                round_number=round_number,
                version=room.version,
                data=event.data,
                visible_to=event.visible_to,
                audience=_audience(event.visible_to),
            )
        )
    write_batch.insert(*rows)


def _audience(visible_to: list[int] | None) -> int:
    return PUBLIC if visible_to is None else sum(1 << s for s in set(visible_to))


# -- moderation (called by moderation.services, which records who and why) ----------


@transaction.atomic
def room_close(*, code: str, reason: str) -> Room:
    """Close a room for good: nobody may act, everyone sees why."""
    room = _lock_room(code)
    if room.status in (RoomStatus.CLOSED, RoomStatus.ABANDONED, RoomStatus.FINISHED):
        raise ServiceError("room_closed", f"This room is already {room.status}.", 409)
    room.status = RoomStatus.CLOSED
    room.status_reason = f"Closed by a moderator: {reason}"
    room.finished_at = timezone.now()
    _touch(room)
    round_ = Round.objects.filter(room=room).order_by("-number").first()
    _log(room, {"type": "closed", "reason": room.status_reason}, round_.number if round_ else None)
    if round_ is not None:
        round_.deadline_at = round_.bots_due_at = round_.due_at = None
        round_.save(update_fields=["deadline_at", "bots_due_at", "due_at"])
    room.save()
    return room


@transaction.atomic
def seat_give_to_bot(*, code: str, index: int, reason: str = "", banned: bool = False) -> Seat:
    """Take a seat from its player and give it to a computer player, who plays on.

    The reason is public: the table's log shows it to everyone, its former player too
    (`banned` says the player was banned, not only moved out of this room).
    """
    room = _lock_room(code)
    _require_open(room)
    if room.status == RoomStatus.FINISHED:
        raise ServiceError("not_playing", "The match is over.", 409)
    seats = list(room.seats.select_related("user"))
    seat = next((s for s in seats if s.index == index), None)
    if seat is None or seat.is_bot or seat.user_id is None:
        raise ServiceError("invalid", "That seat has no human player.", 400, "seat")
    name = seat.user.shown_name
    was_host = room.host_id == seat.user_id
    seat.user = None
    seat.is_bot = True
    seat.save(update_fields=["user", "is_bot"])
    _touch(room)
    event: dict[str, Any] = {"type": "seat_to_bot", "seat": index, "name": name}
    if reason:
        event["reason"] = reason
    if banned:
        event["banned"] = True
    _log(room, event)
    if was_host:
        heir = next((s for s in seats if s.user_id is not None), None)
        if heir is not None:
            room.host_id = heir.user_id
            _log(room, {"type": "host_changed", "seat": heir.index})
    if room.status == RoomStatus.PLAYING:
        round_ = Round.objects.filter(room=room).order_by("-number").first()
        before = timing.turn_of(room, round_)
        round_ = _advance_bots(room, round_, seats)
        _plan(room, round_, seats, before=before)
    room.save()
    return seat


@transaction.atomic
def seat_remove(*, code: str, user: User, reason: str, banned: bool = False) -> Seat:
    """Take a lobby seat from its player (a moderator's decision); the log says why."""
    room = _lock_room(code)
    _require_lobby(room)
    seat = room.seats.filter(user=user).first()
    if seat is None:
        raise not_seated()
    event: dict[str, Any] = {"type": "removed", "seat": seat.index, "name": user.shown_name, "reason": reason}
    if banned:
        event["banned"] = True
    _vacate(room, seat, user, event)
    room.save()
    return seat
