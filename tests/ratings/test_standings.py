"""Places and sides from the engines' results."""

from __future__ import annotations

import pytest
from django.db import transaction

from games import rules, selectors
from games.models import Seat
from ratings.models import Placing, RatingChange
from ratings.services import match_record
from ratings.standings import Side, standings
from tests.game_params import variant_params

from .play import room_ready


def test_hearts_lowest_total_first_and_ties_share_a_place():
    result = {"scores": [40, 101, 40, 77], "winners": [0, 2]}
    assert standings("hearts", result, 4) == [Side((0,), 1), Side((2,), 1), Side((3,), 3), Side((1,), 4)]


def test_moon_partnerships_are_sides_and_the_bidder_side_may_win_below_the_other():
    result = {"scores": [22, 25, 22, 25], "winners": [0, 2], "teams": [[0, 2], [1, 3]]}
    assert standings("moon", result, 4) == [Side((0, 2), 1), Side((1, 3), 2)]


def test_moon_three_players_alone_highest_first():
    result = {"scores": [12, 23, 5], "winners": [1], "teams": None}
    assert standings("moon", result, 3) == [Side((1,), 1), Side((0,), 2), Side((2,), 3)]


def test_kali_tidi_cards_mode_sides_are_the_last_hand_bidder_and_revealed_partners():
    result = {"scores": [260, 90, 260, 40, 120], "winners": [0, 2], "bidding_side": [2, 0], "other_side": [1, 3, 4]}
    assert standings("kali_tidi", result, 5) == [Side((0, 2), 1), Side((1, 3, 4), 2)]


# The sides each game says of a scored hand are the ones the ratings record: a side's
# seats share their place, and fixed teams are those sides. Every game's match variants
# (its profile's MATCH_VARIANTS: each way it seats sides).
@pytest.mark.django_db
@pytest.mark.parametrize(("game", "options", "seats"), variant_params())
def test_the_ratings_record_the_sides_the_game_names(make_user, game, options, seats):
    rules_of = rules.get(game)
    players = seats
    people = [make_user() for _ in range(players)]
    room = room_ready(game, options, people)
    table = selectors.table_of(code=room.code)
    assert table.round is not None
    state = table.round.state
    while (result := rules_of.result(state)) is None:
        seat = rules_of.to_act(state)[0]
        state = rules_of.apply(state, seat, rules_of.bot_action(state, seat)).state
    seats = list(Seat.objects.filter(room=room).order_by("index"))
    with transaction.atomic():
        match_record(room=room, seats=seats, result=result)
    place = {p.seat: p.place for p in Placing.objects.filter(room=room)}
    sides = rules_of.result_sides(result)
    assert sorted(place) == list(range(players))
    for side in sides:
        assert len({place[s] for s in side}) == 1, (side, place)
    # Where the seats have fixed teams, those are the sides the ratings saw.
    if (teams := [s.team for s in seats])[0] is not None:
        assert sorted(sides) == sorted([s for s in range(players) if teams[s] == t] for t in set(teams))
    # Everyone's rating moved once: the match was rated with these sides.
    assert RatingChange.objects.filter(room=room).count() == players
