"""Moon rules on fixed deals: the deal, bidding, redeals, trumps, the widow, play, errors, views.

The helpers at the top are shared by the other Moon test modules.
"""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import pytest

from games import rules
from games.rules import dominoes
from games.rules.errors import RuleError
from games.rules.moon.engine import deck_for
from tests.rules.support import refused, top_up

G = rules.get("moon")
TILE_RE = re.compile(r"[0-6]-[0-6]")
ALL_TILES = frozenset(dominoes.full_set())


# -- shared helpers ---------------------------------------------------------------------


def deal_of(*hands: str, widow: str | None = None) -> list[list[str]]:
    """One hand per seat from space-separated tiles; hands shorter than 7 are topped up with
    the tiles nobody was given, in deck order (highest first). With three players the tile
    left over is the widow: name it to keep it out of the top-ups."""
    players = len(hands)
    deck = deck_for(players)
    fixed = [h.split() for h in hands]
    used = [t for h in fixed for t in h] + ([widow] if widow else [])
    assert len(used) == len(set(used)), "a tile is dealt twice"
    assert set(used) <= set(deck), "a tile not in this deck"
    out, rest = top_up(fixed, deck, 7, keep_out=[widow] if widow else [])
    assert len(rest) == (0 if widow or players == 4 else 1)
    return out


def start(
    deal: list[list[str]] | None = None,
    options: dict[str, Any] | None = None,
    *,
    players: int | None = None,
    dealer: int = 2,
    scores: list[int] | None = None,
    hand: int = 1,
    seed: int = 0,
) -> dict[str, Any]:
    """A hand with the given deal; dealer 2 by default, so seat 3 % players bids first."""
    players = players or (len(deal) if deal else 3)
    carry = {"round": hand, "scores": scores or [0] * players, "dealer": dealer}
    return G.new_round(options=options or {}, players=players, seed=seed, carry=carry, deal=deal)


def act(state: dict[str, Any], seat: int, action: dict[str, Any]) -> dict[str, Any]:
    return G.apply(state, seat, action).state


def mover(state: dict[str, Any]) -> int:
    (seat,) = G.to_act(state)
    return seat


def auction(state: dict[str, Any], *moves: int | str) -> dict[str, Any]:
    """Bids in turn order, each by whoever is to act: a number, or "p" to pass."""
    for move in moves:
        action = {"type": "pass"} if move == "p" else {"type": "bid", "value": move}
        state = act(state, mover(state), action)
    return state


def play(state: dict[str, Any], *tiles: str) -> dict[str, Any]:
    """Play the tiles in turn order, each by whoever is to act."""
    for t in tiles:
        state = act(state, mover(state), {"type": "play", "tile": t})
    return state


def play_out(state: dict[str, Any]) -> dict[str, Any]:
    """Finish the play phase, each player playing their first legal tile."""
    while state["phase"] == "play":
        seat = mover(state)
        state = act(state, seat, G.legal_actions(state, seat)[0])
    return state


