"""Lobby teams in the shared services, with a small game of their own: players choose
or switch a team, bots take a team, the host starts only with the declared sizes, and
the first hand inherits the teams. Games with teams (Kali Tidi) build on exactly this."""

from __future__ import annotations

from typing import Any

import pytest

from core.errors import ServiceError
from games import rules, selectors
from games.rules import registry
from games.rules.base import LOBBY_TEAMS, Applied, Game, TeamChoice
from games.rules.options import Option, OptionSet
from games.rules.schema import CARD, CARD_SUIT, GameSchema
from games.services import lobby

pytestmark = pytest.mark.django_db


class TeamsGame(Game):
    key = "teams_probe"
    name = "Teams probe"
    min_players = 2
    max_players = 5
    option_set = OptionSet(
        (
            Option("players", 5, "seats", minimum=2, maximum=5, kind="integer"),
            Option("first_team", 2, "size of team 0", minimum=1, maximum=4, kind="integer"),
        )
    )

    def seat_count(self, options: dict[str, Any]) -> int:
        return options["players"]

    def lobby_teams(self, options: dict[str, Any]) -> list[int] | None:
        return [options["first_team"], options["players"] - options["first_team"]]

    def team_choice(self, options: dict[str, Any]) -> TeamChoice | None:
        return LOBBY_TEAMS

    def seat_teams(self, state: dict[str, Any]) -> list[int] | None:
        return list(state["carry"]["teams"])

    def result_sides(self, result: dict[str, Any]) -> list[list[int]]:
        raise AssertionError("nothing is scored in this probe")

    def first_carry(self, *, options, players, host_seat, teams, seed):
        return {"host": host_seat, "teams": teams}

    def new_round(self, *, options, players, seed, carry, deal=None, fair=None):
        return {"phase": "waiting", "players": players, "carry": carry, "ready": []}

    def to_act(self, state):
        return []

    def legal_actions(self, state, seat, *, with_claim=True):
        return []

    def handlers(self):
        return {}  # nobody acts in this probe

    def apply(self, state, seat, action) -> Applied:
        raise AssertionError("nobody acts in this probe")

    def view(self, state, seat):
        return {"phase": state["phase"], "to_act": [], "seats": [{} for _ in range(state["players"])]}

    def result(self, state):
        return None

    def carry(self, state):
        return {}

    def bot_action(self, state, seat):
        raise AssertionError("nobody acts in this probe")


@pytest.fixture
def probe_game():
    # Nobody acts and nothing is scored: the document's types of it are never built.
    game = rules.register(TeamsGame(), GameSchema({}, {}, CARD, ("card", CARD), CARD_SUIT, {}))
    yield game
    registry.unregister(game.key)


def error(call) -> tuple[str, int]:
    with pytest.raises(ServiceError) as caught:
        call()
    return caught.value.code, caught.value.status


def teams(room) -> list[int | None]:
    return [s.team for s in selectors.table_of(code=room.code).seats]


def test_players_choose_switch_and_fill_teams(probe_game, make_user):
    host, a, b, c = (make_user() for _ in range(4))
    room = lobby.room_create(host=host, game=probe_game.key, options={"players": 5, "first_team": 2})
    assert teams(room) == [0, None, None, None, None]
    lobby.room_join(code=room.code, user=a, team=0)
    assert error(lambda: lobby.room_join(code=room.code, user=b, team=0)) == ("team_full", 409)
    assert error(lambda: lobby.room_join(code=room.code, user=b, team=2)) == ("invalid", 400)
    lobby.room_join(code=room.code, user=b)  # no choice: the team with most room
    assert teams(room) == [0, 0, 1, None, None]
    # Switching: a full team refuses, a team with room accepts, the same team is no switch.
    assert error(lambda: lobby.room_join(code=room.code, user=b, team=0)) == ("team_full", 409)
    lobby.room_join(code=room.code, user=a, team=1)
    assert teams(room) == [0, 1, 1, None, None]
    assert error(lambda: lobby.room_join(code=room.code, user=a, team=1)) == ("already_seated", 409)
    lobby.room_add_bot(code=room.code, user=host, team=1)
    assert teams(room) == [0, 1, 1, 1, None]
    # The last seat goes to the one team with room left.
    assert error(lambda: lobby.room_join(code=room.code, user=c, team=1)) == ("team_full", 409)
    lobby.room_join(code=room.code, user=c, team=0)
    assert teams(room) == [0, 1, 1, 1, 0]
    lobby.room_start(code=room.code, user=host)
    room.refresh_from_db()
    first = selectors.table_of(code=room.code).round
    assert first.carry == {"host": 0, "teams": [0, 1, 1, 1, 0]}
    assert [s["team"] for s in selectors.view_by_code(code=room.code, user=host)["seats"]] == [0, 1, 1, 1, 0]


def test_start_needs_the_declared_sizes(probe_game, make_user):
    host, a = make_user(), make_user()
    room = lobby.room_create(host=host, game=probe_game.key, options={"players": 3, "first_team": 1})
    # Team 0 (size 1) holds the host: the others all go to team 1.
    lobby.room_join(code=room.code, user=a)
    lobby.room_add_bot(code=room.code, user=host)
    assert teams(room) == [0, 1, 1]
    assert error(lambda: lobby.room_add_bot(code=room.code, user=host)) == ("room_full", 409)
    lobby.room_leave(code=room.code, user=a)
    assert teams(room) == [0, None, 1]
    assert error(lambda: lobby.room_start(code=room.code, user=host)) == ("seats_not_filled", 409)


def test_games_without_teams_refuse_a_team(make_user):
    room = lobby.room_create(host=make_user(), game="hearts", options={})
    assert error(lambda: lobby.room_join(code=room.code, user=make_user(), team=0)) == ("invalid", 400)
