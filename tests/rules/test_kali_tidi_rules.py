"""Kali Tidi rules, RULES.md §3: options, card removal, bidding, partners, play, scoring."""

from __future__ import annotations

from typing import Any

import pytest

from games.rules import RuleError, cards
from games.rules.base import MATCH_OVER, ROUND_OVER
from games.rules.kali_tidi.engine import KaliTidi, callable_cards
from games.rules.kali_tidi.points import card_points
from games.rules.kali_tidi.profile import KALI_TIDI_COMBOS, KaliTidiProfile
from tests.rules.support import refused

G = KaliTidi()


def options(**given: Any) -> dict[str, Any]:
    return G.game_options(given)


def start(deal: list[list[str]] | None = None, seed: int = 1, carry: dict[str, Any] | None = None, **given: Any):
    opts = options(**given)
    players = opts["players"]
    if carry is None:
        teams = None
        if opts["team_mode"] == "teams":
            a, b = opts["team_sizes"]
            teams = [0] * a + [1] * b
        carry = G.first_carry(options=opts, players=players, host_seat=0, teams=teams or [None] * players, seed=seed)
    return G.new_round(options=opts, players=players, seed=seed, carry=carry, deal=deal)


def act(state, seat, action):
    return G.apply(state, seat, action).state


def code(state, seat, action) -> str:
    return refused(G, state, seat, action).code


def mover(state) -> int:
    (seat,) = G.to_act(state)
    return seat


def auction(state, *moves):
    """Each move a bid value or None for a pass, by whoever is to act."""
    for move in moves:
        state = act(state, mover(state), {"type": "pass"} if move is None else {"type": "bid", "value": move})
    return state


def deal_of(players: int, decks: int = 1, removed: list[str] | None = None, **fixed: list[str]) -> list[list[str]]:
    """An even deal: seats named in `fixed` ("s0"...) get those cards first, the rest in order."""
    stock = cards.deck(decks)
    for card in removed or []:
        stock.remove(card)
    size = len(stock) // players
    hands = [list(fixed.get(f"s{s}", [])) for s in range(players)]
    for hand in hands:
        for card in hand:
            stock.remove(card)
    for hand in hands:
        while len(hand) < size:
            hand.append(stock.pop(0))
    assert not stock
    return hands


# -- options ------------------------------------------------------------------------


def test_defaults_follow_players_and_decks():
    assert options(players=4) | {} == {
        **options(players=4),
        "decks": 1,
        "min_bid": 125,
        "target": 250,
        "team_sizes": [2, 2],
    }
    five = options(players=5, team_mode="cards")
    assert (five["decks"], five["min_bid"], five["target"], five["team_sizes"]) == (2, 250, 500, None)
    assert options(players=7)["team_sizes"] == [3, 4]


@pytest.mark.parametrize(
    "given, attr",
    [
        ({"players": 2, "team_mode": "random"}, "team_mode"),
        ({"players": 2, "team_mode": "cards"}, "team_mode"),
        ({"players": 4, "team_mode": "cards", "partner_rule": "last"}, "partner_rule"),
        ({"players": 6, "team_mode": "teams", "decks": 2, "partner_rule": "last"}, "partner_rule"),
        ({"players": 5, "team_sizes": [2, 2]}, "team_sizes"),
        ({"players": 5, "team_sizes": [5, 0]}, "team_sizes"),
        ({"players": 5, "team_sizes": [1, 2, 2]}, "team_sizes"),
        ({"players": 5, "team_mode": "random", "team_sizes": [2, 3]}, "team_sizes"),
        ({"players": 4, "min_bid": 127}, "min_bid"),
        ({"players": 4, "min_bid": 255}, "min_bid"),
        ({"players": 8}, "players"),
        ({"players": 4, "decks": 3}, "decks"),
        ({"players": 4, "team_sizes": "2v2"}, "team_sizes"),
        ({"players": 4, "trump_card": "joker"}, "trump_card"),
    ],
)
def test_invalid_combinations_are_refused(given, attr):
    with pytest.raises(RuleError) as info:
        G.validate_options(given)
    assert (info.value.code, info.value.attr) == ("invalid", attr)


