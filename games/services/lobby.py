"""The lobby: making a room, taking and leaving seats, computer players, the start."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts import selectors as accounts
from accounts.models import User

from .. import rules, store
from ..codes import new_code
from ..errors import ServiceError, from_rule, not_host, not_seated
from ..models import EndCause, Room, RoomStatus, Seat
from ..rules import fairness
from ..rules.base import ENGINE_TEAMS, LOBBY_TEAMS
from ..rules.errors import RuleError
from ..store import Table
from . import ending, moves, timekeeper
from .guards import require_lobby


@transaction.atomic
def room_create(*, host: User, game: str, options: dict[str, Any] | None, name: str = "", public: bool = True) -> Room:
    try:
        game_rules = rules.get(game)
        checked = game_rules.validate_options(options)
    except RuleError as err:
        raise from_rule(err) from None
    seats = game_rules.seat_count(checked)
    lobby_teams = game_rules.lobby_teams(checked) if game_rules.team_choice(checked) == LOBBY_TEAMS else None
    for _ in range(10):
        room = Room(code=new_code(), game=game, name=name, options=checked, public=public, host=host)
        # The first hand's seed, committed before anyone may set a client seed.
        room.next_server_seed = fairness.new_server_seed()
        room.scores = [0] * seats
        if store.room_insert(room):
            break
        # The code was taken; draw another.
    else:  # pragma: no cover - 31^6 codes make ten collisions in a row implausible
        raise ServiceError("server_busy", gettext("Could not allocate a room code."), 503)
    places = [
        Seat(index=0, user=host, joined_at=timezone.now(), team=0 if lobby_teams else None),
        *(Seat(index=i) for i in range(1, seats)),
    ]
    with store.created(room, places) as table:
        table.log({"type": "room_created", "game": game, "host": host.shown_name})
    return room


def _pick_team(table: Table, team: int | None, mover: Seat | None = None) -> int | None:
    """The team a joining player (or bot) takes: the one asked for if it has room, or
    the one with the most free places. None where the game has no lobby teams."""
    choice = table.rules.team_choice(table.room.options)
    sizes = table.rules.lobby_teams(table.room.options) if choice == LOBBY_TEAMS else None
    if sizes is None:
        if team is not None and choice == ENGINE_TEAMS:
            raise ServiceError(
                "invalid", gettext("The teams of this room are set as the match starts: join without one."), 400, "team"
            )
        if team is not None:
            raise ServiceError("invalid", gettext("This room has no teams to choose from."), 400, "team")
        return None
    members = [
        sum(1 for s in table.seats if s.team == t and s is not mover and not s.is_free) for t in range(len(sizes))
    ]
    if team is None:
        team = max(range(len(sizes)), key=lambda t: (sizes[t] - members[t], -t))
    if not 0 <= team < len(sizes):
        raise ServiceError(
            "invalid", gettext("Teams are numbered 0 to %(last)s.") % {"last": len(sizes) - 1}, 400, "team"
        )
    if members[team] >= sizes[team]:
        detail = ngettext(
            "Team %(team)s already has its %(n)s player.", "Team %(team)s already has its %(n)s players.", sizes[team]
        ) % {"team": team, "n": sizes[team]}
        raise ServiceError("team_full", detail, 409)
    return team


def room_join(*, code: str, user: User, team: int | None = None) -> Seat:
    """Take a free seat, or, already seated in a room with lobby teams, switch team."""
    with timekeeper.changing(code) as table:
        require_lobby(table)
        mine = table.seat_of(user)
        if mine is not None:
            if team is None or team == mine.team or table.rules.team_choice(table.room.options) != LOBBY_TEAMS:
                raise ServiceError("already_seated", gettext("You already have a seat in this room."), 409)
            mine.team = _pick_team(table, team, mover=mine)
            table.mark(mine, ["team"])
            table.touch()
            table.log({"type": "team_changed", "seat": mine.index, "team": mine.team})
            return mine
        if accounts.blocked_either_way(user_id=user.pk) & {s.user_id for s in table.seats if s.user_id}:
            raise ServiceError(
                "blocked_at_table",
                gettext("Someone at this table and you have blocked one another: pick another."),
                409,
            )
        seat = _seat_take(table, team, user=user)
        table.log({"type": "joined", "seat": seat.index, "name": user.shown_name})
        return seat


def _seat_take(table: Table, team: int | None, *, user: User | None = None, bot: bool = False) -> Seat:
    """The first free seat, taken by `user` or by a computer player, in `team` (or the
    team with most room). Expects the room lock held."""
    seat = next((s for s in table.seats if s.is_free), None)
    if seat is None:
        raise ServiceError("room_full", gettext("Every seat is taken."), 409)
    seat.team = _pick_team(table, team)
    seat.user, seat.is_bot, seat.joined_at = user, bot, timezone.now()
    table.mark(seat, ["team", "user", "is_bot", "joined_at"])
    table.touch()
    return seat


def room_leave(*, code: str, user: User) -> None:
    with timekeeper.changing(code) as table:
        require_lobby(table)
        seat = table.seat_of(user)
        if seat is None:
            raise not_seated()
        seat_vacate(table, seat, {"type": "left", "seat": seat.index, "name": user.shown_name})


def seat_vacate(table: Table, seat: Seat, event: dict[str, Any]) -> None:
    """Free a lobby seat and log `event`; the host's role passes on. Expects the room
    lock held."""
    leaving = seat.user_id
    seat.user = None
    seat.team = None
    seat.joined_at = None
    table.mark(seat, ["user", "team", "joined_at"])
    table.log(event)
    if not host_pass_on(table, leaving) and table.room.host_id == leaving:
        # Nobody is left to host: the room is over before it began.
        ending.room_end(table, RoomStatus.ABANDONED, EndCause.EVERYONE_LEFT)
    else:
        table.touch()


def host_pass_on(table: Table, leaving: int | None) -> bool:
    """When the host leaves their seat, the person in the lowest other seat hosts.
    Returns whether the role passed; False when `leaving` was not the host or nobody is
    left. Expects the room lock held."""
    if leaving is None or table.room.host_id != leaving:
        return False
    heir = next((s for s in table.seats if s.user is not None and s.user_id != leaving), None)
    if heir is None or heir.user is None:
        return False
    table.room.host = heir.user
    table.mark(table.room, ["host"])
    table.log({"type": "host_changed", "seat": heir.index})
    return True


def room_add_bot(*, code: str, user: User, team: int | None = None) -> Seat:
    with timekeeper.changing(code) as table:
        require_lobby(table)
        if table.room.host_id != user.id:
            raise not_host()
        seat = _seat_take(table, team, bot=True)
        table.log({"type": "bot_added", "seat": seat.index})
        return seat


def room_start(*, code: str, user: User) -> Table:
    with timekeeper.changing(code) as table:
        require_lobby(table)
        room = table.room
        if room.host_id != user.id:
            raise not_host()
        if any(s.is_free for s in table.seats):
            raise ServiceError("seats_not_filled", gettext("Every seat must be taken before the start."), 409)
        sizes = table.rules.lobby_teams(room.options) if table.rules.team_choice(room.options) == LOBBY_TEAMS else None
        if sizes is not None and [sum(1 for s in table.seats if s.team == t) for t in range(len(sizes))] != sizes:
            # Translators: joins the sizes of the teams, as in "2 and 3".
            sizes_text = gettext(" and ").join(map(str, sizes))
            # Translators: the sizes are the teams' numbers of players, joined as above ("2 and 3").
            detail = gettext("The teams must have %(sizes)s players.") % {"sizes": sizes_text}
            raise ServiceError("teams_not_filled", detail, 409)
        room.status = RoomStatus.PLAYING
        room.started_at = timezone.now()
        if room.options.get("rated") is None:
            # Decided by the seats as the match starts, so a match's rating never
            # depends on who sat down or left in the lobby afterwards (none can).
            room.options = {**room.options, "rated": not any(s.is_bot for s in table.seats)}
            room.rated_by_seats = True
        table.mark(room, ["status", "started_at", "options", "rated_by_seats"])
        table.touch()
        table.log({"type": "started"})
        moves.round_begin(table, number=1, carry=None)
        _teams_as_played(table)
        return table


def _teams_as_played(table: Table) -> None:
    """From the start each seat's `team` is the one it plays in, as the engine says
    (`Game.seat_teams`): the lobby's choice, or the teams the engine set (Kali Tidi's
    random draw, Moon's partnerships), so the room (GET rooms/{code}/) names them as
    the view does."""
    assert table.round is not None
    teams = table.rules.seat_teams(table.round.state)
    if teams is None:
        return
    for index, team in enumerate(teams):
        seat = table.seat_at(index)
        if seat is not None and seat.team != team:
            seat.team = team
            table.mark(seat, ["team"])
