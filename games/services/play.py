"""Play: a player's action, with its idempotent replay, and the forced plays a player
asks for.

An action goes through the engine once, inside the room's lock, so a check and the
write it justifies can never be split by another request.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from core import metrics

from .. import selectors
from ..errors import ServiceError, not_seated
from ..models import IdempotentRequest
from . import forced as forced_
from . import moves, timekeeper
from .guards import require_playing


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
    started = time.perf_counter()
    try:
        submitted = _action_submit(
            code=code, user=user, version=version, action=action, idempotency_key=idempotency_key
        )
        if not submitted.replayed:
            metrics.observe_quietly(metrics.MOVE_SECONDS, time.perf_counter() - started)
        return submitted
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
        raise ServiceError("idempotency_key_reused", _("This Idempotency-Key was used for a different request."), 422)
    return Submitted(view=earlier.response, replayed=True)


def _action_submit(*, code: str, user: User, version: Any, action: Any, idempotency_key: str | None) -> Submitted:
    # A move's round trips: the token and the table (prepared reads), then the flush of
    # every row it writes and the commit. scripts/profile_actions.py shows its time.
    with timekeeper.changing(code) as table:
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
                _("A computer player holds your seat since you were away; reclaim it to play."),
                409,
            )
        if version != room.version:
            raise ServiceError(
                "stale_version",
                _("The room is at version %(version)s; fetch the state and retry.") % {"version": room.version},
                409,
                "version",
            )
        moves.step(table, seat.index, action, user=user)
        # The change ends here, so that the answer shows the table as it leaves it:
        # computer players moved, the next turns started, the clock planned.
        timekeeper.keep(table, now=timezone.now(), final=True)
        view = selectors.table_view(table=table, user=user)
        if idempotency_key:
            table.add(
                IdempotentRequest(user=user, key=idempotency_key, room=room, request_hash=request_hash, response=view)
            )
        return Submitted(view=view)


def forced_plays_make(*, user: User) -> int:
    """Make the plays forced on `user` that wait now, in every room where one does: for a
    player who has just asked for forced plays, who would otherwise wait for each room's
    next change. Returns how many rooms moved. Expects nothing held; takes each room's
    lock in turn."""
    moved = 0
    for turn in selectors.turns_of(user=user):
        try:
            with timekeeper.changing(turn["code"]) as table:
                # The play itself is made as the block ends, as at every change.
                if forced_.forced_play(table) is not None:
                    moved += 1
        except ServiceError as err:
            if err.code != "not_found":  # the room is gone since the list was read
                raise
    return moved
