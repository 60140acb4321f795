"""Play: a player's action, the computer players' moves, and the loop that acts when a
hand's time is due (deadlines, computer players on a delay, abandonment).

An action goes through the engine once, inside the room's lock, so a check and the
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

from django.db import IntegrityError
from django.utils import timezone

from accounts.models import User

from .. import selectors, store, timing
from ..errors import ServiceError, not_seated
from ..models import Action, IdempotentRequest, Room, RoomStatus, Round
from ..rules import fairness
from ..rules.base import ROUND_OVER
from ..rules.errors import RuleError
from ..signals import match_finished, seat_handed_over
from ..store import Table
from . import clock, handover
from . import forced as forced_
from .guards import require_playing

logger = logging.getLogger(__name__)

# A runaway loop of computer players would be a bug; stop well before it hurts.
MAX_BOT_STEPS = 2000


def new_seed() -> int:
    """A hand's seed: everything random in a hand follows from it."""
    return secrets.randbits(62)


def round_begin(table: Table, *, number: int, carry: dict[str, Any] | None, deal: Any = None) -> Round:
    """Deal a hand; the first one takes its carry from the table as it starts.

    Expects the room lock held.
    """
    room = table.room
    seed = new_seed()
    players = len(table.seats)
    # The seed committed for this hand (shown before its players could set theirs);
    # rooms made before deals were provable draw one now.
    server_seed = room.next_server_seed or fairness.new_server_seed()
    room.next_server_seed = ""
    table.save(room, ["next_server_seed"])
    client_seeds = [s.client_seed for s in table.seats]
    fair = fairness.Inputs(server_seed, room.code, number, tuple(client_seeds))
    if number == 1:
        host_seat = next(s.index for s in table.seats if s.user_id == room.host_id)
        teams = [s.team for s in table.seats]
        carry = table.rules.first_carry(
            options=room.options, players=players, host_seat=host_seat, teams=teams, seed=seed
        )
    state = table.rules.new_round(options=room.options, players=players, seed=seed, carry=carry, deal=deal, fair=fair)
    round_ = Round(
        number=number, seed=seed, carry=carry, state=state, server_seed=server_seed, client_seeds=client_seeds
    )
    table.begin_round(round_)
    table.log({"type": "round_started", "round": number}, round_number=number)
    return round_


@dataclass
class Submitted:
    view: dict[str, Any]
    replayed: bool = False


def _request_hash(version: Any, action: Any, code: str) -> str:
    raw = json.dumps({"room": code, "version": version, "action": action}, sort_keys=True)
    return hashlib.sha256(raw.encode()).hexdigest()


