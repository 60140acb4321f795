"""Rematches of team games through the API: every team variant of every game seats its
people back as the new room's options allow. Where players choose their teams in the
lobby each person keeps theirs; where the engine sets them as the match starts (Moon's
four-player partnerships, Kali Tidi's random draw) everyone joins without one and the
seats then carry the engine's teams. A game whose options bring a way of choosing
teams that no case here plays fails `test_every_team_variant_of_every_game_is_played`."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import rules, selectors
from games.models import Room, RoomStatus, Seat
from games.rules.base import ENGINE_TEAMS, LOBBY_TEAMS
from games.rules.conformance import profile_for
from games.services import due

from .helpers import error_code

pytestmark = pytest.mark.django_db

TIMING = {"turn_seconds": 30, "abandon_seconds": 30}

# (game, options, the team each seat asks for in the lobby or None, how many people):
# the people take the first seats, computer players the rest.
CASES: list[tuple[str, dict[str, Any], list[int] | None, int]] = [
    ("hearts", {}, None, 2),
    ("moon", {"players": 3}, None, 2),
    ("moon", {"players": 4}, None, 2),
    ("kali_tidi", {"players": 4, "team_mode": "teams"}, [0, 1, 1, 0], 3),
    ("kali_tidi", {"players": 5, "team_mode": "teams", "team_sizes": [2, 3]}, [0, 1, 1, 0, 1], 3),
    ("kali_tidi", {"players": 2, "team_mode": "teams"}, [0, 1], 2),
    ("kali_tidi", {"players": 4, "team_mode": "random"}, None, 3),
    ("kali_tidi", {"players": 5, "team_mode": "cards"}, None, 2),
]
IDS = [f"{game}-{'-'.join(f'{k}={v}' for k, v in options.items()) or 'default'}" for game, options, _, _ in CASES]


def seats_of(code: str) -> list[Seat]:
    return list(Seat.objects.filter(room__code=code).order_by("index"))


def ended_room(api_client, make_user, game: str, options: dict[str, Any], teams: list[int] | None, people: int):
    """A room of `people` people then computer players, started through the API in the
    asked teams, then abandoned by its people's idleness."""
    users = [make_user() for _ in range(people)]
    clients = [api_client(u) for u in users]
    made = clients[0].post("/api/v1/rooms/", {"game": game, "options": {**options, **TIMING}}, format="json")
    assert made.status_code == 201, made.content
    code = made.json()["code"]
    seats = rules.get(game).seat_count(rules.get(game).validate_options(options))
    if teams is not None and teams[0] != 0:
        assert clients[0].post(f"/api/v1/rooms/{code}/join", {"team": teams[0]}, format="json").status_code == 200
    for i in range(1, seats):
        body = {"team": teams[i]} if teams is not None else {}
        if i < people:
            res = clients[i].post(f"/api/v1/rooms/{code}/join", body, format="json")
        else:
            res = clients[0].post(f"/api/v1/rooms/{code}/bots", body, format="json")
        assert res.status_code in (200, 201), res.content
    started = clients[0].post(f"/api/v1/rooms/{code}/start")
    assert started.status_code == 200, started.content
    Seat.objects.filter(room__code=code, user__isnull=False).update(turn_since=timezone.now() - timedelta(minutes=5))
    due.due_actions_apply(code=code, now=timezone.now())
    room = Room.objects.get(code=code)
    assert room.status == RoomStatus.ABANDONED
    return room, users, clients


def engine_teams(code: str) -> list[int] | None:
    table = selectors.table_of(code=code)
    assert table.round is not None
    return table.rules.seat_teams(table.round.state)


@pytest.mark.parametrize(("game", "options", "teams", "people"), CASES, ids=IDS)
def test_the_rematch_of_every_team_variant_seats_everyone_back(api_client, make_user, game, options, teams, people):
    room, users, clients = ended_room(api_client, make_user, game, options, teams, people)
    choice = rules.get(game).team_choice(room.options)
    old = seats_of(room.code)
    if teams is not None:
        assert choice == LOBBY_TEAMS
        assert [s.team for s in old] == teams
    # The seats' teams are the engine's from the start, whatever decided them.
    assert [s.team for s in old] == (engine_teams(room.code) if choice else [None] * len(old))
    # The last to agree makes the rematch; with lobby teams they played in team 1.
    order = list(range(people))
    if teams is not None:
        last = next(i for i in order if teams[i] == 1)
        order = [i for i in order if i != last] + [last]
    for i in order:
        res = clients[i].post(f"/api/v1/rooms/{room.code}/rematch")
        assert res.status_code == 200, res.content
    code = res.json()["rematch"]["room"]
    assert code is not None
    new_room = Room.objects.get(code=code)
    assert new_room.status == RoomStatus.PLAYING
    new = seats_of(code)
    assert {s.user_id for s in new if s.user_id} == {u.pk for u in users}
    assert sum(s.is_bot for s in new) == len(old) - people
    # The room names each seat's team as the engine plays it.
    assert [s.team for s in new] == (engine_teams(code) if choice else [None] * len(new))
    listed = clients[0].get(f"/api/v1/rooms/{code}/").json()["seats"]
    assert [s.get("team") for s in listed] == [s.team for s in new]
    if choice == LOBBY_TEAMS:
        # Everyone keeps their team, the computer players too (by count: they have no name).
        team_of = {s.user_id: s.team for s in old if s.user_id}
        assert {s.user_id: s.team for s in new if s.user_id} == team_of
        assert sorted(s.team or 0 for s in new if s.is_bot) == sorted(s.team or 0 for s in old if s.user_id is None)


@pytest.mark.parametrize(
    ("game", "options"), [("moon", {"players": 4}), ("kali_tidi", {"players": 4, "team_mode": "random"})]
)
def test_teams_the_engine_sets_are_not_chosen_in_the_lobby(api_client, make_user, game, options):
    host, other = api_client(make_user()), api_client(make_user())
    code = host.post("/api/v1/rooms/", {"game": game, "options": options}, format="json").json()["code"]
    assert [s.team for s in seats_of(code)] == [None] * len(seats_of(code))
    refused = other.post(f"/api/v1/rooms/{code}/join", {"team": 0}, format="json")
    assert (refused.status_code, error_code(refused)) == (400, "invalid")
    assert other.post(f"/api/v1/rooms/{code}/join", {}, format="json").status_code == 201


def test_every_team_variant_of_every_game_is_played():
    """Each game's option sets (its conformance profile's, every choice of its options)
    bring ways of deciding teams; each (game, way) must be one the rematch cases play."""
    covered = {(game, rules.get(game).team_choice(rules.get(game).validate_options(o))) for game, o, _, _ in CASES}
    offered = {
        (game.key, game.team_choice(game.validate_options(run.options)))
        for game in rules.all_games()
        if game.__module__.startswith("games.rules.")
        for run in profile_for(game).runs()
    }
    assert offered <= covered
    assert {choice for _, choice in covered} == {None, LOBBY_TEAMS, ENGINE_TEAMS}
