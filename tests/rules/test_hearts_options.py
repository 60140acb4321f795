"""Hearts options and presets: validation, scoring variants, the moon, the end of a match."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.rules.cards import deck
from games.rules.errors import RuleError
from games.rules.hearts.points import card_points

from .test_hearts_rules import SUITS_DEAL, G, act, code, error, play, play_out, start

HEARTS = [r + "H" for r in "23456789TJQKA"]


def endgame(
    options: dict[str, Any] | None,
    *,
    took: dict[int, list[str]],
    tricks: list[int],
    last: list[str],
    scores: list[int] | None = None,
) -> dict[str, Any]:
    """A hand with twelve tricks played and `last` (one card per seat) still to come.

    `took` names cards each seat has taken; the piles are topped up with point-free cards
    to four per trick. Seat 0 leads `last[0]`. Building the state by hand keeps each
    scoring case exact and short.
    """
    assert sum(tricks) == 12
    named = [c for pile in took.values() for c in pile] + last
    assert len(named) == len(set(named))
    filler = [c for c in deck() if c not in set(named)]
    assert not [c for c in filler if c[1] == "H" or c in ("QS", "JD")], "name every point card"
    taken: list[list[str]] = []
    for seat in range(4):
        pile = list(took.get(seat, []))
        need = 4 * tricks[seat] - len(pile)
        assert need >= 0
        pile += filler[:need]
        filler = filler[need:]
        taken.append(pile)
    assert not filler
    state = start(options=options, scores=scores)
    jack = state["options"]["jack_of_diamonds"]
    state.update(
        hands=[[c] for c in last],
        taken=taken,
        tricks_taken=list(tricks),
        points_taken=[sum(card_points(c, jack) for c in pile) for pile in taken],
        tricks_played=12,
        hearts_broken=True,
        trick=[],
        turn=0,
    )
    assert sorted(c for h in state["hands"] + state["taken"] for c in h) == sorted(deck())
    return state


def finish(state: dict[str, Any]) -> dict[str, Any]:
    return play(state, *[state["hands"][s][0] for s in range(4)])


# -- validation -----------------------------------------------------------------------------


def test_defaults_and_presets():
    defaults = G.validate_options({})
    assert {k: defaults[k] for k in ("fourth_hand", "moon", "target", "end_when", "jack_of_diamonds")} == {
        "fourth_hand": "hold",
        "moon": "others_plus_26",
        "target": 100,
        "end_when": "reached",
        "jack_of_diamonds": 0,
    }
    sweedo = G.validate_options({"preset": "sweedo"})
    assert sweedo["preset"] == "sweedo"
    assert {k: sweedo[k] for k in G.option_set.defaults()} == {
        "fourth_hand": "hold",
        "lead_any_club": False,
        "queen_breaks_hearts": True,
        "moon": "sweedo",
        "jack_of_diamonds": -10,
        "no_trick_bonus": -5,
        "target": 100,
        "end_when": "exceeded",
    }
    assert G.validate_options({"preset": "sweedo", "fourth_hand": "funky"})["fourth_hand"] == "funky"
    assert G.validate_options({"preset": "short"})["target"] == 50
    assert G.validate_options({"preset": "sweedo_short"})["target"] == 70


@pytest.mark.parametrize(
    ("raw", "attr"),
    [
        ({"fourth_hand": "left"}, "fourth_hand"),
        ({"lead_any_club": "yes"}, "lead_any_club"),
        ({"queen_breaks_hearts": 1}, "queen_breaks_hearts"),
        ({"moon": "sideways"}, "moon"),
        ({"jack_of_diamonds": 5}, "jack_of_diamonds"),
        ({"jack_of_diamonds": -21}, "jack_of_diamonds"),
        ({"jack_of_diamonds": True}, "jack_of_diamonds"),
        ({"no_trick_bonus": 1}, "no_trick_bonus"),
        ({"no_trick_bonus": "-5"}, "no_trick_bonus"),
        ({"target": 19}, "target"),
        ({"target": 501}, "target"),
        ({"target": 100.0}, "target"),
        ({"end_when": "never"}, "end_when"),
        ({"players": 5}, "players"),
        ({"preset": "nope"}, "preset"),
    ],
)
def test_bad_options(raw, attr):
    with pytest.raises(RuleError) as info:
        G.validate_options(raw)
    assert (info.value.code, info.value.attr) == ("invalid", attr)


def test_option_limits_are_accepted():
    for raw in ({"target": 20}, {"target": 500}, {"jack_of_diamonds": -20}, {"no_trick_bonus": 0}):
        G.validate_options(raw)


# -- scoring -------------------------------------------------------------------------------


def test_hand_points_and_result():
    state = endgame(
        None,
        took={0: ["QS", "2H"], 1: HEARTS[1:9], 2: ["JD"]},
        tricks=[3, 4, 5, 0],
        last=["JH", "QH", "KH", "AH"],
    )
    state = play(state, "JH", "QH", "KH")
    applied = G.apply(state, 3, {"type": "play", "card": "AH"})
    state = applied.state
    assert state["phase"] == "round_over"
    result = G.result(state)
    assert result == {
        "round": 4,
        "points": [14, 8, 0, 4],
        "scores": [14, 8, 0, 4],
        "tricks": [3, 4, 5, 1],
        "moon": None,
        "no_trick": [],
        "match_over": False,
        "winners": [],
    }
    scored = [e.data for e in applied.events if e.data["type"] == "hand_scored"]
    assert scored == [{"type": "hand_scored", **result}]
    assert {"type": "trick_won", "winner": 3, "points": 4, "trick": 13} in [e.data for e in applied.events]
    assert all(e.visible_to is None for e in applied.events)
    view = G.view(state, None)
    assert view["last_round"] == result and view["scores"] == [14, 8, 0, 4]
    assert view["last_trick"] == {
        "cards": [
            {"seat": 0, "card": "JH"},
            {"seat": 1, "card": "QH"},
            {"seat": 2, "card": "KH"},
            {"seat": 3, "card": "AH"},
        ],
        "winner": 3,
    }
    assert G.to_act(state) == [0, 1, 2, 3]
    assert G.legal_actions(state, 2) == [{"type": "next_round"}]


def test_scores_in_the_view_exclude_the_hand_until_it_is_scored():
    state = endgame(
        None,
        took={0: ["QS", *HEARTS[:9]], 1: ["JD"]},
        tricks=[11, 1, 0, 0],
        last=["JH", "QH", "KH", "AH"],
        scores=[5, 6, 7, 8],
    )
    assert G.view(state, 0)["scores"] == [5, 6, 7, 8]
    assert G.view(state, 0)["seats"][0]["points_taken"] == 22
    state = finish(state)
    assert G.view(state, 0)["scores"] == [27, 6, 7, 12]


def test_jack_of_diamonds_and_no_trick_bonus():
    options = {"jack_of_diamonds": -10, "no_trick_bonus": -5}
    state = endgame(
        options,
        took={0: ["QS", *HEARTS[:9]], 1: ["JD"]},
        tricks=[9, 3, 0, 0],
        last=["JH", "QH", "KH", "AH"],
    )
    state = finish(state)
    result = G.result(state)
    # Seat 3 took the last trick: only seat 2 took none.
    assert result["points"] == [22, -10, -5, 4]
    assert result["no_trick"] == [2]
    assert G.view(state, None)["seats"][1]["points_taken"] == -10


def test_no_trick_bonus_list_is_empty_when_the_bonus_is_zero():
    took = {0: ["QS", "JD", *HEARTS[:9]]}
    state = finish(endgame(None, took=took, tricks=[12, 0, 0, 0], last=["JH", "QH", "KH", "AH"]))
    result = G.result(state)
    assert result["no_trick"] == [] and result["points"] == [22, 0, 0, 4]


def _moon_hand(options: dict[str, Any] | None) -> dict[str, Any]:
    """Seat 0 holds every club and wins every trick: all hearts, Q♠ and J♦."""
    state = play_out(start(SUITS_DEAL, options))
    assert state["tricks_taken"] == [13, 0, 0, 0]
    return state


def test_moon_others_plus_26():
    state = _moon_hand(None)
    result = G.result(state)
    assert result["points"] == [0, 26, 26, 26]
    assert result["moon"] == {"shooter": 0, "choice": "plus_others"}
    assert state["phase"] == "round_over"


def test_moon_with_a_jack_value_keeps_the_jack_with_its_taker():
    result = G.result(_moon_hand({"jack_of_diamonds": -10, "no_trick_bonus": -5}))
    assert result["points"] == [-10, 26, 26, 26]
    assert result["no_trick"] == []


@pytest.mark.parametrize(
    ("options", "choice", "points"),
    [
        ({"moon": "shooter_choice"}, "minus_self", [-26, 0, 0, 0]),
        ({"moon": "shooter_choice"}, "plus_others", [0, 26, 26, 26]),
        ({"preset": "sweedo"}, "minus_self", [-36, 0, 0, 0]),
        ({"preset": "sweedo"}, "plus_others", [-10, 26, 26, 26]),
    ],
)
def test_moon_choices(options, choice, points):
    state = _moon_hand(options)
    assert state["phase"] == "moon_choice"
    assert G.result(state) is None
    assert G.to_act(state) == [0]
    assert G.legal_actions(state, 0) == [
        {"type": "moon_choice", "choice": "minus_self"},
        {"type": "moon_choice", "choice": "plus_others"},
    ]
    assert [G.legal_actions(state, s) for s in (1, 2, 3)] == [[], [], []]
    assert G.view(state, 2)["moon_shooter"] == 0
    for bad in ("minus_everyone", None, 3, ["minus_self"], {"choice": "minus_self"}):
        err = error(state, 0, {"type": "moon_choice", "choice": bad})
        assert (err.code, err.attr) == ("invalid", "choice")
    assert code(state, 1, {"type": "moon_choice", "choice": choice}) == "not_your_turn"
    assert code(state, 0, {"type": "play", "card": "2C"}) == "wrong_phase"
    assert code(state, 0, {"type": "next_round"}) == "wrong_phase"
    applied = G.apply(state, 0, {"type": "moon_choice", "choice": choice})
    result = G.result(applied.state)
    assert result["points"] == points
    assert result["moon"] == {"shooter": 0, "choice": choice}
    assert result["no_trick"] == []  # no bonus in a moon hand, though three took no trick
    assert [e.data["type"] for e in applied.events] == ["moon_chosen", "hand_scored"]
    assert applied.state["phase"] == "round_over"


def test_sweedo_moon_needs_the_jack():
    state = endgame(
        {"preset": "sweedo"},
        took={0: ["QS", *HEARTS[:9]], 1: ["JD"]},
        tricks=[11, 1, 0, 0],
        last=["AH", "JH", "QH", "KH"],
    )
    state = finish(state)
    assert state["phase"] == "round_over"
    result = G.result(state)
    assert result["moon"] is None
    assert result["points"] == [26, -10, -5, -5]
    assert result["no_trick"] == [2, 3]


def test_standard_moon_does_not_need_the_jack():
    took = {0: ["QS", *HEARTS[:9]], 1: ["JD"]}
    state = endgame(None, took=took, tricks=[11, 1, 0, 0], last=["AH", "JH", "QH", "KH"])
    result = G.result(finish(state))
    assert result["moon"] == {"shooter": 0, "choice": "plus_others"}
    assert result["points"] == [0, 26, 26, 26]


def test_no_moon_when_one_heart_is_missing():
    state = endgame(
        {"moon": "shooter_choice"},
        took={0: ["QS", "JD", *HEARTS[:9]]},
        tricks=[12, 0, 0, 0],
        last=["JH", "AH", "QH", "KH"],
    )
    # Seat 1 wins the last trick with AH and takes four hearts.
    state = finish(state)
    assert state["phase"] == "round_over"
    assert G.result(state)["points"] == [22, 4, 0, 0]


# -- the end of the match -------------------------------------------------------------------


def test_reached_ends_the_match_at_exactly_the_target():
    state = _points_last_trick({"target": 100}, scores=[10, 20, 30, 99])
    result = G.result(state)
    assert result["scores"][3] == 100
    assert result["match_over"] is True and state["phase"] == "match_over"
    assert G.to_act(state) == []
    assert all(G.legal_actions(state, s) == [] for s in range(4))
    assert code(state, 0, {"type": "next_round"}) == "not_your_turn"


def test_exceeded_does_not_end_the_match_at_exactly_the_target():
    state = _points_last_trick({"target": 100, "end_when": "exceeded"}, scores=[10, 20, 30, 99])
    assert G.result(state)["scores"][3] == 100
    assert G.result(state)["match_over"] is False and state["phase"] == "round_over"
    state = _points_last_trick({"target": 100, "end_when": "exceeded"}, scores=[10, 20, 30, 100])
    assert G.result(state)["match_over"] is True and state["phase"] == "match_over"


def test_lowest_total_wins_and_ties_share_the_win():
    state = _points_last_trick(None, scores=[60, 35, 35, 99])
    result = G.result(state)
    assert result["match_over"] is True
    assert result["scores"] == [60 + 25, 35, 35, 100]
    assert result["winners"] == [1, 2]
    events = [e.data for e in G.apply(_before_last(None, [60, 35, 35, 99]), 3, _last_play()).events]
    assert {"type": "match_over", "winners": [1, 2], "scores": [85, 35, 35, 100]} in events
    state = _points_last_trick(None, scores=[60, 30, 35, 99])
    assert G.result(state)["winners"] == [1]


def _before_last(options: dict[str, Any] | None, scores: list[int]) -> dict[str, Any]:
    """Seat 0 has taken 25 points; seat 3 is about to take the last trick and AH with it."""
    state = endgame(
        options,
        took={0: ["QS", "JD", *HEARTS[:12]]},
        tricks=[12, 0, 0, 0],
        last=["2C", "3C", "AH", "4C"],
        scores=scores,
    )
    return play(state, "2C", "3C", "AH")


def _last_play() -> dict[str, Any]:
    return {"type": "play", "card": "4C"}


def _points_last_trick(options: dict[str, Any] | None, scores: list[int]) -> dict[str, Any]:
    return act(_before_last(options, scores), 3, _last_play())


def test_round_over_next_round_and_carry():
    state = _points_last_trick(None, scores=[0, 0, 0, 0])
    assert state["phase"] == "round_over"
    assert G.result(state)["points"] == [25, 0, 0, 1]
    assert code(state, 0, {"type": "play", "card": "2C"}) == "wrong_phase"
    for seat in (2, 0, 3):
        state = act(state, seat, {"type": "next_round"})
        assert state["phase"] == "round_over"
    assert G.to_act(state) == [1]
    assert [s["ready"] for s in G.view(state, None)["seats"]] == [True, False, True, True]
    assert code(state, 2, {"type": "next_round"}) == "not_your_turn"
    state = act(state, 1, {"type": "next_round"})
    assert state["phase"] == "complete" and G.is_complete(state)
    assert G.to_act(state) == []
    carry = G.carry(state)
    assert carry == {"round": 5, "scores": [25, 0, 0, 1], "dealer": 1}
    assert json.loads(json.dumps(carry)) == carry
    nxt = G.new_round(options={}, players=4, seed=5, carry=carry)
    assert (nxt["round"], nxt["scores"], nxt["dealer"], nxt["pass_direction"]) == (
        5,
        [25, 0, 0, 1],
        1,
        "left",
    )
    view = G.view(nxt, 0)
    assert view["scores"] == [25, 0, 0, 1] and view["last_round"] is None
