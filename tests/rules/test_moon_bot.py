"""The Moon computer player: always legal, deterministic, blind to hidden tiles, and good."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.rules.moon import bot as moon_bot
from games.rules.moon.bot import Table
from games.rules.moon.engine import deck_for
from games.rules.moon.profile import MOON_COMBOS as COMBOS
from games.rules.moon.profile import MOON_HAND
from tests.rules.support import bot_choice, check_bot_matches, check_bot_refuses, redeal_hidden, without_claim

from .test_moon_rules import DEAL_A, G, act, auction, start

CUT = deck_for(3)
FULL = deck_for(4)


def play_bots(state: dict[str, Any], *, until: tuple[str, ...] = ("match_over",)) -> dict[str, Any]:
    """Let the bot play every seat, checking each choice against the legal actions."""
    for _ in range(3000):
        if state["phase"] in until:
            return state
        if state["phase"] == "complete":
            state = G.new_round(
                options=state["options"], players=state["players"], seed=state["round"], carry=G.carry(state)
            )
            continue
        seat = G.to_act(state)[0]
        action = bot_choice(G, state, seat)
        assert action in G.legal_actions(state, seat), (action, state["phase"])
        state = act(state, seat, action)
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("options", COMBOS, ids=lambda o: "-".join(str(v) for v in o.values()))
def test_bots_play_whole_matches_legally(options):
    check_bot_matches(G, options, options["players"], play_bots)


def test_bot_acts_only_for_a_seat_to_act():
    state = start(DEAL_A)
    check_bot_refuses(G, state, 1)


def test_timeout_passes_in_the_auction_and_otherwise_plays_like_the_bot():
    state = start(DEAL_A)
    # Seat 0 holds a moon hand: the bot bids, the clock only ever passes.
    assert G.bot_action(state, 0) == {"type": "bid", "value": 7}
    assert G.timeout_action(state, 0) == {"type": "pass"}
    state = auction(state, 5, "p", "p")
    assert G.timeout_action(state, 0) == G.bot_action(state, 0) == {"type": "trump", "suit": 6}
    state = play_bots(state, until=("round_over",))
    assert G.bot_action(state, 2) == G.timeout_action(state, 2) == {"type": "next_round"}


def test_bot_sees_only_what_its_seat_may_know():
    """Shuffling the tiles a seat cannot see (other hands, and the widow unless it is the
    bidder's to know) changes none of its choices."""
    rng = random.Random(3)
    checked = 0
    for seed in range(50):
        players = 3 + seed % 2
        state = G.new_round(options={"players": players}, players=players, seed=seed, carry=None)
        while state["phase"] in ("bid", "trump", "widow", "play"):
            (seat,) = G.to_act(state)
            choice = G.bot_action(state, seat)
            knows_widow = seat == state["bidder"] and state["phase"] in ("widow", "play")
            others = [s for s in range(players) if s != seat]
            pool = [t for s in others for t in state["hands"][s]]
            if state["widow"] is not None and not knows_widow:
                pool.append(state["widow"])
            hidden, rest = redeal_hidden(state, others, pool, rng)
            if state["widow"] is not None and not knows_widow:
                (hidden["widow"],) = rest
            assert G.bot_action(hidden, seat) == choice
            checked += 1
            state = act(state, seat, choice)
    assert checked > 1000


# -- the auction, trumps and the widow ----------------------------------------------------------


def test_bids_follow_the_hands_strength():
    assert moon_bot.choose_bid(MOON_HAND, CUT, [4, 5, 6, 7, 21]) == 21
    # Moon not open yet: a 7 is the most the hand can say.
    assert moon_bot.choose_bid(MOON_HAND, CUT, [4, 5, 6, 7]) == 7
    # Four trumps from the top and two doubles: a solid bid, but not a moon.
    solid = ["5-5", "6-5", "5-4", "5-3", "6-6", "4-4", "2-1"]
    assert moon_bot.choose_bid(solid, CUT, [4, 5, 6, 7, 21]) in (5, 6)
    # A scattered hand passes.
    weak = ["6-2", "5-3", "4-1", "3-2", "5-1", "4-2", "6-1"]
    assert moon_bot.choose_bid(weak, CUT, [4, 5, 6, 7]) is None
    # Above what the hand is worth: pass.
    assert moon_bot.choose_bid(solid, CUT, [7]) is None


def test_a_partners_contract_is_raised_only_with_tricks_to_spare():
    hand = ["5-5", "6-5", "5-4", "2-2", "6-1", "4-1", "3-0"]
    bid = moon_bot.choose_bid(hand, FULL, [5, 6, 7])
    assert bid == 5
    assert moon_bot.choose_bid(hand, FULL, [5, 6, 7], partner_high=True) is None
    # With a stronger hand it still raises.
    strong = ["5-5", "6-5", "5-4", "5-3", "6-6", "4-4", "2-1"]
    assert moon_bot.choose_bid(strong, FULL, [5, 6, 7], partner_high=True) is not None


def test_trumps_are_the_strongest_suit():
    assert moon_bot.choose_trump(["5-5", "6-5", "5-4", "5-3", "6-6", "4-4", "2-1"], CUT) == 5
    assert moon_bot.choose_trump(MOON_HAND, CUT) == 6
    assert moon_bot.choose_trump(["1-1", "3-1", "2-1", "4-1", "6-2", "5-3", "4-2"], CUT) == 1


def test_widow_discard_keeps_the_best_seven():
    hand = ["6-6", "6-5", "6-4", "5-5", "4-4", "3-3", "2-1"]
    assert moon_bot.choose_discard(hand, "6-3", 6, CUT) == "2-1"
    assert moon_bot.choose_discard(hand, "3-1", 6, CUT) in ("3-1", "2-1")


def test_widow_through_the_engine():
    for widow_option, expected in (("optional", {"type": "widow", "take": False}), ("compulsory", None)):
        state = start(DEAL_A, {"widow": widow_option}, dealer=1)
        # Seat 2 opens; seat 0 (the moon hand) wins with 7.
        state = auction(state, "p", 7, "p")
        state = act(state, 0, G.bot_action(state, 0))
        assert state["trump"] == 6
        action = G.bot_action(state, 0)
        assert action in G.legal_actions(state, 0)
        if expected is not None:
            # The widow, 0-0, is worth less than any tile of the hand: left alone.
            assert action == expected
        else:
            assert action == {"type": "widow", "take": True, "discard": "0-0"}


# -- play ------------------------------------------------------------------------------------------


def table(
    hand: str,
    *,
    trump: int,
    legal: str | None = None,
    trick: list[tuple[int, str]] | None = None,
    played: str = "",
    seat: int | None = None,
    players: int = 3,
) -> Table:
    tiles = hand.split()
    on_table = trick or []
    return Table(
        seat=len(on_table) if seat is None else seat,
        players=players,
        hand=tiles,
        legal=legal.split() if legal is not None else tiles,
        trump=trump,
        bidder=0,
        trick=on_table,
        played=set(played.split()),
        deck=deck_for(players),
    )


def test_lead_draws_trumps_with_the_highest():
    assert moon_bot.choose_play(table("6-4 6-6 5-5 2-1", trump=6)) == "6-6"


def test_lead_the_top_of_a_suit_without_the_top_trump():
    assert moon_bot.choose_play(table("6-5 6-4 5-5 2-1", trump=6)) == "5-5"


def test_lead_low_with_nothing_on_top():
    assert moon_bot.choose_play(table("6-2 5-1 4-2 3-1", trump=6)) == "3-1"


def test_lead_a_plain_tile_once_the_trumps_are_out():
    # Every other trump is out, and 5-5 too: 5-4 is the highest five left and cannot lose.
    played = "6-6 6-5 6-4 6-3 6-2 5-5"
    assert moon_bot.choose_play(table("6-1 5-4 2-1", trump=6, played=played)) == "5-4"


def test_follow_wins_as_cheaply_as_it_can():
    t = table("5-5 5-4 5-1 6-2", trump=6, legal="5-5 5-4 5-1", trick=[(0, "5-3")])
    assert moon_bot.choose_play(t) == "5-4"
    last = table("5-5 5-4 5-1 6-2", trump=6, legal="5-5 5-4 5-1", trick=[(0, "5-3"), (1, "5-2")])
    assert moon_bot.choose_play(last) == "5-4"


def test_follow_low_when_it_cannot_win():
    t = table("5-4 5-1 6-2", trump=6, legal="5-4 5-1", trick=[(0, "5-5")])
    assert moon_bot.choose_play(t) == "5-1"


def test_a_trump_that_cannot_win_is_kept():
    t = table("6-2 4-1 3-2", trump=6, trick=[(0, "5-3"), (1, "6-5")])
    assert moon_bot.choose_play(t) == "3-2"


def test_trumps_in_when_void():
    t = table("6-2 4-1 3-2", trump=6, trick=[(0, "5-3"), (1, "5-2")])
    assert moon_bot.choose_play(t) == "6-2"


def test_a_partners_sure_trick_is_left_alone():
    # Four players, seat 3 plays last; seat 1 (the partner) is winning with 4-4.
    partner = table("6-2 3-2 2-1", trump=6, trick=[(0, "4-1"), (1, "4-4"), (2, "4-2")], seat=3, players=4)
    assert moon_bot.choose_play(partner) == "2-1"
    # The same trick won by an opponent: trump it.
    opponent = table("6-2 3-2 2-1", trump=6, trick=[(0, "4-4"), (1, "4-1"), (2, "4-2")], seat=3, players=4)
    assert moon_bot.choose_play(opponent) == "6-2"


def test_with_three_the_bidders_opponents_let_each_others_sure_trick_stand():
    # Seat 0 bid and led; seat 1, its opponent, is winning with the double; seat 2 plays last.
    ally = table("4-3 6-2 2-1", trump=6, trick=[(0, "4-1"), (1, "4-4")], seat=2)
    assert moon_bot.choose_play(ally) == "2-1"
    # The bidder winning the same trick: take it from it, as cheaply as that can be done.
    bidder = table("4-3 6-2 2-1", trump=6, trick=[(1, "4-1"), (0, "4-4")], seat=2)
    assert moon_bot.choose_play(bidder) == "6-2"
    # The bidder itself has no ally: it takes an opponent's trick.
    own = table("6-2 3-2 2-1", trump=6, trick=[(1, "4-4"), (2, "4-1")], seat=0)
    assert moon_bot.choose_play(own) == "6-2"


# -- strength ----------------------------------------------------------------------------------------


def play_match(players: int, bots: set[int], seed: int) -> list[int]:
    rng = random.Random(seed)
    state = G.new_round(options={"players": players}, players=players, seed=seed, carry=None)
    for _ in range(3000):
        if state["phase"] == "match_over":
            return G.result(state)["winners"]
        if state["phase"] == "complete":
            state = G.new_round(
                options={"players": players}, players=players, seed=rng.randrange(2**62), carry=G.carry(state)
            )
            continue
        seat = G.to_act(state)[0]
        action = G.bot_action(state, seat) if seat in bots else rng.choice(without_claim(G.legal_actions(state, seat)))
        state = act(state, seat, action)
    raise AssertionError("the match did not end")


def test_one_bot_beats_two_random_players():
    matches = 90
    wins = sum(0 in play_match(3, {0}, seed) for seed in range(matches))
    # A third each by chance; the bot wins most.
    assert wins >= 0.75 * matches, wins


def test_a_bot_partnership_beats_a_random_one():
    matches = 60
    wins = sum(play_match(4, {1, 3}, seed) == [1, 3] for seed in range(matches))
    assert wins >= 0.85 * matches, wins


def test_bots_make_most_of_their_bids():
    made = bid = 0
    for seed in range(80):
        players = 3 + seed % 2
        state = G.new_round(options={"players": players}, players=players, seed=seed, carry=None)
        state = play_bots(state, until=("round_over", "match_over"))
        result = G.result(state)
        bid += 1
        made += result["made"]
    assert made >= 0.7 * bid, (made, bid)
