"""Moon options, scoring and the end of a match, for three players and four in partnerships."""

from __future__ import annotations

from typing import Any

import pytest

from games.rules.errors import RuleError
from games.rules.moon.engine import deck_for

from .test_moon_rules import (
    DEAL_4,
    DEAL_A,
    G,
    act,
    auction,
    code,
    deal_of,
    legal_tiles,
    play,
    play_out,
    start,
    tiles_in,
    to_play,
)

# Last-trick tiles: whoever holds 6-6 (trumps are 6) takes it.
PLAIN = ["2-1", "3-1", "1-1", "5-4"]


def endgame(
    *,
    players: int = 3,
    bidder: int,
    bid: int,
    tricks: list[int],
    winner: int,
    scores: list[int] | None = None,
    leader: int = 0,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A hand with six tricks played (`tricks` per seat) and one tile each left; trumps are 6
    and `winner` holds 6-6, so it takes the last trick. Building the state by hand keeps each
    scoring case exact and short; the tiles still add up to the deck."""
    assert sum(tricks) == 6
    last = PLAIN[:players]
    last[winner] = "6-6"
    filler = [t for t in deck_for(players) if t not in last]
    widow = filler.pop() if players == 3 else None
    taken = []
    for seat in range(players):
        need = players * tricks[seat]
        taken.append(filler[:need])
        filler = filler[need:]
    assert not filler
    state = start(None, options, players=players, scores=scores)
    state.update(
        phase="play",
        bids=[bid if s == bidder else 0 for s in range(players)],
        bidder=bidder,
        bid=bid,
        trump=6,
        widow=widow,
        widow_taken=False if players == 3 else None,
        hands=[[t] for t in last],
        taken=taken,
        tricks_taken=list(tricks),
        tricks_played=6,
        trick=[],
        turn=leader,
    )
    return state


def finish(state: dict[str, Any]) -> dict[str, Any]:
    players = state["players"]
    order = [(state["turn"] + i) % players for i in range(players)]
    return play(state, *[state["hands"][s][0] for s in order])


# -- validation -----------------------------------------------------------------------------


def test_defaults():
    options = G.validate_options({})
    assert {k: options[k] for k in G.option_set.defaults()} == {
        "players": 3,
        "moon_any_time": False,
        "widow": "optional",
        "trump_instead_of_follow": False,
    }
    assert G.validate_options({"players": 4, "widow": "compulsory"})["players"] == 4


@pytest.mark.parametrize(
    ("raw", "attr"),
    [
        ({"players": 2}, "players"),
        ({"players": 5}, "players"),
        ({"players": "4"}, "players"),
        ({"players": True}, "players"),
        ({"players": 4.0}, "players"),
        ({"players": None}, "players"),
        ({"moon_any_time": "yes"}, "moon_any_time"),
        ({"moon_any_time": 1}, "moon_any_time"),
        ({"widow": "never"}, "widow"),
        ({"widow": True}, "widow"),
        ({"trump_instead_of_follow": "no"}, "trump_instead_of_follow"),
        ({"trump_instead_of_follow": None}, "trump_instead_of_follow"),
        ({"target": 100}, "target"),
        ({"preset": "sweedo"}, "preset"),
    ],
)
def test_bad_options(raw, attr):
    with pytest.raises(RuleError) as info:
        G.validate_options(raw)
    assert (info.value.code, info.value.attr) == ("invalid", attr)


# -- moon_any_time ----------------------------------------------------------------------------


def test_moon_any_time_lets_the_first_bidder_shoot():
    state = start(DEAL_A, {"moon_any_time": True})
    assert [a.get("value") for a in G.legal_actions(state, 0)] == [None, 4, 5, 6, 7, 21]
    state = auction(state, 21)
    # It still ends the auction at once.
    assert (state["phase"], state["bidder"], state["bid"], state["bids"]) == ("trump", 0, 21, [21, None, None])


def test_moon_any_time_over_a_lower_bid():
    state = auction(start(DEAL_A, {"moon_any_time": True}), 5)
    assert [a.get("value") for a in G.legal_actions(state, 1)] == [None, 6, 7, 21]
    state = auction(state, 21)
    assert (state["bidder"], state["phase"]) == (1, "trump")
    # Without the option the same bid is refused.
    assert code(auction(start(DEAL_A), 5), 1, {"type": "bid", "value": 21}) == "moon_not_allowed"


# -- widow -------------------------------------------------------------------------------------


def test_compulsory_widow_must_be_taken():
    state = act(auction(start(DEAL_A, {"widow": "compulsory"}), 5, "p", "p"), 0, {"type": "trump", "suit": 6})
    legal = G.legal_actions(state, 0)
    assert all(a["take"] is True for a in legal) and len(legal) == 8
    err = code(state, 0, {"type": "widow", "take": False})
    assert err == "widow_compulsory"
    assert code(state, 0, {"type": "widow", "take": True}) == "widow_discard_required"
    # Discarding the widow itself is allowed: taking it is what is compulsory.
    state = act(state, 0, {"type": "widow", "take": True, "discard": "0-0"})
    assert (state["widow_taken"], state["discard"], state["hands"][0]) == (True, "0-0", DEAL_A[0])


# -- trump_instead_of_follow --------------------------------------------------------------------

# Trumps 1; seat 0 (no trump) leads 3-3: seat 1 can follow with 6-3 or 5-3 and holds 1-1.
FOLLOW_DEAL = deal_of(
    "3-3 6-6 5-5 4-4 2-2 6-5 6-4",
    "6-3 5-3 1-1 6-2 5-4 5-2 4-2",
    "",
    widow="0-0",
)


def test_trump_instead_of_follow():
    state = play(to_play(FOLLOW_DEAL, (4, "p", "p"), 1, options={"trump_instead_of_follow": True}), "3-3")
    assert legal_tiles(state, 1) == ["6-3", "5-3", "1-1"]
    # A trump, yes; another suit, no.
    assert code(state, 1, {"type": "play", "tile": "6-2"}) == "must_follow_suit"
    applied = G.apply(state, 1, {"type": "play", "tile": "1-1"})
    state = applied.state
    # Seat 2 may follow three (4-3, 3-2) or trump (6-1, 5-1, 4-1, 3-1, 2-1).
    assert legal_tiles(state, 2) == state["hands"][2]
    state = play(state, "4-3")
    assert state["tricks_taken"] == [0, 1, 0]


def test_trump_instead_of_follow_does_not_free_a_trump_lead():
    options = {"trump_instead_of_follow": True}
    state = play(to_play(DEAL_A, (5, "p", "p"), 6, options=options), "6-6")
    assert legal_tiles(state, 1) == ["6-2"]
    assert code(state, 1, {"type": "play", "tile": "5-4"}) == "must_follow_suit"


def test_strict_default_refuses_a_trump_while_able_to_follow():
    state = play(to_play(FOLLOW_DEAL, (4, "p", "p"), 1), "3-3")
    assert legal_tiles(state, 1) == ["6-3", "5-3"]
    assert code(state, 1, {"type": "play", "tile": "1-1"}) == "must_follow_suit"


# -- scoring, three players --------------------------------------------------------------------


def test_bid_made_everyone_scores_their_tricks():
    state = endgame(bidder=0, bid=4, tricks=[4, 1, 1], winner=0, scores=[2, 3, 4])
    applied = G.apply(play(state, "6-6", "3-1"), 2, {"type": "play", "tile": "1-1"})
    state = applied.state
    result = G.result(state)
    assert result == {
        "round": 1,
        "dealer": 2,
        "bidder": 0,
        "bid": 4,
        "moon": False,
        "trump": 6,
        "widow_taken": False,
        "made": True,
        "tricks": [5, 1, 1],
        "points": [5, 1, 1],
        "scores": [7, 4, 5],
        "teams": None,
        "match_over": False,
        "winners": [],
        "tie": False,
    }
    assert [e.data for e in applied.events][-2:] == [
        {"type": "trick_won", "winner": 0, "trick": 7},
        {"type": "hand_scored", **result},
    ]
    assert state["phase"] == "round_over"
    view = G.view(state, None)
    assert view["last_round"] == result and view["scores"] == [7, 4, 5]
    # The result is public and names no tile: not the widow, not a discard.
    assert tiles_in(result) == set()
    assert G.carry(state) == {"round": 2, "scores": [7, 4, 5], "dealer": 0}


def test_scores_in_the_view_exclude_the_hand_until_it_is_scored():
    state = endgame(bidder=0, bid=4, tricks=[4, 1, 1], winner=0, scores=[2, 3, 4])
    assert G.view(state, 1)["scores"] == [2, 3, 4] and G.view(state, 1)["last_round"] is None
    assert G.result(state) is None


def test_set_bidder_scores_nothing_and_opponents_add_the_bid():
    state = finish(endgame(bidder=0, bid=5, tricks=[3, 2, 1], winner=1))
    result = G.result(state)
    assert result["tricks"] == [3, 3, 1]
    assert (result["made"], result["points"]) == (False, [0, 8, 6])


def test_moon_failed_loses_21_and_scores_may_go_negative():
    state = finish(endgame(bidder=1, bid=21, tricks=[1, 5, 0], winner=1, scores=[3, 5, 2]))
    result = G.result(state)
    assert result["tricks"] == [1, 6, 0]
    assert (result["moon"], result["made"]) == (True, False)
    # Opponents: their tricks plus 7.
    assert result["points"] == [8, -21, 7]
    assert result["scores"] == [11, -16, 9]
    assert state["phase"] == "round_over"


def test_moon_made_scores_21_and_wins_the_match_at_once():
    # Even from below zero, with others closer to 21.
    state = finish(endgame(bidder=2, bid=21, tricks=[0, 0, 6], winner=2, scores=[20, 19, -5]))
    result = G.result(state)
    assert result["points"] == [0, 0, 21] and result["scores"] == [20, 19, 16]
    assert (result["match_over"], result["winners"]) == (True, [2])
    assert state["phase"] == "match_over" and G.to_act(state) == []
    assert G.legal_actions(state, 2) == []
    assert code(state, 2, {"type": "next_round"}) == "not_your_turn"


def test_moon_played_out_from_the_auction():
    state = auction(start(DEAL_A, dealer=1), 7, 21)
    assert (state["bidder"], state["bid"]) == (0, 21)
    state = act(state, 0, {"type": "trump", "suit": 6})
    state = act(state, 0, {"type": "widow", "take": False})
    while state["phase"] == "play":
        seat = G.to_act(state)[0]
        applied = G.apply(state, seat, G.legal_actions(state, seat)[0])
        state = applied.state
    result = G.result(state)
    assert (result["tricks"], result["points"], result["winners"]) == ([7, 0, 0], [21, 0, 0], [0])
    assert [e.data for e in applied.events][-1] == {"type": "match_over", "winners": [0], "scores": [21, 0, 0]}


@pytest.mark.parametrize(
    ("scores", "bidder", "bid", "tricks", "winner", "totals", "winners"),
    [
        # Everyone reaches 21 in the same hand: the bidder wins.
        ([17, 19, 20], 0, 4, [3, 2, 1], 0, [21, 21, 21], [0]),
        # The bidder reaches 21 too, though not the highest: the bidder wins.
        ([10, 22, 26], 1, 4, [2, 3, 1], 1, [12, 26, 27], [1]),
        # The bidder is set; of the others past 21 the highest wins.
        ([10, 19, 18], 0, 5, [4, 2, 0], 2, [10, 26, 24], [1]),
        # One opponent reaches 21 alone on a made bid.
        ([0, 20, 0], 0, 4, [4, 1, 1], 0, [5, 21, 1], [1]),
        # Nobody reaches 21.
        ([0, 0, 0], 0, 4, [4, 1, 1], 0, [5, 1, 1], []),
    ],
)
def test_end_of_match(scores, bidder, bid, tricks, winner, totals, winners):
    state = finish(endgame(bidder=bidder, bid=bid, tricks=tricks, winner=winner, scores=scores))
    result = G.result(state)
    assert result["scores"] == totals
    assert result["winners"] == winners and result["match_over"] == bool(winners) and result["tie"] is False
    assert state["phase"] == ("match_over" if winners else "round_over")


def test_exact_tie_past_21_plays_another_hand():
    state = finish(endgame(bidder=0, bid=5, tricks=[4, 2, 0], winner=2, scores=[10, 19, 20]))
    result = G.result(state)
    assert result["scores"] == [10, 26, 26]
    assert (result["match_over"], result["winners"], result["tie"]) == (False, [], True)
    assert state["phase"] == "round_over"
    carry = G.carry(state)
    assert carry["scores"] == [10, 26, 26]
    # The next hand decides: its bidder, past 21 already, makes the bid.
    state = finish(endgame(bidder=2, bid=4, tricks=[2, 1, 3], winner=2, scores=carry["scores"]))
    assert G.result(state)["winners"] == [2] and state["phase"] == "match_over"


# -- four players: partnerships -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("bidder", "bid", "tricks", "winner", "points"),
    [
        # Made: each side scores its tricks; partners show the same.
        (0, 4, [2, 1, 1, 2], 2, [4, 3, 4, 3]),
        # Set: the bidder's side nothing, the other side its tricks plus the bid.
        (1, 5, [2, 1, 2, 1], 3, [9, 0, 9, 0]),
        # A failed moon: -21 for the bidder's side, tricks + 7 for the other.
        (3, 21, [1, 2, 0, 3], 3, [8, -21, 8, -21]),
    ],
)
def test_partnership_scoring(bidder, bid, tricks, winner, points):
    state = finish(endgame(players=4, bidder=bidder, bid=bid, tricks=tricks, winner=winner, scores=[1, 2, 1, 2]))
    result = G.result(state)
    assert result["points"] == points
    assert result["teams"] == [[0, 2], [1, 3]]
    assert result["scores"] == [p + s for p, s in zip(points, [1, 2, 1, 2], strict=True)]
    view = G.view(state, 0)
    assert view["scores"][0] == view["scores"][2] and view["scores"][1] == view["scores"][3]


def test_partnership_moon_counts_the_partners_tricks():
    state = finish(endgame(players=4, bidder=0, bid=21, tricks=[4, 0, 2, 0], winner=2))
    result = G.result(state)
    assert result["tricks"] == [4, 0, 3, 0]
    assert (result["made"], result["points"], result["winners"]) == (True, [21, 0, 21, 0], [0, 2])
    assert state["phase"] == "match_over"


def test_partnership_moon_played_out():
    state = auction(start(DEAL_4, dealer=2), 7, 21)
    assert (state["bidder"], state["phase"]) == (0, "trump")
    state = play_out(act(state, 0, {"type": "trump", "suit": 6}))
    result = G.result(state)
    assert result["tricks"] == [7, 0, 0, 0] and result["winners"] == [0, 2]
    assert result["widow_taken"] is None


@pytest.mark.parametrize(
    ("bidder", "scores", "totals", "winners"),
    [
        # Both sides reach 21: the bidder's side wins.
        (1, [18, 19, 18, 19], [21, 23, 21, 23], [1, 3]),
        # The bidders are set; the other side reaches 21 and wins.
        (0, [20, 19, 20, 19], [20, 27, 20, 27], [1, 3]),
    ],
)
def test_partnership_end_of_match(bidder, scores, totals, winners):
    state = finish(endgame(players=4, bidder=bidder, bid=4, tricks=[2, 2, 1, 1], winner=3, scores=scores))
    result = G.result(state)
    assert result["tricks"] == [2, 2, 1, 2]
    assert (result["scores"], result["winners"]) == (totals, winners)
    assert state["phase"] == "match_over"


def test_four_player_hand_flow_and_carry():
    state = to_play(DEAL_4, (4, "p", "p", "p"), 6, dealer=3)
    assert state["widow"] is None
    state = play_out(state)
    assert G.result(state)["points"] == [7, 0, 7, 0]
    for seat in range(4):
        state = act(state, seat, {"type": "next_round"})
    assert state["phase"] == "complete"
    assert G.carry(state) == {"round": 2, "scores": [7, 0, 7, 0], "dealer": 0}
    nxt = G.new_round(options={"players": 4}, players=4, seed=9, carry=G.carry(state))
    assert (nxt["round"], nxt["dealer"], nxt["scores"], G.to_act(nxt)) == (2, 0, [7, 0, 7, 0], [1])
