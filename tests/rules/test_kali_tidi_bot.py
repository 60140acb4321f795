"""The Kali Tidi computer player: legal, blind to others' cards, and better than chance."""

from __future__ import annotations

import random

from games.rules.base import COMPLETE, MATCH_OVER
from games.rules.kali_tidi import bot
from tests.rules.support import without_claim

from .test_kali_tidi_rules import G, act, auction, deal_of, mover, start


def test_bids_from_the_hands_points():
    context = bot.BidContext(players=4, side_size=2, total_points=250)
    values = list(range(125, 255, 5))
    strong = ["AS", "AH", "AD", "AC", "3S", "KS", "KH", "QS", "JS", "TS", "5S", "2S", "4S"]
    weak = ["2C", "3C", "4C", "6C", "2D", "3D", "4D", "6D", "2H", "3H", "4H", "6H", "7H"]
    assert bot.choose_bid(strong, values, context) == 125
    assert bot.choose_bid(weak, values, context) is None
    assert bot.choose_bid(strong, [], context) is None


def test_calls_the_best_cards_it_lacks_and_names_its_long_suit():
    hand = ["2H", "3H", "4H", "5H", "KH", "AS"]
    choices = ["AH", "AD", "3S", "KD", "2C", "QH"]
    # Aces and 3♠ first; among them the suit it is longest in.
    assert bot.choose_calls(hand, choices, 2) == ["AH", "3S"]
    assert bot.choose_trump(hand) == "H"
    assert bot.choose_removal(["9C", "2H", "4D", "2C"], 2) == ["2C", "2H"]


def table(hand, trick, friends=(), trump="S", players=4, legal=None):
    return bot.Table(
        seat=3,
        hand=hand,
        legal=legal or hand,
        trick=trick,
        trump=trump,
        friends=set(friends),
        players=players,
    )


def test_takes_points_cheaply_and_feeds_a_winning_friend():
    # Points on the table and a winner in hand: the cheapest winner.
    assert (
        bot.choose_play(table(["AH", "KH", "2H"], [(0, "TH"), (1, "4H"), (2, "3H")], legal=["AH", "KH", "2H"])) == "KH"
    )
    # A friend is winning and we play last: give it the points.
    assert bot.choose_play(table(["TH", "2H"], [(0, "4H"), (1, "AH"), (2, "3H")], friends=[1])) == "TH"
    # An opponent is winning and we cannot beat it: the card of least value.
    assert bot.choose_play(table(["TH", "2H"], [(0, "4H"), (1, "AH"), (2, "3H")], friends=[2])) == "2H"


def play_match(seed: int, bot_team: int) -> list[int]:
    """Teams of two; one team plays the computer player, the other random legal moves."""
    rng = random.Random(seed)
    state = start(players=4, team_sizes=[2, 2], seed=seed, target=500)
    teams = state["teams"]
    for _ in range(20000):
        if state["phase"] == MATCH_OVER:
            return state["result"]["scores"]
        if state["phase"] == COMPLETE:
            state = G.new_round(options=state["options"], players=4, seed=rng.randrange(1 << 30), carry=G.carry(state))
            continue
        seat = rng.choice(G.to_act(state))
        if teams[seat] == bot_team or state["phase"] == "round_over":
            action = G.bot_action(state, seat)
        else:
            options = without_claim(G.legal_actions(state, seat))
            action = dict(rng.choice(options))
        state = act(state, seat, action)
    raise AssertionError("the match did not end")


def test_bots_beat_random_players():
    wins = 0
    matches = 12
    for seed in range(matches):
        bot_team = seed % 2
        scores = play_match(seed, bot_team)
        bot_seats = [s for s in range(4) if (s in (0, 1)) == (bot_team == 0)]
        mine = max(scores[s] for s in bot_seats)
        theirs = max(scores[s] for s in range(4) if s not in bot_seats)
        wins += mine > theirs
    assert wins >= matches * 2 // 3, wins


def test_bot_actions_are_always_legal_in_every_phase():
    for players, mode in ((3, "cards"), (7, "cards"), (5, "random"), (2, "teams")):
        state = start(players=players, team_mode=mode, seed=players)
        for _ in range(400):
            if state["phase"] in ("round_over", MATCH_OVER):
                break
            seat = mover(state)
            state = G.apply(state, seat, G.bot_action(state, seat)).state
        assert state["phase"] in ("round_over", MATCH_OVER)


def test_the_bot_does_not_look_at_other_hands():
    """Shuffling the hands of the other players never changes the bot's choice."""
    deal = deal_of(4, s0=["AS", "2H"])
    state = auction(start(deal=deal, players=4), 125, None, None, None)
    state = act(state, 0, {"type": "trump", "suit": "S"})
    rng = random.Random(1)
    for _ in range(30):
        if state["phase"] != "play":
            break
        seat = mover(state)
        choice = G.bot_action(state, seat)
        others = [s for s in range(4) if s != seat]
        pool = [c for s in others for c in state["hands"][s]]
        rng.shuffle(pool)
        mixed = {**state, "hands": [list(h) for h in state["hands"]]}
        for s in others:
            size = len(state["hands"][s])
            mixed["hands"][s], pool = pool[:size], pool[size:]
        assert G.bot_action(mixed, seat) == choice
        state = act(state, seat, choice)
