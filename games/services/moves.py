"""The engine step: a hand dealt, an action applied and recorded, the computer players'
and forced plays made where they are due at once. Every change of play goes through
`step`; the caller holds the room lock (games.services.timekeeper keeps the time)."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from core import metrics

from .. import timing
from ..errors import from_rule
from ..models import Action, Room, RoomStatus, Round
from ..rules import fairness
from ..rules.base import ROUND_OVER
from ..rules.errors import RuleError
from ..signals import match_finished
from ..store import Table
from . import clock, ending
from . import forced as forced_

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
    table.mark(room, ["next_server_seed"])
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


def step(
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

    The round's state and version are named to the table here; its clock when the
    change ends (games.services.timekeeper), however many actions it applied.
    """
    room, round_ = table.room, table.round
    assert round_ is not None
    game_rules = table.rules
    try:
        applied = game_rules.apply(round_.state, seat, action)
    except RuleError as err:
        raise from_rule(err) from None
    round_.state = applied.state
    round_.version += 1
    table.mark(round_, ["state", "version"])
    table.add(
        Action(
            round=round_, seq=round_.version, seat=seat, user=user, payload=action, by_bot=by_bot, automatic=automatic
        )
    )
    # Counted once the change commits (a move rolled back was never made).
    by = metrics.move_by(by_bot=by_bot, automatic=automatic)
    # Robust: a figure that cannot be written (a full metrics folder) never fails a move
    # already committed, nor the notices and the clock that follow it.
    transaction.on_commit(metrics.MOVES.labels(game=room.game, by=by).inc, robust=True)
    # A person's own action (a forced play included) starts their waiting time again;
    # the server's for them (a timeout) does not.
    table.turns.note_action(seat, own=user is not None)
    if user is not None:
        acting = table.seat_at(seat)
        assert acting is not None
        acting.last_acted_at = timezone.now()
        table.mark(acting, ["last_acted_at"])
    result = game_rules.result(round_.state)
    over = game_rules.is_match_over(round_.state)
    if over:
        # The engine's own match_over event tells everyone; the room just ends (which
        # counts the change, as `touch` does otherwise).
        ending.room_end(table, RoomStatus.FINISHED)
    else:
        table.touch()
    table.log_events(round_.number, forced_.marked(applied.events, seat) if forced else applied.events)
    if result is not None and round_.result is None:
        round_.result = result
        round_.finished_at = timezone.now()
        room.scores = result.get("scores", room.scores)
        table.mark(round_, ["result", "finished_at"])
        table.mark(room, ["scores"])
        if not over:
            # The next hand's seed is fixed now, before its players may set theirs.
            room.next_server_seed = fairness.new_server_seed()
            table.mark(room, ["next_server_seed"])
    if over:
        match_finished.send(sender=Room, room=room, seats=table.seats, result=round_.result)
    if game_rules.is_complete(round_.state):
        clock.stop(table, round_)
        round_begin(table, number=round_.number + 1, carry=game_rules.carry(round_.state))


def bots_advance(table: Table) -> None:
    """Let computer players act at once where they should, and make the forced plays
    of the players who asked for them. Expects the room lock held.

    With a bot delay configured computer players move later through the worker
    (games.services.due), except between hands, where they are ready at once. A
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
            step(table, due[0], table.rules.bot_action(round_.state, due[0]), user=None, by_bot=True)
            continue
        found = forced_.forced_play(table) if forcing else None
        if found is None:
            return
        seat, action = found
        step(table, seat.index, action, user=seat.user, forced=True)
    raise RuntimeError(f"computer players did not yield in room {table.room.code}")
