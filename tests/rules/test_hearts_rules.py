"""Hearts rules on fixed deals: passing, leading, following, breaking hearts, errors, views.

The helpers at the top are shared by the other Hearts test modules.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import rules
from games.rules.base import Event
from games.rules.cards import deck, sorted_hand
from games.rules.errors import RuleError
from tests.rules.support import refused, top_up

G = rules.get("hearts")
CARD_RE = re.compile(r'"([2-9TJQKA][CDHS])"')


# -- shared helpers ---------------------------------------------------------------------


def deal_of(*hands: str) -> list[list[str]]:
    """Four hands from space-separated codes; hands shorter than 13 are topped up with the
    cards nobody was given, in deck order (clubs, diamonds, hearts, spades; low first)."""
    assert len(hands) == 4
    fixed = [h.split() for h in hands]
    used = [c for h in fixed for c in h]
    assert len(used) == len(set(used)), "a card is dealt twice"
    out, _ = top_up(fixed, deck(), 13)
    assert sorted(c for h in out for c in h) == sorted(deck())
    return out


def start(
    deal: list[list[str]] | None = None,
    options: dict[str, Any] | None = None,
    *,
    hand: int = 4,
    scores: list[int] | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """A hand with the given deal; hand 4 holds by default, so play starts at once."""
    carry = {"round": hand, "scores": scores or [0, 0, 0, 0], "dealer": 0}
    return G.new_round(options=options or {}, players=4, seed=seed, carry=carry, deal=deal)


def act(state: dict[str, Any], seat: int, action: dict[str, Any]) -> dict[str, Any]:
    return G.apply(state, seat, action).state


def events_of(state: dict[str, Any], seat: int, action: dict[str, Any]) -> list[Event]:
    return G.apply(state, seat, action).events


def play(state: dict[str, Any], *cards: str) -> dict[str, Any]:
    """Play the cards in turn order, each by whoever is to act."""
    for card in cards:
        (seat,) = G.to_act(state)
        state = act(state, seat, {"type": "play", "card": card})
    return state


def error(state: dict[str, Any], seat: Any, action: Any) -> RuleError:
    return refused(G, state, seat, action)


def code(state: dict[str, Any], seat: Any, action: Any) -> str:
    return error(state, seat, action).code


def legal_cards(state: dict[str, Any], seat: int) -> list[str]:
    return [a["card"] for a in G.legal_actions(state, seat) if a["type"] == "play"]


def play_first(state: dict[str, Any], count: int) -> dict[str, Any]:
    """`count` plays, each the first legal card of whoever is to act."""
    for _ in range(count):
        (seat,) = G.to_act(state)
        state = act(state, seat, G.legal_actions(state, seat)[0])
    return state


def play_out(state: dict[str, Any]) -> dict[str, Any]:
    """Finish the play phase, each player playing their first legal card."""
    while state["phase"] == "play":
        (seat,) = G.to_act(state)
        state = act(state, seat, G.legal_actions(state, seat)[0])
    return state


def cards_in(obj: Any) -> set[str]:
    return set(CARD_RE.findall(json.dumps(obj)))


def pass_all(state: dict[str, Any], chosen: dict[int, Any]) -> dict[str, Any]:
    for seat, picked in chosen.items():
        action = (
            {"type": "pass_cards", "to": picked}
            if isinstance(picked, dict)
            else {"type": "pass_cards", "cards": picked}
        )
        state = act(state, seat, action)
    return state


# Seat 0 every club, 1 every diamond, 2 every heart, 3 every spade: seat 0 leads 2C and,
# nobody else ever holding a club, wins every trick.
SUITS_DEAL = deal_of(
    " ".join(r + "C" for r in "23456789TJQKA"),
    " ".join(r + "D" for r in "23456789TJQKA"),
    " ".join(r + "H" for r in "23456789TJQKA"),
    " ".join(r + "S" for r in "23456789TJQKA"),
)

# Seat 1 wins trick 1 with AC; seat 3 (void in diamonds) can discard QS on trick 2.
DEAL_B = deal_of(
    "2C 4C 5C 6C 7C 8C 9C TC JC QC KC AS 9H",
    "AC 2D 3D 4D 5D 6D 2H 3H 4H 5H 6H 7H 8H",
    "7D 8D 9D TD JD QD KD AD TH JH QH KH AH",
    "3C QS 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS",
)


# -- set-up ---------------------------------------------------------------------------


def test_catalogue_entry():
    entry = G.catalogue()
    assert (entry["key"], entry["name"], entry["players"]) == ("hearts", "Hearts", {"min": 4, "max": 4})
    options = entry["options"]
    expected = {
        "fourth_hand": "hold",
        "lead_any_club": False,
        "queen_breaks_hearts": False,
        "moon": "others_plus_26",
        "jack_of_diamonds": 0,
        "no_trick_bonus": 0,
        "target": 100,
        "end_when": "reached",
    }
    for name, default in expected.items():
        assert options[name]["default"] == default, name
    assert options["moon"]["choices"] == ["others_plus_26", "shooter_choice", "sweedo"]
    assert (options["target"]["minimum"], options["target"]["maximum"]) == (20, 500)
    assert (options["jack_of_diamonds"]["minimum"], options["jack_of_diamonds"]["maximum"]) == (-20, 0)
    assert {"sweedo", "short"} <= set(entry["presets"])
    assert "turn_seconds" in options
    assert G.seat_count({}) == 4
    assert rules.get("hearts") is G


def test_new_round_is_a_json_state_from_the_seed():
    a = G.new_round(options={}, players=4, seed=42, carry=None)
    b = G.new_round(options={}, players=4, seed=42, carry=None)
    c = G.new_round(options={}, players=4, seed=43, carry=None)
    assert a == b and a["hands"] != c["hands"]
    assert json.loads(json.dumps(a)) == a
    assert sorted(c for h in a["hands"] for c in h) == sorted(deck())
    assert all(len(h) == 13 for h in a["hands"])
    assert (a["players"], a["phase"], a["ready"], a["round"], a["dealer"]) == (4, "pass", [], 1, 0)
    assert a["pass_direction"] == "left"
    assert sorted(G.to_act(a)) == [0, 1, 2, 3]


def test_deal_overrides_the_shuffle_and_is_checked():
    state = start(DEAL_B, hand=1)
    assert state["hands"][0] == ["2C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "9H", "AS"]
    for bad in ([["2C"]] * 4, "nope", [DEAL_B[0]] * 4, [*DEAL_B[:3], [*DEAL_B[3][:12], "ZZ"]]):
        with pytest.raises(RuleError) as info:
            start(bad)
        assert info.value.code == "invalid"
    with pytest.raises(RuleError):
        G.new_round(options={}, players=3, seed=1, carry=None)


def test_new_round_takes_a_rooms_full_options_and_presets():
    room_options = G.validate_options({"preset": "sweedo", "target": 70})
    state = G.new_round(options=room_options, players=4, seed=1, carry=None)
    assert state["options"]["target"] == 70 and state["options"]["moon"] == "sweedo"
    assert "turn_seconds" not in state["options"]
    assert start(options={"preset": "short"})["options"]["target"] == 50


# -- passing --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "direction", "offset"),
    [(1, "left", 1), (2, "right", 3), (3, "across", 2), (5, "left", 1), (6, "right", 3), (7, "across", 2)],
)
def test_pass_directions(hand, direction, offset):
    state = start(DEAL_B, hand=hand)
    assert state["phase"] == "pass" and state["pass_direction"] == direction
    chosen = {s: state["hands"][s][-3:] for s in range(4)}
    state = pass_all(state, chosen)
    for giver in range(4):
        receiver = (giver + offset) % 4
        assert set(chosen[giver]) <= set(state["hands"][receiver])
        assert not set(chosen[giver]) & set(state["hands"][giver])
        assert G.view(state, receiver)["you"]["received"] == {
            "from": giver,
            "cards": sorted_hand(chosen[giver]),
        }
    assert all(len(h) == 13 for h in state["hands"])
    assert state["phase"] == "play"
    assert G.to_act(state) == [next(s for s in range(4) if "2C" in state["hands"][s])]


@pytest.mark.parametrize("hand", [4, 8])
def test_every_fourth_hand_holds(hand):
    state = start(DEAL_B, hand=hand)
    assert state["pass_direction"] == "hold" and state["phase"] == "play"
    assert G.to_act(state) == [0]
    assert G.view(state, 0)["pass_direction"] == "hold"
    assert state["hands"] == [sorted_hand(h) for h in DEAL_B]


def test_pass_is_simultaneous_and_final():
    state = start(DEAL_B, hand=1)
    original = copy.deepcopy(state["hands"])
    state = act(state, 0, {"type": "pass_cards", "cards": ["AS", "9H", "KC"]})
    assert sorted(G.to_act(state)) == [1, 2, 3]
    assert G.legal_actions(state, 0) == []
    # A second pass from the same seat is refused: the first is final.
    assert code(state, 0, {"type": "pass_cards", "cards": ["2C", "4C", "5C"]}) == "not_your_turn"
    state = act(state, 1, {"type": "pass_cards", "cards": ["8H", "7H", "6H"]})
    state = act(state, 2, {"type": "pass_cards", "cards": ["AH", "KH", "QH"]})
    # Three have chosen: nothing has moved yet, and nobody sees what is coming.
    assert state["hands"] == original
    assert G.to_act(state) == [3]
    for seat in range(4):
        you = G.view(state, seat)["you"]
        assert you["hand"] == original[seat]
        assert you["received"] is None
    assert G.view(state, 0)["you"]["pass_chosen"] == ["KC", "9H", "AS"]
    assert G.view(state, 3)["you"]["pass_chosen"] is None
    assert [s["passed"] for s in G.view(state, None)["seats"]] == [True, True, True, False]
    applied = G.apply(state, 3, {"type": "pass_cards", "cards": ["QS", "KS", "JS"]})
    state = applied.state
    assert state["phase"] == "play"
    assert "AS" in state["hands"][1] and "QS" in state["hands"][0] and "AH" in state["hands"][3]
    moved = [e for e in applied.events if e.data["type"] == "cards_passed"]
    assert {(e.data["from"], e.data["to"]) for e in moved} == {(0, 1), (1, 2), (2, 3), (3, 0)}
    assert all(sorted(e.visible_to) == sorted([e.data["from"], e.data["to"]]) for e in moved)
    assert G.view(state, 0)["you"]["received"] == {"from": 3, "cards": ["JS", "QS", "KS"]}


def test_pass_events_keep_cards_private():
    state = start(DEAL_B, hand=1)
    events = events_of(state, 0, {"type": "pass_cards", "cards": ["AS", "9H", "KC"]})
    public = [e for e in events if e.visible_to is None]
    private = [e for e in events if e.visible_to is not None]
    assert [e.data for e in public] == [{"type": "passed", "seat": 0}]
    assert [(e.data["type"], e.visible_to, sorted(e.data["cards"])) for e in private] == [
        ("pass_chosen", [0], ["9H", "AS", "KC"])
    ]
    assert all(cards_in(e.data) == set() for e in public)


def test_pass_errors():
    state = start(DEAL_B, hand=1)
    hand = state["hands"][0]
    cases = [
        ({"type": "pass_cards", "cards": hand[:2]}, "wrong_count"),
        ({"type": "pass_cards", "cards": hand[:4]}, "wrong_count"),
        ({"type": "pass_cards", "cards": []}, "wrong_count"),
        ({"type": "pass_cards", "cards": [hand[0], hand[0], hand[1]]}, "bad_pass"),
        ({"type": "pass_cards", "cards": ["AC", hand[0], hand[1]]}, "card_not_in_hand"),
        ({"type": "pass_cards", "cards": "QS AH KH"}, "bad_pass"),
        ({"type": "pass_cards", "cards": [1, 2, 3]}, "bad_pass"),
        ({"type": "pass_cards", "cards": [["2C"], {"c": "4C"}, None]}, "bad_pass"),
        ({"type": "pass_cards", "cards": ["ZZ", "2C", "4C"]}, "bad_pass"),
        ({"type": "pass_cards", "cards": {"0": "2C"}}, "bad_pass"),
        ({"type": "pass_cards"}, "bad_pass"),
        ({"type": "pass_cards", "to": {"1": "2C", "2": "4C", "3": "5C"}}, "bad_pass"),
        ({"type": "pass_cards", "cards": ["2C", "4C", "5C"], "to": [1, 2, 3]}, "bad_pass"),
        ({"type": "pass_cards", "cards": ["2C", "4C", "5C"], "to": {"1": "2C", "2": "4C", "3": "5C"}}, "bad_pass"),
        ({"type": "play", "card": "2C"}, "wrong_phase"),
        ({"type": "moon_choice", "choice": "minus_self"}, "wrong_phase"),
        ({"type": "next_round"}, "wrong_phase"),
        ({"type": "fly"}, "unknown_action"),
        ({"card": "2C"}, "unknown_action"),
        ({"type": 5}, "unknown_action"),
        ({"type": None}, "unknown_action"),
        ("pass_cards", "unknown_action"),
        (None, "unknown_action"),
        ([{"type": "pass_cards"}], "unknown_action"),
    ]
    for action, expected in cases:
        assert code(state, 0, action) == expected, action
    # A standard pass names no seats: `to` is refused, at `cards` as it always was.
    for to in ([1, 2, 3], {"1": "2C", "2": "4C", "3": "5C"}, None):
        err = error(state, 0, {"type": "pass_cards", "cards": ["2C", "4C", "5C"], "to": to})
        assert (err.code, err.attr) == ("bad_pass", "cards"), to


def test_funky_pass_gives_one_card_to_each_other_seat():
    state = start(DEAL_B, {"fourth_hand": "funky"}, hand=4)
    assert state["phase"] == "pass" and state["pass_direction"] == "funky"
    assert G.legal_actions(state, 2) == [
        {"type": "pass_cards", "count": 3, "choices": state["hands"][2], "to": [0, 1, 3]}
    ]
    chosen = {
        0: {"1": "AS", "2": "9H", "3": "KC"},
        1: {"0": "8H", "2": "AC", "3": "2D"},
        2: {"0": "AH", "1": "KH", "3": "7D"},
        3: {"0": "QS", "1": "KS", "2": "3C"},
    }
    state = pass_all(state, chosen)
    assert state["phase"] == "play"
    for picks in chosen.values():
        for receiver, card in picks.items():
            assert card in state["hands"][int(receiver)]
    assert G.view(state, 0)["you"]["received"] == [
        {"from": 1, "cards": ["8H"]},
        {"from": 2, "cards": ["AH"]},
        {"from": 3, "cards": ["QS"]},
    ]
    assert G.view(state, 0)["you"]["pass_chosen"] == {"1": "AS", "2": "9H", "3": "KC"}
    assert G.view(state, None)["pass_direction"] == "funky"
    assert G.to_act(state) == [0]


def test_funky_pass_hand_rotation():
    directions = [start(options={"fourth_hand": "funky"}, hand=n)["pass_direction"] for n in range(1, 10)]
    assert directions == ["left", "right", "across", "funky", "left", "right", "across", "funky", "left"]


def test_funky_pass_errors():
    state = start(DEAL_B, {"fourth_hand": "funky"}, hand=4)
    cases = [
        ({"type": "pass_cards", "cards": ["2C", "4C", "5C"]}, "bad_pass"),
        ({"type": "pass_cards", "to": ["2C", "4C", "5C"]}, "bad_pass"),
        ({"type": "pass_cards", "to": "2C"}, "bad_pass"),
        ({"type": "pass_cards", "to": {"0": "2C", "1": "4C", "2": "5C"}}, "bad_pass"),
        ({"type": "pass_cards", "to": {"1": "2C", "2": "4C", "5": "5C"}}, "bad_pass"),
        ({"type": "pass_cards", "to": {"1": "2C", "2": "4C", "3": "5C", "0": "6C"}}, "bad_pass"),
        ({"type": "pass_cards", "to": {"1": "2C", "2": "2C", "3": "5C"}}, "bad_pass"),
        ({"type": "pass_cards", "to": {"1": "2C", "2": ["4C"], "3": "5C"}}, "bad_pass"),
        ({"type": "pass_cards", "to": {"1": "2C", "2": 4, "3": "5C"}}, "bad_pass"),
        ({"type": "pass_cards", "to": {"1": "2C", 1: "4C", "3": "5C"}}, "bad_pass"),
        ({"type": "pass_cards", "to": {"1": "2C", "2": "4C"}}, "wrong_count"),
        ({"type": "pass_cards", "to": {}}, "wrong_count"),
        ({"type": "pass_cards", "to": {"1": "2C", "2": "4C", "3": "AD"}}, "card_not_in_hand"),
    ]
    for action, expected in cases:
        assert code(state, 0, action) == expected, action
    # Python callers may name seats with ints.
    state = act(state, 0, {"type": "pass_cards", "to": {1: "2C", 2: "4C", 3: "5C"}})
    assert state["passes"][0] == {"1": "2C", "2": "4C", "3": "5C"}


def funky(cards: Any, to: Any) -> dict[str, Any]:
    return {"type": "pass_cards", "cards": cards, "to": to}


def as_map(cards: list[str], to: list[int]) -> dict[str, Any]:
    """The same funky pass as v1 clients send it: a map of seat to card."""
    return {"type": "pass_cards", "to": {str(s): c for s, c in zip(to, cards, strict=True)}}


def test_funky_pass_as_cards_and_to():
    state = start(DEAL_B, {"fourth_hand": "funky"}, hand=4)
    # cards[i] goes to to[i], the seats in any order.
    chosen = {
        0: funky(["AS", "9H", "KC"], [1, 2, 3]),
        1: funky(["2D", "8H", "AC"], [3, 0, 2]),
        2: funky(["7D", "KH", "AH"], [3, 1, 0]),
        3: funky(["3C", "QS", "KS"], [2, 0, 1]),
    }
    for seat, action in chosen.items():
        applied = G.apply(state, seat, action)
        assert applied.state["passes"][seat] == {
            str(s): c for s, c in sorted(zip(action["to"], action["cards"], strict=True))
        }
        chosen_events = [e for e in applied.events if e.data["type"] == "pass_chosen"]
        assert [(e.data, e.visible_to) for e in chosen_events] == [
            ({"type": "pass_chosen", "seat": seat, "to": applied.state["passes"][seat]}, [seat])
        ]
        state = applied.state
    assert state["phase"] == "play"
    assert G.view(state, 1)["you"]["pass_chosen"] == {"0": "8H", "2": "AC", "3": "2D"}
    assert G.view(state, 0)["you"]["received"] == [
        {"from": 1, "cards": ["8H"]},
        {"from": 2, "cards": ["AH"]},
        {"from": 3, "cards": ["QS"]},
    ]
    for giver, action in chosen.items():
        for receiver, card in zip(action["to"], action["cards"], strict=True):
            assert card in state["hands"][receiver] and card not in state["hands"][giver]


PASS_ORDERS = st.lists(
    st.tuples(st.permutations(range(3)), st.lists(st.integers(0, 12), min_size=3, max_size=3, unique=True)),
    min_size=4,
    max_size=4,
)


@given(PASS_ORDERS)
def test_funky_pass_as_cards_and_to_is_the_map_form(draws):
    """Every funky pass sent either way makes the same state, events and views: what is
    stored and shown keeps its shape (seat -> card), and each seat gets the card aimed at it."""
    listed = mapped = start(DEAL_B, {"fourth_hand": "funky"}, hand=4)
    aimed: dict[int, dict[int, str]] = {}
    for seat, (order, indices) in enumerate(draws):
        others = [s for s in range(4) if s != seat]
        to = [others[i] for i in order]
        picked = [listed["hands"][seat][i] for i in indices]
        one, other = G.apply(listed, seat, funky(picked, to)), G.apply(mapped, seat, as_map(picked, to))
        assert one.state == other.state and one.events == other.events
        listed, mapped = one.state, other.state
        aimed[seat] = dict(zip(to, picked, strict=True))
        for viewer in [*range(4), None]:
            assert G.view(listed, viewer) == G.view(mapped, viewer)
    assert listed["phase"] == "play"
    for giver, cards_to in aimed.items():
        for receiver, card in cards_to.items():
            assert card in listed["hands"][receiver] and card not in listed["hands"][giver]


SEAT_LIKE = st.one_of(
    st.integers(-1, 4),
    st.booleans(),
    st.sampled_from(["1", "2", "3", "one"]),
    st.floats(),
    st.sampled_from([1.0, 2.0, 3.0]),
    st.none(),
    st.lists(st.integers(1, 3), max_size=2),
)


@given(st.one_of(st.permutations([1, 2, 3]), st.lists(st.integers(0, 3), max_size=4), st.lists(SEAT_LIKE, max_size=5)))
def test_funky_pass_to_names_each_other_seat_once(to):
    """`to` is accepted only as a list of the other three seats' numbers, each once, in
    any order; anything else is refused at `to`, and changes nothing."""
    state = start(DEAL_B, {"fourth_hand": "funky"}, hand=4)
    picked = ["2C", "4C", "5C"]
    seats = all(type(s) is int and s in (1, 2, 3) for s in to) and len(set(to)) == len(to)
    if seats and len(to) == 3:
        assert act(state, 0, funky(picked, to))["passes"][0] == {str(s): c for s, c in zip(to, picked, strict=True)}
        return
    err = error(state, 0, funky(picked, to))
    assert (err.code, err.attr) == ("wrong_count" if seats else "bad_pass", "to")


HELD = ["2C", "4C", "5C", "6C", "AS", "9H"]  # in seat 0's hand in DEAL_B
CARD_LIKE = st.one_of(
    st.sampled_from(HELD),
    st.sampled_from(["AD", "QS", "2H"]),  # held by others
    st.sampled_from(["ZZ", "2c", "10H", ""]),
    st.integers(0, 60),
    st.none(),
    st.lists(st.sampled_from(HELD), max_size=1),
)


@given(
    st.one_of(
        st.lists(st.sampled_from(HELD), min_size=3, max_size=3),
        st.lists(CARD_LIKE, max_size=5),
        st.sampled_from(["2C", {"1": "2C"}, None, 3]),
    )
)
def test_funky_pass_cards_are_three_distinct_cards_held(picked):
    """With `to` right, `cards` is accepted only as three distinct card codes the seat
    holds; anything else is refused at `cards`, and changes nothing."""
    state = start(DEAL_B, {"fourth_hand": "funky"}, hand=4)
    to = [3, 1, 2]
    if not isinstance(picked, list) or not all(isinstance(c, str) and c in deck() for c in picked):
        expected = "bad_pass"
    elif len(picked) != 3:
        expected = "wrong_count"
    elif len(set(picked)) != 3:
        expected = "bad_pass"
    elif not set(picked) <= set(HELD):
        expected = "card_not_in_hand"
    else:
        assert act(state, 0, funky(picked, to))["passes"][0] == dict(sorted(zip(map(str, to), picked, strict=True)))
        return
    err = error(state, 0, funky(picked, to))
    assert (err.code, err.attr) == (expected, "cards")


def test_funky_pass_refusals_name_the_field_at_fault():
    state = start(DEAL_B, {"fourth_hand": "funky"}, hand=4)
    cases = [
        # `to`: the other three seats, each once.
        (funky(["2C", "4C", "5C"], [0, 1, 2]), "bad_pass", "to"),  # own seat
        (funky(["2C", "4C", "5C"], [1, 1, 2]), "bad_pass", "to"),  # a repeated seat
        (funky(["2C", "4C", "5C"], [1, 2, 3, 1]), "bad_pass", "to"),
        (funky(["2C", "4C"], [1, 2]), "wrong_count", "to"),  # a missing seat
        (funky(["2C", "4C", "5C"], [1, 2]), "wrong_count", "to"),
        (funky(["2C", "4C", "5C"], []), "wrong_count", "to"),
        (funky(["2C", "4C", "5C"], [1, 2, "3"]), "bad_pass", "to"),  # not an integer
        (funky(["2C", "4C", "5C"], [1, 2, 3.0]), "bad_pass", "to"),
        (funky(["2C", "4C", "5C"], [True, 2, 3]), "bad_pass", "to"),  # a bool is no seat
        (funky(["2C", "4C", "5C"], [1, 2, 4]), "bad_pass", "to"),
        (funky(["2C", "4C", "5C"], "123"), "bad_pass", "to"),
        (funky(["2C", "4C", "5C"], None), "bad_pass", "to"),
        ({"type": "pass_cards", "cards": ["2C", "4C", "5C"]}, "bad_pass", "to"),  # `cards` without `to`
        # The map form takes no `cards`: neither form, refused as it always was.
        (funky(["2C", "4C", "5C"], {"1": "2C", "2": "4C", "3": "5C"}), "bad_pass", "to"),
        # `cards`: three distinct cards held, one for each seat of `to`.
        ({"type": "pass_cards", "to": [1, 2, 3]}, "bad_pass", "cards"),
        (funky({"1": "2C"}, [1, 2, 3]), "bad_pass", "cards"),
        (funky(["2C", "4C"], [1, 2, 3]), "wrong_count", "cards"),  # of different lengths
        (funky(["2C", "4C", "5C", "6C"], [1, 2, 3]), "wrong_count", "cards"),
        (funky(["2C", "2C", "5C"], [1, 2, 3]), "bad_pass", "cards"),  # a repeated card
        (funky(["2C", "4C", "AD"], [1, 2, 3]), "card_not_in_hand", "cards"),  # not held
        (funky(["2C", "4C", "ZZ"], [1, 2, 3]), "bad_pass", "cards"),
        (funky(["2C", "4C", 5], [1, 2, 3]), "bad_pass", "cards"),
    ]
    for action, expected, attr in cases:
        err = error(state, 0, action)
        assert (err.code, err.attr) == (expected, attr), action
    # The map form's refusals stay at `to`, where its cards are.
    for action, expected in [
        (as_map(["2C", "2C", "5C"], [1, 2, 3]), "bad_pass"),
        (as_map(["2C", "4C", "AD"], [1, 2, 3]), "card_not_in_hand"),
    ]:
        err = error(state, 0, action)
        assert (err.code, err.attr) == (expected, "to"), action


# -- leading and following ------------------------------------------------------------------


def test_two_of_clubs_leads():
    state = start(DEAL_B)
    assert G.to_act(state) == [0]
    assert G.legal_actions(state, 0) == [{"type": "play", "card": "2C"}]
    for card in ("4C", "AS", "9H"):
        assert code(state, 0, {"type": "play", "card": card}) == "must_lead_two_of_clubs"


def test_lead_any_club_option():
    state = start(DEAL_B, {"lead_any_club": True})
    assert legal_cards(state, 0) == ["2C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"]
    assert code(state, 0, {"type": "play", "card": "AS"}) == "must_lead_two_of_clubs"
    assert code(state, 0, {"type": "play", "card": "9H"}) == "must_lead_two_of_clubs"
    state = play(state, "9C")
    assert state["trick"] == [{"seat": 0, "card": "9C"}]
    state = play(state, "AC", "7D", "3C")
    assert G.to_act(state) == [1]


def test_follow_suit_and_trick_winner():
    state = start(DEAL_B)
    state = play(state, "2C")
    assert legal_cards(state, 1) == ["AC"]
    assert code(state, 1, {"type": "play", "card": "2D"}) == "must_follow_suit"
    state = play(state, "AC")
    # Seat 2 has no club: anything but points on the first trick; J♦ is allowed.
    assert legal_cards(state, 2) == ["7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"]
    assert code(state, 2, {"type": "play", "card": "AH"}) == "no_points_on_first_trick"
    state = play(state, "JD")
    # Seat 3 holds a club: following beats the Q♠ rule to the error.
    assert code(state, 3, {"type": "play", "card": "QS"}) == "must_follow_suit"
    assert legal_cards(state, 3) == ["3C"]
    applied = G.apply(state, 3, {"type": "play", "card": "3C"})
    won = [e.data for e in applied.events if e.data["type"] == "trick_won"]
    assert won == [{"type": "trick_won", "winner": 1, "points": 0, "trick": 1}]
    state = applied.state
    assert state["taken"][1] == ["2C", "AC", "JD", "3C"] and state["tricks_taken"] == [0, 1, 0, 0]
    assert G.to_act(state) == [1] and state["trick"] == []
    # Hearts are not broken: seat 1 (holding diamonds) may not lead one.
    assert code(state, 1, {"type": "play", "card": "2H"}) == "hearts_not_broken"
    assert legal_cards(state, 1) == ["2D", "3D", "4D", "5D", "6D"]
    state = play(state, "2D", "7D", "QS")
    # Q♠ is higher in rank but off suit: 7D wins.
    state = play(state, "4C")
    assert state["tricks_taken"] == [0, 1, 1, 0] and G.to_act(state) == [2]
    assert G.view(state, None)["seats"][2]["points_taken"] == 13
    assert state["hearts_broken"] is False
    assert code(state, 2, {"type": "play", "card": "TH"}) == "hearts_not_broken"


def test_queen_breaks_hearts_option():
    state = start(DEAL_B, {"queen_breaks_hearts": True})
    state = play(state, "2C", "AC", "JD", "3C", "2D", "7D")
    applied = G.apply(state, 3, {"type": "play", "card": "QS"})
    assert [e.data for e in applied.events if e.data["type"] == "hearts_broken"] == [
        {"type": "hearts_broken", "seat": 3, "card": "QS"}
    ]
    state = play(applied.state, "4C")
    assert state["hearts_broken"] is True
    assert "TH" in legal_cards(state, 2)
    state = play(state, "TH")
    assert state["trick"] == [{"seat": 2, "card": "TH"}]


def test_void_on_first_trick_with_only_point_cards():
    state = start(SUITS_DEAL)
    state = play(state, "2C", "2D")
    # Seat 2 holds nothing but hearts: any of them may go on the first trick.
    assert legal_cards(state, 2) == SUITS_DEAL[2]
    applied = G.apply(state, 2, {"type": "play", "card": "5H"})
    assert {"type": "hearts_broken", "seat": 2, "card": "5H"} in [e.data for e in applied.events]
    state = applied.state
    assert state["hearts_broken"] is True
    # Seat 3 has spades besides Q♠, so Q♠ stays out of the first trick.
    assert "QS" not in legal_cards(state, 3)
    assert code(state, 3, {"type": "play", "card": "QS"}) == "no_points_on_first_trick"
    state = play(state, "2S")
    assert state["tricks_taken"] == [1, 0, 0, 0]


def test_void_on_first_trick_with_only_hearts_and_queen():
    deal = deal_of(
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        "",
        "",
    )
    state = play(start(deal), "2C")
    assert legal_cards(state, 1) == state["hands"][1]
    state = play(state, "QS")
    assert state["trick"][-1] == {"seat": 1, "card": "QS"}
    assert state["hearts_broken"] is False


def test_leader_with_only_hearts_and_queen_may_lead_either():
    deal = deal_of(
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC KH",
        "AC QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
        "",
        "",
    )
    state = play(start(deal), "2C", "AC")
    state = play_first(state, 2)
    assert G.to_act(state) == [1] and state["hearts_broken"] is False
    assert sorted(legal_cards(state, 1)) == sorted(deal[1][1:])
    state = play(state, "7H")
    assert state["trick"] == [{"seat": 1, "card": "7H"}] and state["hearts_broken"] is True


def test_leader_with_only_hearts_may_lead_one():
    deal = deal_of(
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AH",
        "AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        "",
        "",
    )
    state = play(start(deal), "2C", "AC")
    state = play_first(state, 2)
    assert legal_cards(state, 1) == deal[1][1:]
    state = play(state, "2H")
    assert state["hearts_broken"] is True


def test_play_errors_and_garbage():
    state = start(DEAL_B)
    cases = [
        ({"type": "play", "card": "AD"}, "card_not_in_hand"),
        ({"type": "play", "card": "ZZ"}, "card_not_in_hand"),
        ({"type": "play", "card": ""}, "card_not_in_hand"),
        ({"type": "play", "card": 2}, "invalid"),
        ({"type": "play", "card": None}, "invalid"),
        ({"type": "play", "card": ["2C"]}, "invalid"),
        ({"type": "play", "card": {"card": "2C"}}, "invalid"),
        ({"type": "play"}, "invalid"),
        ({"type": "pass_cards", "cards": ["2C", "4C", "5C"]}, "wrong_phase"),
        ({"type": "moon_choice", "choice": "minus_self"}, "wrong_phase"),
        ({"type": "next_round"}, "wrong_phase"),
        ({"type": "bid", "value": 5}, "unknown_action"),
        ({}, "unknown_action"),
        (17, "unknown_action"),
    ]
    for action, expected in cases:
        assert code(state, 0, action) == expected, action
    assert error(state, 0, {"type": "play", "card": 2}).attr == "card"


def test_not_your_turn_comes_before_the_phase():
    state = start(DEAL_B)
    for seat in (1, 2, 3, 4, -1, "0", None):
        assert code(state, seat, {"type": "play", "card": "2C"}) == "not_your_turn", seat
        # Even an action of the wrong phase, or an unknown one, from a seat not to act.
        assert code(state, seat, {"type": "pass_cards", "cards": []}) == "not_your_turn"
        assert code(state, seat, {"type": "fly"}) == "not_your_turn"
    assert code(state, 1, "garbage") == "unknown_action"


def test_a_seat_that_is_not_a_seat_number_may_do_and_see_nothing():
    state = start(DEAL_B)
    seat = G.to_act(state)[0]
    assert G.legal_actions(state, seat)
    # 0.0 == 0 and False == 0 in Python; neither is seat 0.
    for bogus in (float(seat), bool(seat), str(seat), [seat], None):
        assert G.legal_actions(state, bogus) == [], bogus
        assert "you" not in G.view(state, bogus)
        assert code(state, bogus, G.legal_actions(state, seat)[0]) == "not_your_turn"


def test_errors_reveal_no_other_hand():
    state = start(DEAL_B)
    state = play(state, "2C")
    for action in (
        {"type": "play", "card": "2D"},
        {"type": "play", "card": "QS"},
        {"type": "play", "card": "AH"},
        {"type": "play", "card": 5},
    ):
        err = error(state, 1, action)
        leaked = set(re.findall(r"[2-9TJQKA][CDHS]", err.detail)) - {action["card"]}
        assert not leaked, err.detail


def test_apply_does_not_change_its_input():
    state = start(DEAL_B, hand=1)
    frozen = copy.deepcopy(state)
    for seat in range(4):
        new = act(state, seat, {"type": "pass_cards", "cards": state["hands"][seat][:3]})
        assert state == frozen
        state, frozen = new, copy.deepcopy(new)
    while state["phase"] == "play":
        (seat,) = G.to_act(state)
        new = act(state, seat, {"type": "play", "card": legal_cards(state, seat)[-1]})
        assert state == frozen
        state, frozen = new, copy.deepcopy(new)


def test_legal_actions_only_for_seats_to_act():
    state = start(DEAL_B)
    assert G.legal_actions(state, 0) == [{"type": "play", "card": "2C"}]
    assert [G.legal_actions(state, s) for s in (1, 2, 3)] == [[], [], []]
    state = start(DEAL_B, hand=1)
    for seat in range(4):
        template = {"type": "pass_cards", "count": 3, "choices": state["hands"][seat]}
        assert G.legal_actions(state, seat) == [template]


# -- views ------------------------------------------------------------------------------


def test_view_fields_and_privacy():
    state = start(DEAL_B, hand=1)
    state = act(state, 0, {"type": "pass_cards", "cards": ["AS", "9H", "KC"]})
    spectator = G.view(state, None)
    assert "you" not in spectator
    assert cards_in(spectator) == set()
    for key in (
        "phase",
        "round",
        "dealer",
        "to_act",
        "pass_direction",
        "seats",
        "trick",
        "led_suit",
        "hearts_broken",
        "trump",
        "bid",
        "scores",
        "last_round",
    ):
        assert key in spectator, key
    assert spectator["seats"][0] == {
        "seat": 0,
        "cards_left": 13,
        "tricks_taken": 0,
        "points_taken": 0,
        "passed": True,
        "ready": False,
    }
    assert (spectator["trump"], spectator["bid"], spectator["last_round"]) == (None, None, None)
    for seat in range(4):
        view = G.view(state, seat)
        assert cards_in(view) == set(DEAL_B[seat])
        assert view["you"]["seat"] == seat and view["you"]["hand"] == state["hands"][seat]
    assert G.view(state, 0)["you"]["legal_actions"] == []
    assert G.view(state, 1)["you"]["legal_actions"][0]["type"] == "pass_cards"


def test_view_during_play():
    state = play(start(DEAL_B), "2C", "AC", "JD")
    view = G.view(state, 3)
    assert view["trick"] == [{"seat": 0, "card": "2C"}, {"seat": 1, "card": "AC"}, {"seat": 2, "card": "JD"}]
    assert view["led_suit"] == "C" and view["to_act"] == [3]
    assert view["you"]["legal_actions"] == [{"type": "play", "card": "3C"}]
    assert [s["cards_left"] for s in view["seats"]] == [12, 12, 12, 13]
    assert cards_in(view) == set(DEAL_B[3]) | {"2C", "AC", "JD"}
    assert json.loads(json.dumps(view)) == view