def action_submit(*, code: str, user: User, version: Any, action: Any, idempotency_key: str | None = None) -> Submitted:
    """Apply one player's action, then whatever computer players owe, atomically; the
    answer is the player's new view.

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


def _action_submit(*, code: str, user: User, version: Any, action: Any, idempotency_key: str | None) -> Submitted:
    # A move's round trips: the token and the table (prepared reads), then the flush of
    # every row it writes and the commit. scripts/profile_actions.py shows its time.
    with store.locked(code) as table:
        seat = table.seat_of(user)
        if seat is None:
            raise not_seated()
        request_hash = _request_hash(version, action, code) if idempotency_key else ""
        if idempotency_key:
            earlier = IdempotentRequest.objects.filter(user=user, key=idempotency_key).first()
            if earlier is not None:
                return _replay(earlier, request_hash)
        room = table.room
        require_playing(table)
        if seat.is_bot:
            raise ServiceError(
                "seat_held_by_computer",
                "A computer player holds your seat since you were away; reclaim it to play.",
                409,
            )
        if version != room.version:
            raise ServiceError(
                "stale_version", f"The room is at version {room.version}; fetch the state and retry.", 409, "version"
            )
        before = timing.turn_of(table)
        apply(table, seat.index, action, user=user)
        bots_advance(table)
        clock.plan(table, before=before)
        view = selectors.table_view(table=table, user=user)
        if idempotency_key:
            table.add(
                IdempotentRequest(user=user, key=idempotency_key, room=room, request_hash=request_hash, response=view)
            )
        return Submitted(view=view)


def apply(
    table: Table,
    seat: int,
    action: Any,
    *,
    user: User | None,
    by_bot: bool = False,
    automatic: bool = False,
    forced: bool = False,
) -> None:
    """Run one action through the engine and record it; when it completes the hand, the
    next one is dealt. Expects the room lock held. A `forced` play (the player's only
    legal action, made for them) says so in its public event.

    The round's state and version are named to the table here; its timing by the
    caller's `clock.plan`, once per request however many actions it applied.
    """
    room, round_ = table.room, table.round
    assert round_ is not None
    game_rules = table.rules
    try:
        applied = game_rules.apply(round_.state, seat, action)
    except RuleError as err:
        raise ServiceError.from_rule(err) from None
    round_.state = applied.state
    round_.version += 1
    table.save(round_, ["state", "version"])
    table.add(
        Action(
            round=round_, seq=round_.version, seat=seat, user=user, payload=action, by_bot=by_bot, automatic=automatic
        )
    )
    if user is not None:
        # A person's own action (a forced play included) counts against abandonment.
        acting = table.seat_at(seat)
        assert acting is not None
        acting.last_acted_at = timezone.now()
        table.save(acting, ["last_acted_at"])
    table.touch()
    table.log_events(round_.number, forced_.marked(applied.events, seat) if forced else applied.events)
    result = game_rules.result(round_.state)
    over = game_rules.is_match_over(round_.state)
    if result is not None and round_.result is None:
        round_.result = result
        round_.finished_at = timezone.now()
        room.scores = result.get("scores", room.scores)
        table.save(round_, ["result", "finished_at"])
        table.save(room, ["scores"])
        if not over:
            # The next hand's seed is fixed now, before its players may set theirs.
            room.next_server_seed = fairness.new_server_seed()
            table.save(room, ["next_server_seed"])
    if over:
        # The engine's own match_over event has told everyone; the room just closes.
        room.status = RoomStatus.FINISHED
        room.finished_at = timezone.now()
        table.save(room, ["status", "finished_at"])
        match_finished.send(sender=Room, room=room, seats=table.seats, result=round_.result)
    if game_rules.is_complete(round_.state):
        round_.deadline_at = round_.bots_due_at = round_.due_at = None
        table.save(round_, ["deadline_at", "bots_due_at", "due_at"])
        round_begin(table, number=round_.number + 1, carry=game_rules.carry(round_.state))


def bots_advance(table: Table) -> None:
    """Let computer players act at once where they should, and make the forced plays
    of the players who asked for them. Expects the room lock held.

    With a bot delay configured computer players move later through the worker
    (`due_actions_apply`), except between hands, where they are ready at once. A
    forced play is made at once whatever the delay, in the request or task whose
    change forced it: there is nothing to think over, and a delay would only hold the
    table up (and tell no one anything the `forced` mark does not). Each may lead to
    the other, or to another player's forced play: the loop runs until neither is due.
    """
    bots = table.bots
    forcing = forced_.anyone_opted_in(table)
    if not bots and not forcing:
        return
    for _ in range(MAX_BOT_STEPS):
        round_ = table.round
        if table.room.status != RoomStatus.PLAYING or round_ is None:
            return
        inline = timing.bots_inline() or round_.state.get("phase") == ROUND_OVER
        due = [s for s in table.to_act if s in bots] if inline else []
        if due:
            apply(table, due[0], table.rules.bot_action(round_.state, due[0]), user=None, by_bot=True)
            continue
        found = forced_.forced_play(table) if forcing else None
        if found is None:
            return
        seat, action = found
        apply(table, seat.index, action, user=seat.user, forced=True)
    raise RuntimeError(f"computer players did not yield in room {table.room.code}")


def forced_plays_make(*, user: User) -> int:
    """Make the plays forced on `user` that wait now, in every room where one does: for a
    player who has just asked for forced plays, who would otherwise wait for each room's
    next change. Returns how many rooms moved. Expects nothing held; takes each room's
    lock in turn."""
    moved = 0
    for turn in selectors.turns_of(user=user):
        try:
            with store.locked(turn["code"]) as table:
                if forced_.forced_play(table) is None:
                    continue
                before = timing.turn_of(table)
                bots_advance(table)
                clock.plan(table, before=before)
                moved += 1
        except ServiceError as err:
            if err.code != "not_found":  # the room is gone since the list was read
                raise
    return moved


# -- the due-time loop: deadlines, computer players on a delay, abandonment ----------


def due_actions_apply(*, code: str, version: int | None = None, now: datetime | None = None) -> bool:
    """Do whatever is overdue at a table: computer players' moves, timed-out players'
    automatic actions, or abandonment. Returns whether anything was applied.

    Harmless when repeated, late or raced: it locks the room, and does nothing when the
    room moved past `version` (a newer task is scheduled; None: act on whatever is due,
    as the sweeper does) or nothing is due yet.
    """
    now = now or timezone.now()
    try:
        with store.locked(code) as table:
            return _act_when_due(table, version=version, now=now)
    except ServiceError as err:
        if err.code == "not_found":  # the room is gone: a task outlived it
            return False
        raise


def _act_when_due(table: Table, *, version: int | None, now: datetime) -> bool:
    """The body of `due_actions_apply`. Expects the room lock held."""
    room = table.room
    if room.status != RoomStatus.PLAYING or table.round is None:
        return False
    if version is not None and version != room.version:
        return False
    acted = False
    for _ in range(MAX_BOT_STEPS):
        round_ = table.round
        due = timing.due_now(table, now=now)
        if due.abandoned is not None:
            if table.room.options.get("on_abandon") != "bot":
                _abandon(table, due.abandoned)
                return True
            before = timing.turn_of(table)
            _idle_to_bot(table, due.abandoned)
            if table.room.status != RoomStatus.PLAYING:
                return True
            bots_advance(table)
            timing.plan(table, before=before, now=now)
            acted = True
            continue
        if due.bots:
            seat, by_bot, automatic = due.bots[0], True, False
            action = table.rules.bot_action(round_.state, seat)
        elif due.timed_out:
            seat, by_bot, automatic = due.timed_out[0], False, True
            action = table.rules.timeout_action(round_.state, seat)
            table.log({"type": "timed_out", "seat": seat}, round_.number)
        else:
            break
        before = timing.turn_of(table)
        apply(table, seat, action, user=None, by_bot=by_bot, automatic=automatic)
        bots_advance(table)
        # Re-plan in memory with the same clock, so the loop sees the next deadlines.
        timing.plan(table, before=before, now=now)
        acted = True
    if acted:
        clock.plan(table, before=timing.turn_of(table), now=now)
    return acted


def _idle_to_bot(table: Table, index: int) -> None:
    """A computer player takes the seat of a player idle past `abandon_seconds` and
    keeps it for them (`on_abandon: bot`); the match is abandoned once no person is
    left playing. Expects the room lock held."""
    seat = table.seat_at(index)
    assert seat is not None and seat.user is not None
    name = seat.user.shown_name
    reason = f"{name} did not play for too long; a computer player plays on until they come back."
    event = {"type": "seat_to_bot", "seat": index, "name": name, "idle": True, "reason": reason}
    handover.seat_to_bot(table, seat, event, keep_owner=True)
    seat_handed_over.send(sender=Room, room=table.room, seat=index, user=seat.user, kind="to_bot")
    if handover.everyone_away(table):
        _abandon(table, index, "Every seat is played by a computer player; the match was abandoned.")


def _abandon(table: Table, seat: int, reason: str | None = None) -> None:
    room, round_ = table.room, table.round
    assert round_ is not None
    if reason is None:
        # People read the reason on the table: the player's name, not a seat index.
        idle = table.seat_at(seat)
        who = idle.user.shown_name if idle is not None and idle.user is not None else f"The player in seat {seat + 1}"
        reason = f"{who} did not play for too long; the match was abandoned."
    room.status = RoomStatus.ABANDONED
    room.status_reason = reason
    room.finished_at = timezone.now()
    table.save(room, ["status", "status_reason", "finished_at"])
    table.touch()
    table.log({"type": "abandoned", "seat": seat, "reason": room.status_reason}, round_.number)
    round_.deadline_at = round_.bots_due_at = round_.due_at = None
    table.save(round_, ["deadline_at", "bots_due_at", "due_at"])


def overdue_sweep(*, now: datetime | None = None) -> int:
    """Act at every overdue table, each in its own transaction. Safe to run twice at once.

    A table that fails is logged and left for the next sweep: it must not hold up the
    tables due after it.
    """
    handled = 0
    for code in selectors.rooms_overdue(now=now or timezone.now()):
        try:
            handled += due_actions_apply(code=code, now=now)
        except Exception:
            logger.exception("the sweeper could not act in room %s", code)
    return handled