def to_play(
    deal: list[list[str]],
    bids: tuple[int | str, ...],
    trump: int,
    widow: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """A hand taken through the auction, trumps and (three players) the widow."""
    state = auction(start(deal, options, **kwargs), *bids)
    state = act(state, mover(state), {"type": "trump", "suit": trump})
    if state["phase"] == "widow":
        state = act(state, mover(state), {"type": "widow", **(widow or {"take": False})})
    assert state["phase"] == "play"
    return state


def error(state: dict[str, Any], seat: Any, action: Any) -> RuleError:
    return refused(G, state, seat, action)


def code(state: dict[str, Any], seat: Any, action: Any) -> str:
    return error(state, seat, action).code


def legal_tiles(state: dict[str, Any], seat: int) -> list[str]:
    return [a["tile"] for a in G.legal_actions(state, seat) if a["type"] == "play"]


def concrete(template: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A submittable action from a legal action: Moon lists every choice whole."""
    return dict(template)


def tiles_in(obj: Any) -> set[str]:
    return set(TILE_RE.findall(json.dumps(obj))) & ALL_TILES


# Three players, trumps 6 for seat 0: it holds the four highest trumps and the doubles
# of 5, 4 and 3, the tops of those suits, so it takes every trick. The widow is 0-0.
DEAL_A = deal_of(
    "6-6 6-5 6-4 6-3 5-5 4-4 3-3",
    "6-2 5-4 5-3 5-2 4-3 4-2 2-2",
    "6-1 5-1 4-1 3-2 3-1 2-1 1-1",
    widow="0-0",
)

# Four players, same idea: seat 0 holds the top of trumps 6 and the doubles 5, 4, 3.
DEAL_4 = deal_of(
    "6-6 6-5 6-4 6-3 5-5 4-4 3-3",
    "6-2 5-4 5-3 5-2 4-3 4-2 2-2",
    "6-1 5-1 4-1 3-2 3-1 2-1 1-1",
    "6-0 5-0 4-0 3-0 2-0 1-0 0-0",
)


# -- the tiles -------------------------------------------------------------------------------


def test_the_decks():
    full = dominoes.full_set()
    assert len(full) == 28 == len(set(full))
    assert full[:3] == ["6-6", "6-5", "6-4"] and full[-1] == "0-0"
    cut = dominoes.cut_deck()
    assert len(cut) == 22
    assert set(full) - set(cut) == {"1-0", "2-0", "3-0", "4-0", "5-0", "6-0"}
    assert all(dominoes.is_tile(t) for t in full)
    for bad in ("4-6", "7-1", "6_4", "64", "6-4 ", 64, None, "", "a-b"):
        assert not dominoes.is_tile(bad)
    assert dominoes.tile(2, 5) == "5-2"


def test_ranks_inside_a_suit():
    # RULES §2: suit 5 runs 5-5, 6-5, 5-4, 5-3, 5-2, 5-1, 5-0.
    suit5 = ["5-0", "5-4", "6-5", "5-1", "5-5", "5-3", "5-2"]
    ranked = sorted(suit5, key=lambda t: -dominoes.rank_in(t, 5))
    assert ranked == ["5-5", "6-5", "5-4", "5-3", "5-2", "5-1", "5-0"]


@pytest.mark.parametrize(
    ("tiles", "trump", "winner"),
    [
        # No trump played: the highest of the led suit (the lead's higher end).
        (["5-2", "5-4", "6-1"], 3, 1),
        # The double is the highest of its suit, above 6-5.
        (["5-3", "6-5", "5-5"], 0, 2),
        # 6-5 led is suit 6: the double six wins, 5-5 does not follow.
        (["6-5", "5-5", "6-6"], 1, 2),
        # A trump beats any of the led suit; trumps rank by the double, then the other end.
        (["5-4", "6-3", "5-5"], 3, 1),
        (["5-4", "6-3", "3-3"], 3, 2),
        (["3-1", "5-3", "6-3"], 3, 2),
        # With 3 led (not trumps), 6-3 follows and beats 3-2; 6-5 does not follow.
        (["3-2", "6-3", "6-5"], 1, 1),
        # A trump lead: a trump showing the other end of the lead is still just a trump.
        (["4-2", "4-4", "6-2"], 2, 2),
        # Nobody follows and nobody trumps: the leader takes it.
        (["2-1", "6-6", "5-5"], 0, 0),
        (["2-1", "6-6", "5-5", "0-0"], 0, 3),
    ],
)
def test_trick_winner(tiles, trump, winner):
    assert dominoes.winning_index(tiles, trump) == winner


# -- set-up ----------------------------------------------------------------------------------


def test_catalogue_entry():
    entry = G.catalogue()
    assert (entry["key"], entry["players"]) == ("moon", {"min": 3, "max": 4})
    options = entry["options"]
    assert options["players"]["default"] == 3 and options["players"]["choices"] == [3, 4]
    assert options["players"]["type"] == "integer"
    assert options["moon_any_time"]["default"] is False and options["moon_any_time"]["type"] == "boolean"
    assert options["widow"]["default"] == "optional" and options["widow"]["choices"] == ["optional", "compulsory"]
    assert options["trump_instead_of_follow"]["default"] is False
    assert "turn_seconds" in options
    assert G.seat_count(G.validate_options({})) == 3
    assert G.seat_count(G.validate_options({"players": 4})) == 4
    assert rules.get("moon") is G


def test_three_players_deal_the_cut_deck_with_a_widow():
    a = G.new_round(options={}, players=3, seed=42, carry=None)
    b = G.new_round(options={}, players=3, seed=42, carry=None)
    c = G.new_round(options={}, players=3, seed=43, carry=None)
    assert a == b and a["hands"] != c["hands"]
    assert json.loads(json.dumps(a)) == a
    assert all(len(h) == 7 for h in a["hands"])
    assert sorted([*(t for h in a["hands"] for t in h), a["widow"]]) == sorted(dominoes.cut_deck())
    assert (a["players"], a["phase"], a["round"], a["redeals"], a["ready"]) == (3, "bid", 1, 0, [])
    assert G.to_act(a) == [(a["dealer"] + 1) % 3]


def test_four_players_deal_all_28_tiles_and_no_widow():
    state = G.new_round(options={"players": 4}, players=4, seed=5, carry=None)
    assert sorted(t for h in state["hands"] for t in h) == sorted(dominoes.full_set())
    assert state["widow"] is None and all(len(h) == 7 for h in state["hands"])
    # The table size may come from the options or from the seat count alone.
    assert G.new_round(options={}, players=4, seed=5, carry=None) == state
    with pytest.raises(RuleError) as info:
        G.new_round(options={"players": 3}, players=4, seed=5, carry=None)
    assert info.value.code == "invalid"


def test_first_dealer_is_drawn_from_the_seed_and_the_carry_rotates_it():
    dealers = {G.new_round(options={}, players=3, seed=s, carry=None)["dealer"] for s in range(30)}
    assert dealers == {0, 1, 2}
    for seed in range(5):
        first = G.new_round(options={}, players=3, seed=seed, carry=None)
        assert G.new_round(options={}, players=3, seed=seed, carry=None)["dealer"] == first["dealer"]
    state = start(DEAL_A, dealer=1)
    assert state["dealer"] == 1 and G.to_act(state) == [2]
    state4 = start(DEAL_4, dealer=3)
    assert G.to_act(state4) == [0]


def test_deal_overrides_the_shuffle_and_is_checked():
    state = start(DEAL_A)
    assert state["hands"][0] == ["6-6", "6-5", "6-4", "6-3", "5-5", "4-4", "3-3"]
    assert state["widow"] == "0-0"
    # Hands are kept sorted, highest first.
    assert start(deal_of("3-3 6-6 4-4 6-5 5-5 6-3 6-4", "", "", widow="0-0"))["hands"][0] == DEAL_A[0]
    bad_deals = (
        [["6-6"]] * 3,
        "nope",
        [DEAL_A[0]] * 3,
        [*DEAL_A[:2], [*DEAL_A[2][:6], "7-7"]],
        [*DEAL_A[:2], [*DEAL_A[2][:6], "6-0"]],  # not in the cut deck
        DEAL_A[:2],
    )
    for bad in bad_deals:
        with pytest.raises(RuleError) as info:
            start(bad, players=3)
        assert info.value.code == "invalid"


def test_new_round_takes_a_rooms_full_options():
    room_options = G.validate_options({"players": 4, "trump_instead_of_follow": True, "turn_seconds": 30})
    state = G.new_round(options=room_options, players=4, seed=1, carry=None)
    assert state["options"] == {
        "players": 4,
        "moon_any_time": False,
        "widow": "optional",
        "trump_instead_of_follow": True,
    }


# -- bidding ---------------------------------------------------------------------------------


def bids(state: dict[str, Any], seat: int) -> list[Any]:
    return [a.get("value", "pass") for a in G.legal_actions(state, seat)]


def test_bidding_is_one_lap_from_left_of_the_dealer():
    state = start(DEAL_A)
    assert G.to_act(state) == [0]
    assert bids(state, 0) == ["pass", 4, 5, 6, 7]
    applied = G.apply(state, 0, {"type": "bid", "value": 5})
    assert [e.data for e in applied.events] == [{"type": "bid", "seat": 0, "value": 5}]
    state = applied.state
    assert (state["bid"], state["bidder"], G.to_act(state)) == (5, 0, [1])
    assert bids(state, 1) == ["pass", 6, 7]
    state = auction(state, "p")
    assert G.to_act(state) == [2]
    applied = G.apply(state, 2, {"type": "bid", "value": 6})
    state = applied.state
    # The dealer spoke last: the auction is over.
    assert [e.data for e in applied.events] == [
        {"type": "bid", "seat": 2, "value": 6},
        {"type": "bid_won", "seat": 2, "value": 6},
    ]
    assert (state["phase"], state["bidder"], state["bid"], G.to_act(state)) == ("trump", 2, 6, [2])
    assert state["bids"] == [5, 0, 6]
    view = G.view(state, None)
    assert [(s["bid"], s["passed"]) for s in view["seats"]] == [(5, False), (None, True), (6, False)]
    assert (view["bid"], view["bidder"]) == (6, 2)


def test_the_dealer_passing_ends_the_auction_with_the_high_bid():
    state = auction(start(DEAL_A), "p", 4, "p")
    assert (state["phase"], state["bidder"], state["bid"]) == ("trump", 1, 4)


def test_bid_errors():
    state = auction(start(DEAL_A), 5)
    cases = [
        ({"type": "bid", "value": 5}, "bid_too_low"),
        ({"type": "bid", "value": 4}, "bid_too_low"),
        ({"type": "bid", "value": 3}, "bid_too_low"),
        ({"type": "bid", "value": 0}, "bid_too_low"),
        ({"type": "bid", "value": -6}, "bid_too_low"),
        ({"type": "bid", "value": 8}, "bid_too_high"),
        ({"type": "bid", "value": 20}, "bid_too_high"),
        ({"type": "bid", "value": 22}, "bid_too_high"),
        ({"type": "bid", "value": 21}, "moon_not_allowed"),
        ({"type": "bid", "value": "6"}, "invalid"),
        ({"type": "bid", "value": 6.0}, "invalid"),
        ({"type": "bid", "value": True}, "invalid"),
        ({"type": "bid", "value": None}, "invalid"),
        ({"type": "bid", "value": [6]}, "invalid"),
        ({"type": "bid"}, "invalid"),
        ({"type": "trump", "suit": 3}, "wrong_phase"),
        ({"type": "widow", "take": False}, "wrong_phase"),
        ({"type": "play", "tile": "6-2"}, "wrong_phase"),
        ({"type": "next_round"}, "wrong_phase"),
        ({"type": "pass_cards", "cards": []}, "unknown_action"),
        ({"type": "fly"}, "unknown_action"),
        ({"value": 6}, "unknown_action"),
        ({"type": 6}, "unknown_action"),
        ("bid", "unknown_action"),
        (None, "unknown_action"),
        ([{"type": "pass"}], "unknown_action"),
    ]
    for action, expected in cases:
        assert code(state, 1, action) == expected, action
    assert error(state, 1, {"type": "bid", "value": "6"}).attr == "value"


def test_moon_only_after_a_seven_and_it_ends_the_auction():
    state = auction(start(DEAL_A, dealer=0), 7)
    assert bids(state, 2) == ["pass", 21]
    assert code(state, 2, {"type": "bid", "value": 7}) == "bid_too_low"
    applied = G.apply(state, 2, {"type": "bid", "value": 21})
    state = applied.state
    # Seat 0, the dealer, never speaks: moon ends the auction at once.
    assert (state["phase"], state["bidder"], state["bid"], state["bids"]) == ("trump", 2, 21, [None, 7, 21])
    assert applied.events[-1].data == {"type": "bid_won", "seat": 2, "value": 21}
    assert G.view(state, None)["seats"][0]["bid"] is None


def test_not_your_turn_comes_before_the_phase():
    state = start(DEAL_A)
    for seat in (1, 2, 3, -1, "0", None, 0.0, True):
        assert code(state, seat, {"type": "pass"}) == "not_your_turn", seat
        assert code(state, seat, {"type": "play", "tile": "6-2"}) == "not_your_turn"
        assert code(state, seat, {"type": "fly"}) == "not_your_turn"
    assert code(state, 1, "garbage") == "unknown_action"


def test_everyone_passes_and_the_next_dealer_redeals_in_the_same_round():
    state = start(DEAL_A, dealer=2, seed=7, hand=3)
    applied = G.apply(auction(state, "p", "p"), 2, {"type": "pass"})
    state = applied.state
    assert [e.data for e in applied.events] == [
        {"type": "pass", "seat": 2},
        {"type": "redeal", "dealer": 0, "redeals": 1},
    ]
    assert all(e.visible_to is None for e in applied.events)
    assert (state["phase"], state["round"], state["dealer"], state["redeals"]) == ("bid", 3, 0, 1)
    assert state["bids"] == [None, None, None] and state["bidder"] is None
    assert G.to_act(state) == [1]
    assert state["hands"] != DEAL_A
    held = [t for h in state["hands"] for t in h]
    assert sorted([*held, state["widow"]]) == sorted(dominoes.cut_deck())
    # The new hands come from the seed and the redeal counter alone.
    again = auction(start(DEAL_A, dealer=2, seed=7, hand=3), "p", "p", "p")
    assert again == state
    other = auction(start(DEAL_A, dealer=2, seed=8, hand=3), "p", "p", "p")
    assert other["hands"] != state["hands"]
    second = auction(state, "p", "p", "p")
    assert (second["dealer"], second["redeals"], G.to_act(second)) == (1, 2, [2])
    assert second["hands"] != state["hands"]
    # The redeal's hands are the seat's only cards now.
    for seat in range(3):
        assert tiles_in(G.view(state, seat)) == set(state["hands"][seat])
    assert tiles_in(G.view(state, None)) == set()
    assert G.view(state, None)["redeals"] == 1
    # The next hand is dealt left of whoever dealt the hand that was played.
    second = auction(second, 4, "p", "p")
    assert second["bidder"] == 2
    second = act(act(second, 2, {"type": "trump", "suit": 1}), 2, {"type": "widow", "take": False})
    finished = play_out(second)
    assert (finished["dealer"], finished["redeals"], G.carry(finished)["dealer"]) == (1, 2, 2)


def test_four_players_redeal_too():
    state = auction(start(DEAL_4, dealer=3, seed=2), "p", "p", "p", "p")
    assert (state["dealer"], state["redeals"], G.to_act(state)) == (0, 1, [1])
    assert sorted(t for h in state["hands"] for t in h) == sorted(dominoes.full_set())


# -- trumps and the widow ---------------------------------------------------------------------


def test_trump_errors_and_naming():
    state = auction(start(DEAL_A), 5, "p", "p")
    assert G.legal_actions(state, 0) == [{"type": "trump", "suit": n} for n in range(7)]
    assert [G.legal_actions(state, s) for s in (1, 2)] == [[], []]
    for suit in (7, -1, 21):
        err = error(state, 0, {"type": "trump", "suit": suit})
        assert (err.code, err.attr) == ("bad_suit", "suit")
    for suit in ("3", True, None, 2.0, [3]):
        assert code(state, 0, {"type": "trump", "suit": suit}) == "invalid"
    assert code(state, 0, {"type": "trump"}) == "invalid"
    assert code(state, 1, {"type": "trump", "suit": 3}) == "not_your_turn"
    assert code(state, 0, {"type": "bid", "value": 6}) == "wrong_phase"
    assert code(state, 0, {"type": "pass"}) == "wrong_phase"
    applied = G.apply(state, 0, {"type": "trump", "suit": 6})
    assert [e.data for e in applied.events] == [{"type": "trump", "seat": 0, "suit": 6}]
    state = applied.state
    assert (state["phase"], state["trump"], G.to_act(state)) == ("widow", 6, [0])
    assert G.view(state, 1)["trump"] == 6


def test_four_players_go_from_trumps_straight_to_play():
    state = auction(start(DEAL_4, dealer=3), 4, "p", "p", "p")
    state = act(state, 0, {"type": "trump", "suit": 6})
    assert (state["phase"], G.to_act(state)) == ("play", [0])


def test_widow_choices_and_leaving_it():
    state = act(auction(start(DEAL_A), 5, "p", "p"), 0, {"type": "trump", "suit": 6})
    legal = G.legal_actions(state, 0)
    assert legal[-1] == {"type": "widow", "take": False}
    assert sorted(a["discard"] for a in legal[:-1]) == sorted([*DEAL_A[0], "0-0"])
    applied = G.apply(state, 0, {"type": "widow", "take": False})
    state = applied.state
    assert (state["phase"], state["widow_taken"], state["discard"]) == ("play", False, None)
    assert state["hands"][0] == DEAL_A[0]
    public, private = applied.events
    assert (public.data, public.visible_to) == ({"type": "widow", "seat": 0, "take": False}, None)
    assert private.visible_to == [0]
    assert private.data == {"type": "widow_private", "seat": 0, "widow": "0-0", "discard": None}


@pytest.mark.parametrize("discard", ["0-0", "3-3"])
def test_taking_the_widow_then_discarding(discard):
    state = act(auction(start(DEAL_A), 5, "p", "p"), 0, {"type": "trump", "suit": 6})
    applied = G.apply(state, 0, {"type": "widow", "take": True, "discard": discard})
    state = applied.state
    expected = sorted([t for t in [*DEAL_A[0], "0-0"] if t != discard], key=dominoes.sort_key)
    assert state["hands"][0] == expected and len(expected) == 7
    assert (state["widow_taken"], state["discard"], state["phase"]) == (True, discard, "play")
    assert applied.events[0].data == {"type": "widow", "seat": 0, "take": True}
    assert applied.events[1].data["discard"] == discard and applied.events[1].visible_to == [0]
    # The widow and the discard stay the bidder's secret for the whole hand.
    for viewer in (1, 2, None):
        assert {"0-0", discard} & tiles_in(G.view(state, viewer)) == set()
    state = play_out(state)
    for viewer in (1, 2, None):
        assert discard not in tiles_in(G.view(state, viewer))
    result = G.result(state)
    assert tiles_in(result) == set() and result["widow_taken"] is True
    you = G.view(state, 0)["you"]
    assert (you["widow"], you["discard"]) == ("0-0", discard)


def test_widow_errors():
    state = act(auction(start(DEAL_A), 5, "p", "p"), 0, {"type": "trump", "suit": 6})
    cases = [
        ({"type": "widow", "take": True}, "widow_discard_required"),
        ({"type": "widow", "take": True, "discard": None}, "widow_discard_required"),
        ({"type": "widow", "take": True, "discard": "6-2"}, "tile_not_in_hand"),
        ({"type": "widow", "take": True, "discard": "7-7"}, "tile_not_in_hand"),
        ({"type": "widow", "take": True, "discard": ""}, "tile_not_in_hand"),
        ({"type": "widow", "take": True, "discard": 66}, "invalid"),
        ({"type": "widow", "take": True, "discard": ["6-6"]}, "invalid"),
        ({"type": "widow", "take": "yes", "discard": "6-6"}, "invalid"),
        ({"type": "widow", "take": 1, "discard": "6-6"}, "invalid"),
        ({"type": "widow", "take": None}, "invalid"),
        ({"type": "widow"}, "invalid"),
        ({"type": "widow", "take": False, "discard": "6-6"}, "invalid"),
        ({"type": "trump", "suit": 5}, "wrong_phase"),
        ({"type": "play", "tile": "6-6"}, "wrong_phase"),
    ]
    for action, expected in cases:
        assert code(state, 0, action) == expected, action
    assert code(state, 1, {"type": "widow", "take": False}) == "not_your_turn"
    # The refusal of another player's tile says nothing about where it is.
    assert "6-2" not in error(state, 0, {"type": "widow", "take": True, "discard": "6-2"}).detail


def test_only_the_bidder_ever_sees_the_widow():
    state = auction(start(DEAL_A), 5, "p", "p")
    # Not even the bidder before naming trumps.
    for viewer in (0, 1, 2, None):
        assert "0-0" not in tiles_in(G.view(state, viewer))
        assert G.view(state, viewer).get("you", {}).get("widow") is None
    state = act(state, 0, {"type": "trump", "suit": 6})
    assert G.view(state, 0)["you"]["widow"] == "0-0"
    for viewer in (1, 2, None):
        assert "0-0" not in tiles_in(G.view(state, viewer))


# -- play ------------------------------------------------------------------------------------


def test_the_bidder_leads_a_trump_first():
    state = to_play(DEAL_A, (5, "p", "p"), 6)
    assert G.to_act(state) == [0]
    assert legal_tiles(state, 0) == ["6-6", "6-5", "6-4", "6-3"]
    err = error(state, 0, {"type": "play", "tile": "5-5"})
    assert (err.code, err.attr) == ("must_lead_trump", "tile")
    state = play(state, "6-3")
    assert state["trick"] == [{"seat": 0, "tile": "6-3"}]


def test_a_bidder_without_trumps_leads_anything():
    # Seat 2 names blanks: the only blank, 0-0, is the widow.
    state = to_play(DEAL_A, (4, "p", "p"), 0, dealer=1)
    assert legal_tiles(state, 2) == DEAL_A[2]
    state = play(state, "3-2")
    assert state["trick"] == [{"seat": 2, "tile": "3-2"}]


def test_a_bidder_without_trumps_after_the_widow_leads_anything():
    state = to_play(DEAL_A, (4, "p", "p"), 0, widow={"take": True, "discard": "0-0"}, dealer=1)
    assert "0-0" not in state["hands"][2]
    assert legal_tiles(state, 2) == DEAL_A[2]


def test_the_widow_can_give_the_only_trump_to_lead():
    state = to_play(DEAL_A, (4, "p", "p"), 0, widow={"take": True, "discard": "2-1"}, dealer=1)
    assert legal_tiles(state, 2) == ["0-0"]
    assert code(state, 2, {"type": "play", "tile": "6-1"}) == "must_lead_trump"


def test_trumps_must_follow_a_trump_lead():
    state = play(to_play(DEAL_A, (5, "p", "p"), 6), "6-6")
    assert legal_tiles(state, 1) == ["6-2"]
    err = error(state, 1, {"type": "play", "tile": "5-4"})
    assert (err.code, err.attr) == ("must_follow_suit", "tile")
    state = play(state, "6-2")
    assert legal_tiles(state, 2) == ["6-1"]
    applied = G.apply(state, 2, {"type": "play", "tile": "6-1"})
    assert [e.data for e in applied.events] == [
        {"type": "play", "seat": 2, "tile": "6-1"},
        {"type": "trick_won", "winner": 0, "trick": 1},
    ]
    state = applied.state
    assert state["tricks_taken"] == [1, 0, 0] and state["taken"][0] == ["6-6", "6-2", "6-1"]
    assert state["last_trick"] == {
        "tiles": [{"seat": 0, "tile": "6-6"}, {"seat": 1, "tile": "6-2"}, {"seat": 2, "tile": "6-1"}],
        "winner": 0,
    }
    # The winner leads next, anything now.
    assert G.to_act(state) == [0] and legal_tiles(state, 0) == state["hands"][0]


def test_following_a_non_trump_lead():
    # Trumps 1. Seat 0 leads 3-3: suit 3, and 6-3 and 5-3 follow it.
    deal = deal_of(
        "3-3 6-6 5-5 4-4 2-2 6-5 6-4",
        "6-3 5-3 1-1 6-2 5-4 5-2 4-2",
        "",
        widow="0-0",
    )
    state = to_play(deal, (4, "p", "p"), 1)
    trumps = [t for t in state["hands"][0] if "1" in t]
    assert trumps == []
    state = play(state, "3-3")
    assert G.view(state, 1)["led_suit"] == 3
    assert legal_tiles(state, 1) == ["6-3", "5-3"]
    # Strict: a trump is no way out while the hand can follow.
    assert code(state, 1, {"type": "play", "tile": "1-1"}) == "must_follow_suit"
    assert code(state, 1, {"type": "play", "tile": "6-2"}) == "must_follow_suit"
    state = play(state, "6-3")
    # Seat 2 holds 4-3, 3-2 (threes) and trumps 6-1 …: it must follow 3 with 4-3 or 3-2.
    assert legal_tiles(state, 2) == [t for t in state["hands"][2] if "3" in t and "1" not in t]
    assert G.view(state, 2)["you"]["legal_actions"] == [{"type": "play", "tile": t} for t in legal_tiles(state, 2)]


def test_a_player_who_cannot_follow_plays_anything():
    state = play(to_play(DEAL_A, (5, "p", "p"), 6), "6-6", "6-2", "6-1", "5-5")
    # Seat 1 holds 5-4 5-3 5-2: must follow five.
    assert legal_tiles(state, 1) == ["5-4", "5-3", "5-2"]
    state = play(state, "5-2")
    assert legal_tiles(state, 2) == ["5-1"]
    state = play(state, "5-1", "4-4")
    assert legal_tiles(state, 1) == ["5-4", "4-3", "4-2"]
    state = play(state, "4-3")
    assert legal_tiles(state, 2) == ["4-1"]
    state = play(state, "4-1", "3-3")
    state = play(state, "5-3")
    # Seat 2 holds 3-2 3-1 2-1 1-1: it follows three.
    assert legal_tiles(state, 2) == ["3-2", "3-1"]
    state = play(state, "3-1")
    assert state["tricks_taken"] == [4, 0, 0]
    state = play(state, "6-5")
    # Nothing left to follow a trump: any tile.
    assert legal_tiles(state, 1) == state["hands"][1]


def test_the_bidder_takes_every_trick_and_the_hand_is_scored():
    state = play_out(to_play(DEAL_A, (5, "p", "p"), 6))
    assert state["tricks_taken"] == [7, 0, 0] and state["phase"] == "round_over"
    result = G.result(state)
    assert result["points"] == [7, 0, 0] and result["made"] is True
    assert G.to_act(state) == [0, 1, 2]
    assert G.legal_actions(state, 1) == [{"type": "next_round"}]
    assert code(state, 1, {"type": "play", "tile": "6-6"}) == "wrong_phase"
    assert code(state, 1, {"type": "pass"}) == "wrong_phase"
    state = act(state, 1, {"type": "next_round"})
    assert G.to_act(state) == [0, 2] and G.legal_actions(state, 1) == []
    assert code(state, 1, {"type": "next_round"}) == "not_your_turn"
    state = act(act(state, 0, {"type": "next_round"}), 2, {"type": "next_round"})
    assert state["phase"] == "complete" and G.to_act(state) == []
    assert G.carry(state) == {"round": 2, "scores": [7, 0, 0], "dealer": 0}


def test_play_errors_and_garbage():
    state = to_play(DEAL_A, (5, "p", "p"), 6)
    cases = [
        ({"type": "play", "tile": "6-2"}, "tile_not_in_hand"),
        ({"type": "play", "tile": "0-0"}, "tile_not_in_hand"),
        ({"type": "play", "tile": "6-6 "}, "tile_not_in_hand"),
        ({"type": "play", "tile": "66"}, "tile_not_in_hand"),
        ({"type": "play", "tile": 66}, "invalid"),
        ({"type": "play", "tile": None}, "invalid"),
        ({"type": "play", "tile": ["6-6"]}, "invalid"),
        ({"type": "play", "tile": {"tile": "6-6"}}, "invalid"),
        ({"type": "play"}, "invalid"),
        ({"type": "play", "card": "6-6"}, "invalid"),
        ({"type": "bid", "value": 5}, "wrong_phase"),
        ({"type": "widow", "take": False}, "wrong_phase"),
        ({"type": "moon_choice", "choice": "minus_self"}, "unknown_action"),
        ({}, "unknown_action"),
        (17, "unknown_action"),
    ]
    for action, expected in cases:
        assert code(state, 0, action) == expected, action


def test_errors_reveal_no_other_hand():
    state = play(to_play(DEAL_A, (5, "p", "p"), 6), "6-6")
    for action in (
        {"type": "play", "tile": "5-4"},
        {"type": "play", "tile": "6-1"},
        {"type": "play", "tile": "0-0"},
        {"type": "play", "tile": 5},
    ):
        err = error(state, 1, action)
        leaked = set(TILE_RE.findall(err.detail)) - {action["tile"]}
        assert not leaked, err.detail


def test_apply_does_not_change_its_input():
    state = start(DEAL_A)
    frozen = copy.deepcopy(state)
    for action in ({"type": "bid", "value": 5}, {"type": "pass"}, {"type": "pass"}):
        new = act(state, mover(state), action)
        assert state == frozen
        state, frozen = new, copy.deepcopy(new)
    for action in ({"type": "trump", "suit": 6}, {"type": "widow", "take": True, "discard": "3-3"}):
        new = act(state, 0, action)
        assert state == frozen
        state, frozen = new, copy.deepcopy(new)
    while state["phase"] == "play":
        seat = mover(state)
        new = act(state, seat, {"type": "play", "tile": legal_tiles(state, seat)[-1]})
        assert state == frozen
        state, frozen = new, copy.deepcopy(new)


def test_legal_actions_only_for_seats_to_act():
    state = start(DEAL_A)
    assert [G.legal_actions(state, s) for s in (1, 2)] == [[], []]
    for seat in (3, -1, None, "0", 0.0, False):
        assert G.legal_actions(state, seat) == []


# -- views -------------------------------------------------------------------------------------


def test_view_fields_and_privacy():
    state = auction(start(DEAL_A), 5)
    spectator = G.view(state, None)
    assert "you" not in spectator
    assert tiles_in(spectator) == set()
    for key in (
        "phase",
        "round",
        "dealer",
        "to_act",
        "seats",
        "trick",
        "led_suit",
        "trump",
        "bid",
        "bidder",
        "scores",
        "last_round",
        "teams",
        "widow_taken",
    ):
        assert key in spectator, key
    assert spectator["seats"][0] == {
        "seat": 0,
        "tiles_left": 7,
        "tricks_taken": 0,
        "bid": 5,
        "passed": False,
        "team": None,
        "ready": False,
    }
    assert (spectator["trump"], spectator["bid"], spectator["last_round"], spectator["teams"]) == (None, 5, None, None)
    for seat in range(3):
        view = G.view(state, seat)
        assert tiles_in(view) == set(DEAL_A[seat])
        assert view["you"]["seat"] == seat and view["you"]["hand"] == state["hands"][seat]
        assert view["you"]["widow"] is None and view["you"]["discard"] is None
    assert G.view(state, 0)["you"]["legal_actions"] == []
    assert G.view(state, 1)["you"]["legal_actions"] == [
        {"type": "pass"},
        {"type": "bid", "value": 6},
        {"type": "bid", "value": 7},
    ]
    assert "seed" not in json.dumps(spectator)


def test_view_during_play():
    state = play(to_play(DEAL_A, (5, "p", "p"), 6), "6-6", "6-2")
    view = G.view(state, 2)
    assert view["trick"] == [{"seat": 0, "tile": "6-6"}, {"seat": 1, "tile": "6-2"}]
    assert view["led_suit"] == "trump" and view["to_act"] == [2] and view["trump"] == 6
    assert view["you"]["legal_actions"] == [{"type": "play", "tile": "6-1"}]
    assert [s["tiles_left"] for s in view["seats"]] == [6, 6, 7]
    assert tiles_in(view) == set(DEAL_A[2]) | {"6-6", "6-2"}
    assert json.loads(json.dumps(view)) == view


def test_four_player_view_shows_the_partnerships():
    state = start(DEAL_4, dealer=3)
    view = G.view(state, 1)
    assert view["teams"] == [[0, 2], [1, 3]]
    assert [s["team"] for s in view["seats"]] == [0, 1, 0, 1]
    # A partner's hand is as hidden as an opponent's.
    assert tiles_in(view) == set(DEAL_4[1])


def test_state_survives_json():
    state = to_play(DEAL_A, (5, "p", "p"), 6, widow={"take": True, "discard": "3-3"})
    state = play(state, "6-6", "6-2")
    assert json.loads(json.dumps(state)) == state


JUNK = [None, True, False, 0, 1, -1, 7, 21, 2.5, "6", "6-6", "", "x" * 200, [], ["6-6"], {}, {"a": 1}, 10**30]


def test_malformed_actions_are_rule_errors_in_every_phase():
    """Whatever a client sends, in any phase, the answer is a RuleError, never a crash."""
    widow = act(auction(start(DEAL_A), 5, "p", "p"), 0, {"type": "trump", "suit": 6})
    states = [
        start(DEAL_A),
        auction(start(DEAL_A), 5, "p", "p"),
        widow,
        act(widow, 0, {"type": "widow", "take": False}),
        play_out(act(widow, 0, {"type": "widow", "take": False})),
    ]
    fields = {"bid": "value", "trump": "suit", "play": "tile", "widow": "discard"}
    checked = 0
    for state in states:
        seat = G.to_act(state)[0]
        for kind in ("bid", "pass", "trump", "widow", "play", "next_round", "moon_choice"):
            for junk in JUNK:
                actions = [{"type": kind, fields.get(kind, "value"): junk}, {"type": junk}]
                if kind == "widow":
                    actions += [{"type": kind, "take": junk}, {"type": kind, "take": True, "discard": junk}]
                for action in actions:
                    try:
                        G.apply(state, seat, action)
                    except RuleError:
                        checked += 1
        for junk in JUNK:
            with pytest.raises(RuleError):
                G.apply(state, seat, junk)
        # A seat that is not a seat number: nothing to do, nothing to see, not its turn.
        for bogus in (None, True, False, float(seat), str(seat), [seat], {}):
            assert G.legal_actions(state, bogus) == []
            assert "you" not in G.view(state, bogus)
            assert code(state, bogus, G.legal_actions(state, seat)[0]) == "not_your_turn"
    assert checked > 500
