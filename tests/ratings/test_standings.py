"""Places and sides from the engines' results."""

from __future__ import annotations

from ratings.standings import Side, standings


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