def test_room_level_hooks():
    assert G.seat_count({"players": 6}) == 6
    assert G.lobby_teams({"players": 7, "team_sizes": [1, 6]}) == [1, 6]
    assert G.lobby_teams({"players": 5, "team_mode": "cards"}) is None
    schema = G.catalogue()["options"]
    for name in ("players", "decks", "team_mode", "team_sizes", "partner_rule", "min_bid", "target", "trump_card"):
        assert name in schema
    assert schema["team_sizes"]["type"] == "array"


def test_card_points_total_250_a_deck():
    assert card_points("3S") == 30 and card_points("TH") == 10 and card_points("5C") == 5 and card_points("3H") == 0
    assert sum(card_points(c) for c in cards.deck()) == 250
    assert sum(card_points(c) for c in cards.deck(2)) == 500


# -- removing extra cards ---------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 8))
@pytest.mark.parametrize("decks", (1, 2))
def test_removal_for_every_table(players, decks):
    mode = "teams" if players == 2 else "cards"
    extra = (52 * decks) % players
    state = start(players=players, decks=decks, team_mode=mode)
    if not extra:
        assert state["phase"] == "bid" and all(len(h) == 52 * decks // players for h in state["hands"])
        return
    assert state["phase"] == "remove" and state["remover"] == 0 and G.to_act(state) == [0]
    view = G.view(state, 3 % players)
    assert (view["remover"], view["remove_count"]) == (0, extra)
    assert all(h == [] for h in state["hands"])  # nothing is dealt before the removal
    (template,) = G.legal_actions(state, 0)
    assert template["count"] == extra and all(card_points(c) == 0 for c in template["choices"])
    picked = template["choices"][:extra]
    state = act(state, 0, {"type": "remove_cards", "cards": picked})
    assert state["phase"] == "bid" and sorted(state["removed"]) == sorted(picked)
    sizes = {len(h) for h in state["hands"]}
    assert sizes == {(52 * decks) // players}
    assert sum(card_points(c) for h in state["hands"] for c in h) == 250 * decks
    # The removed cards stay out of every later hand, and nobody removes again.
    state["phase"], state["result"] = ROUND_OVER, {"scores": [0] * players}
    later = G.new_round(options=state["options"], players=players, seed=9, carry=G.carry(state))
    assert later["phase"] == "bid" and later["removed"] == state["removed"]
    dealt = [c for h in later["hands"] for c in h]
    assert len(dealt) + extra == 52 * decks
    for card in set(picked):
        assert dealt.count(card) == decks - picked.count(card)


def test_removal_errors():
    state = start(players=3, team_mode="cards")  # 52 % 3 = 1
    assert code(state, 1, {"type": "remove_cards", "cards": ["2C"]}) == "not_your_turn"
    assert code(state, 0, {"type": "remove_cards", "cards": ["2C", "2D"]}) == "wrong_count"
    assert code(state, 0, {"type": "remove_cards", "cards": ["AS"]}) == "card_has_points"
    assert code(state, 0, {"type": "remove_cards", "cards": ["5H"]}) == "card_has_points"
    assert code(state, 0, {"type": "remove_cards", "cards": "2C"}) == "invalid"
    assert code(state, 0, {"type": "bid", "value": 125}) == "wrong_phase"
    five = start(players=5, decks=1, team_mode="cards")  # 52 % 5 = 2
    assert code(five, 0, {"type": "remove_cards", "cards": ["2C", "2C"]}) == "invalid"  # one copy only
    two_decks = start(players=6, decks=2, team_mode="cards")  # 104 % 6 = 2
    assert act(two_decks, 0, {"type": "remove_cards", "cards": ["2C", "2C"]})["removed"] == ["2C", "2C"]


def test_random_mode_draws_teams_and_a_remover_once():
    opts = options(players=5, team_mode="random", decks=1)
    carry = G.first_carry(options=opts, players=5, host_seat=0, teams=[None] * 5, seed=42)
    assert sorted(carry["teams"]) == [0, 0, 1, 1, 1]
    state = G.new_round(options=opts, players=5, seed=42, carry=carry)
    assert state["phase"] == "remove" and state["remover"] == carry["first_bidder"]
    again = G.first_carry(options=opts, players=5, host_seat=0, teams=[None] * 5, seed=42)
    assert again == carry  # drawn from the seed: replays agree
    view = G.view(state, None)
    assert [s["team"] for s in view["seats"]] == carry["teams"]


# -- bidding ----------------------------------------------------------------------


def test_bidding_order_steps_and_errors():
    state = start(players=4)
    assert mover(state) == 0  # the host bids first
    assert code(state, 1, {"type": "pass"}) == "not_your_turn"
    assert code(state, 0, {"type": "bid", "value": 120}) == "bid_too_low"
    assert code(state, 0, {"type": "bid", "value": 255}) == "bid_too_high"
    assert code(state, 0, {"type": "bid", "value": 127}) == "bad_bid_step"
    assert code(state, 0, {"type": "bid", "value": "130"}) == "invalid"
    assert code(state, 0, {"type": "bid", "value": True}) == "invalid"
    state = auction(state, 130)
    assert code(state, 1, {"type": "bid", "value": 130}) == "bid_too_low"
    state = auction(state, None, 140)  # seat 1 passes, seat 2 raises
    assert mover(state) == 3
    state = auction(state, None, 145)  # seat 3 passes; seat 0 raises; seat 1 is out for good
    assert mover(state) == 2
    state = auction(state, None)
    assert state["phase"] == "trump" and (state["bidder"], state["bid"]) == (0, 145) and mover(state) == 0


def test_the_maximum_ends_the_auction_at_once():
    state = auction(start(players=4), 130, 250)
    assert state["phase"] == "trump" and (state["bidder"], state["bid"]) == (1, 250)


def test_all_pass_gives_the_first_bidder_the_minimum():
    state = auction(start(players=4), None, None, None, None)
    assert state["phase"] == "trump" and (state["bidder"], state["bid"]) == (0, 125)
    cards_mode = auction(start(players=4, team_mode="cards"), None, None, None, None)
    assert cards_mode["phase"] == "call" and cards_mode["bidder"] == 0


def test_last_player_left_may_still_bid():
    state = auction(start(players=4), None, None, None)
    assert mover(state) == 3
    state = auction(state, 125)
    assert (state["bidder"], state["bid"], state["phase"]) == (3, 125, "trump")


def test_first_bidder_moves_left_each_hand():
    state = start(players=3, team_mode="cards", deal=None)
    state = act(state, 0, {"type": "remove_cards", "cards": ["2C"]})
    carry = G.carry({**state, "result": None})
    assert carry["first_bidder"] == 1
    assert mover(G.new_round(options=state["options"], players=3, seed=3, carry=carry)) == 1


# -- trumps and play --------------------------------------------------------------


def three_player_play(deal, trump="S", bid_by_0=130, **given):
    state = start(deal=deal, players=3, team_mode="teams", team_sizes=[1, 2], **given)
    if state["phase"] == "remove":
        state = act(state, 0, {"type": "remove_cards", "cards": ["2C"]})
    state = auction(state, bid_by_0, None, None)
    state = act(state, 0, {"type": "trump", "suit": trump})
    assert state["phase"] == "play" and mover(state) == 0
    return state


def test_the_seeds_example_later_identical_card_wins():
    # Two decks so that two ♦K exist: ♦K, ♦2, ♦K — the second ♦K takes the trick.
    deal = deal_of(3, decks=2, removed=["2C", "2C"], s0=["KD"], s1=["2D"], s2=["KD"])
    state = start(deal=deal, players=3, decks=2, team_mode="teams", team_sizes=[1, 2])
    state = act(state, 0, {"type": "remove_cards", "cards": ["2C", "2C"]})
    state = auction(state, 250, None, None)
    state = act(state, 0, {"type": "trump", "suit": "S"})
    for seat, card in ((0, "KD"), (1, "2D"), (2, "KD")):
        state = act(state, seat, {"type": "play", "card": card})
    assert state["last_trick"]["winner"] == 2 and mover(state) == 2


def test_follow_suit_trumps_and_errors():
    deal = deal_of(3, removed=["2C"], s0=["AH", "3H"], s1=["KH", "2S"], s2=["4C", "5S"])
    state = three_player_play(deal, trump="S")
    assert code(state, 0, {"type": "play", "card": "QQ"}) == "invalid"
    assert code(state, 0, {"type": "play", "card": "KH"}) == "card_not_in_hand"
    state = act(state, 0, {"type": "play", "card": "3H"})
    assert code(state, 1, {"type": "play", "card": "2S"}) == "must_follow_suit"
    state = act(state, 1, {"type": "play", "card": "KH"})
    hand2 = state["hands"][2]
    if any(c[1] == "H" for c in hand2):
        state = act(state, 2, {"type": "play", "card": next(c for c in hand2 if c[1] == "H")})
    else:
        state = act(state, 2, {"type": "play", "card": "5S"})  # void in hearts: a trump wins
        assert state["last_trick"]["winner"] == 2


def test_three_of_spades_is_the_highest_trump_and_only_a_trump():
    deal = deal_of(3, removed=["2C"], s0=["AS", "2H"], s1=["3S", "KS"], s2=["AH", "4H"])
    state = three_player_play(deal, trump="H", trump_card="three_of_spades")
    # Spades led: 3♠ is a heart (trumps) now, so seat 1 must follow with ♠K.
    state = act(state, 0, {"type": "play", "card": "AS"})
    assert code(state, 1, {"type": "play", "card": "3S"}) == "must_follow_suit"
    # Hearts (trumps) led: 3♠ follows hearts and beats the ♥A.
    plain = three_player_play(deal, trump="H", trump_card="three_of_spades")
    plain = act(plain, 0, {"type": "play", "card": "2H"})
    plain = act(plain, 1, {"type": "play", "card": "3S"})
    plain = act(plain, 2, {"type": "play", "card": "AH"})
    assert plain["last_trick"]["winner"] == 1 and plain["last_trick"]["points"] == 40
    # Without the option 3♠ is a plain spade.
    off = three_player_play(deal, trump="H")
    off = act(off, 0, {"type": "play", "card": "AS"})
    assert {"type": "play", "card": "3S"} in G.legal_actions(off, 1)


def test_trump_errors():
    state = auction(start(players=4), 130, None, None, None)
    assert code(state, 0, {"type": "trump", "suit": "X"}) == "bad_suit"
    assert code(state, 0, {"type": "trump", "suit": 1}) == "bad_suit"
    assert code(state, 0, {"type": "play", "card": "2C"}) == "wrong_phase"
    assert code(state, 0, {"type": "dance"}) == "unknown_action"


# -- partners (cards mode) ----------------------------------------------------------


def cards_hand(deal, players=4, decks=1, removed=(), bid=None, **given):
    state = start(deal=deal, players=players, decks=decks, team_mode="cards", **given)
    if state["phase"] == "remove":
        state = act(state, 0, {"type": "remove_cards", "cards": list(removed)})
    first = [bid or options(players=players, decks=decks, team_mode="cards")["min_bid"]]
    return auction(state, *first, *([None] * (players - 1)))


def test_call_count_and_callable_cards():
    for players, count in ((3, 1), (4, 1), (5, 2), (6, 2), (7, 3)):
        decks = 1 if players <= 4 else 2
        state = start(players=players, decks=decks, team_mode="cards")
        if state["phase"] == "remove":
            state = act(state, 0, G.bot_action(state, 0))
        state = auction(state, *([None] * players))
        (template,) = G.legal_actions(state, 0)
        assert template["count"] == count
        assert set(template["choices"]) == set(callable_cards(state, 0))


def test_calling_errors_depend_only_on_the_bidders_own_cards():
    deal = deal_of(4, s0=["AS", "KS"], s1=["AH"])
    state = cards_hand(deal)
    assert state["phase"] == "call"
    assert code(state, 0, {"type": "call_partners", "cards": ["AS"]}) == "not_callable"  # its own card
    assert code(state, 0, {"type": "call_partners", "cards": ["AH", "KH"]}) == "wrong_count"
    assert code(state, 0, {"type": "call_partners", "cards": ["ZZ"]}) == "invalid"
    assert code(state, 1, {"type": "call_partners", "cards": ["AH"]}) == "not_your_turn"
    state = act(state, 0, {"type": "call_partners", "cards": ["AH"]})
    assert state["phase"] == "trump" and state["called"] == ["AH"]


def test_a_removed_card_cannot_be_called():
    deal = deal_of(5, decks=1, removed=["2C", "2D"], s0=["AS"])
    state = cards_hand(deal, players=5, decks=1, removed=["2C", "2D"])
    assert code(state, 0, {"type": "call_partners", "cards": ["2C", "AH"]}) == "not_callable"
    assert code(state, 0, {"type": "call_partners", "cards": ["AH", "AH"]}) == "invalid"  # distinct codes


def play_trick(state, plays: dict[int, str]):
    for _ in range(len(plays)):
        seat = mover(state)
        state = act(state, seat, {"type": "play", "card": plays[seat]})
    return state


def test_partner_is_revealed_to_everyone_when_the_called_card_is_played():
    deal = deal_of(4, s0=["2H", "3C"], s1=["5H"], s2=["AH"], s3=["6H"])
    state = cards_hand(deal)
    state = act(state, 0, {"type": "call_partners", "cards": ["AH"]})
    state = act(state, 0, {"type": "trump", "suit": "S"})
    for viewer in (0, 1, 3, None):
        assert G.view(state, viewer)["partners"] == []
    state = act(state, 0, {"type": "play", "card": "2H"})
    state = act(state, 1, {"type": "play", "card": "5H"})
    applied = G.apply(state, 2, {"type": "play", "card": "AH"})
    assert {"type": "partner_revealed", "seat": 2, "card": "AH"} in [e.data for e in applied.events]
    assert all(e.visible_to is None for e in applied.events)
    for viewer in (0, 1, 3, None):
        view = G.view(applied.state, viewer)
        assert view["partners"] == [2] and view["seats"][2]["partner"] is True


REMOVED_5X2 = ["2C", "2C", "2D", "2D"]  # 104 cards for 5 players: 4 come out


def play_until(state, seat: int, card: str):
    """Play on (first legal card each) until `seat` may play `card`, then play it."""
    for _ in range(200):
        who = mover(state)
        legal = [a["card"] for a in G.legal_actions(state, who) if a["type"] == "play"]
        if who == seat and card in legal:
            return act(state, who, {"type": "play", "card": card})
        choice = next((c for c in legal if not (who == seat and c == card)), legal[0])
        state = act(state, who, {"type": "play", "card": choice})
    raise AssertionError(f"{seat} never got to play {card}")


def test_bidder_calls_the_other_copy_of_a_card_it_holds():
    deal = deal_of(5, decks=2, removed=REMOVED_5X2, s0=["AS", "KH", "KH", "3C"], s3=["AS"])
    state = cards_hand(deal, players=5, decks=2, removed=REMOVED_5X2)
    assert "AS" in callable_cards(state, 0)  # the other copy is elsewhere
    assert "KH" not in callable_cards(state, 0)  # both copies are the bidder's
    assert code(state, 0, {"type": "call_partners", "cards": ["AS", "KH"]}) == "not_callable"
    state = act(state, 0, {"type": "call_partners", "cards": ["AS", "QD"]})
    state = act(state, 0, {"type": "trump", "suit": "H"})
    state = act(state, 0, {"type": "play", "card": "AS"})
    assert state["partners"] == []  # the bidder's own copy reveals nobody
    state = play_until(state, 3, "AS")
    assert 3 in state["partners"]


def test_first_and_last_rules_with_two_copies():
    # Seats 1 and 2 each hold a ♥A; seat 3 holds both ♦K. The bidder calls ♥A and ♦K.
    fixed = {"s0": ["2H"], "s1": ["AH", "5H"], "s2": ["AH", "6H"], "s3": ["7H", "KD", "KD"], "s4": ["8H"]}
    deal = deal_of(5, decks=2, removed=REMOVED_5X2, **fixed)
    for rule in ("first", "last"):
        state = cards_hand(deal, players=5, decks=2, removed=REMOVED_5X2, partner_rule=rule)
        state = act(state, 0, {"type": "call_partners", "cards": ["AH", "KD"]})
        state = act(state, 0, {"type": "trump", "suit": "S"})
        state = play_trick(state, {0: "2H", 1: "AH", 2: "6H", 3: "7H", 4: "8H"})
        # first: seat 1 played the first copy. last: seat 2 still holds one, nobody yet.
        assert state["partners"] == ([1] if rule == "first" else [])
        state = play_until(state, 2, "AH")
        if rule == "first":
            assert 2 not in state["partners"] and 1 in state["partners"]
        else:
            assert 2 in state["partners"] and 1 not in state["partners"]


def test_one_player_holding_two_called_cards_is_one_partner():
    deal = deal_of(5, decks=2, removed=REMOVED_5X2, s0=["2H"], s2=["AH", "AD", "AH", "AD"])
    state = cards_hand(deal, players=5, decks=2, removed=REMOVED_5X2)
    state = act(state, 0, {"type": "call_partners", "cards": ["AD", "AH"]})
    state = act(state, 0, {"type": "trump", "suit": "C"})
    state = act(state, 0, {"type": "play", "card": "2H"})
    while mover(state) != 2:
        seat = mover(state)
        state = act(state, seat, {"type": "play", "card": G.legal_actions(state, seat)[0]["card"]})
    state = act(state, 2, {"type": "play", "card": "AH"})
    assert state["partners"] == [2]
    bidding, other = G.sides(state)
    assert bidding == [0, 2] and len(other) == 3


# -- scoring and the match ------------------------------------------------------------


def finish(state):
    """Play the hand out with the computer player."""
    while state["phase"] == "play":
        seat = mover(state)
        state = act(state, seat, G.bot_action(state, seat))
    return state


def test_made_and_failed_bids_score_the_winning_side():
    state = start(players=4, team_sizes=[2, 2], seed=3)
    state = auction(state, 125, None, None, None)
    state = act(state, 0, {"type": "trump", "suit": "S"})
    state = finish(state)
    result = state["result"]
    assert state["phase"] in (ROUND_OVER, MATCH_OVER)
    assert result["bidding_side"] == [0, 1] and result["other_side"] == [2, 3]
    assert result["bidding_points"] + result["other_points"] == 250
    assert result["made"] == (result["bidding_points"] >= 125)
    winners = [0, 1] if result["made"] else [2, 3]
    assert result["hand_winners"] == winners
    assert result["scores"] == [125 if s in winners else 0 for s in range(4)]
    assert sum(result["points"]) == 250


def test_match_ends_at_the_target_with_co_winners():
    state = start(players=4, target=100, seed=4)
    state = auction(state, 125, None, None, None)
    state = act(state, 0, {"type": "trump", "suit": "S"})
    state = finish(state)
    result = state["result"]
    assert state["phase"] == MATCH_OVER and result["match_over"]
    assert result["winners"] == result["hand_winners"]  # two teammates share the top score
    assert G.to_act(state) == [] and G.legal_actions(state, 0) == []


def test_cards_mode_scores_each_player_of_the_side():
    deal = deal_of(4, s0=["2H"], s3=["AH"])
    state = cards_hand(deal)
    state = act(state, 0, {"type": "call_partners", "cards": ["AH"]})
    state = act(state, 0, {"type": "trump", "suit": "S"})
    state = finish(state)
    result = state["result"]
    assert result["partners"] == [3] and result["bidding_side"] == [0, 3]
    winners = [0, 3] if result["made"] else [1, 2]
    assert result["scores"] == [125 if s in winners else 0 for s in range(4)]


def test_timeout_passes_in_the_auction_and_plays_otherwise():
    state = start(players=4)
    assert G.timeout_action(state, 0) == {"type": "pass"}
    state = auction(state, 125, None, None, None)
    state = act(state, 0, G.timeout_action(state, 0))
    assert state["phase"] == "play"
    action = G.timeout_action(state, 0)
    assert action["type"] == "play" and action["card"] in state["hands"][0]


def test_integer_list_option_kind():
    from games.rules.options import Option

    option = Option("sizes", [1, 1], "", minimum=1, maximum=6, kind="integer_list")
    assert option.check([2, 3]) == [2, 3]
    for bad in ([], [0, 3], [1, 7], [1, "2"], [1, True], "1,2", None):
        with pytest.raises(RuleError):
            option.check(bad)


def test_derived_options_accept_null_as_automatic():
    opts = G.validate_options({"players": 6, "decks": None, "min_bid": None, "target": None, "team_sizes": None})
    assert (opts["decks"], opts["min_bid"], opts["target"], opts["team_sizes"]) == (2, 250, 500, [3, 3])
    with pytest.raises(RuleError):
        G.validate_options({"players": None})  # players has a real default: null is not a value


def test_kali_tidi_covers_every_combination() -> None:
    assert len(KALI_TIDI_COMBOS) == 74
    assert {c["players"] for c in KALI_TIDI_COMBOS} == set(range(2, 8))
    assert sum(run.hands for run in KaliTidiProfile(KaliTidi()).runs()) >= 800
