"""The Hearts computer player: always legal, deterministic, blind to other hands, and good."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.rules import templates
from games.rules.hearts import bot as hearts_bot
from games.rules.hearts.bot import Table
from tests.rules.support import bot_choice, check_bot_matches, check_bot_refuses, redeal_hidden, without_claim

from .test_hearts_rules import SUITS_DEAL, G, act, play_out, start

OPTION_SETS = [
    {},
    {"preset": "sweedo"},
    {"preset": "sweedo", "fourth_hand": "funky"},
    {"moon": "shooter_choice", "lead_any_club": True},
    {"queen_breaks_hearts": True, "fourth_hand": "funky", "target": 30},
]


def play_bots(state: dict[str, Any], *, until: tuple[str, ...] = ("match_over",)) -> dict[str, Any]:
    """Let the bot play every seat, checking each choice against the legal actions."""
    for _ in range(5000):
        if state["phase"] in until:
            return state
        if state["phase"] == "complete":
            carry = G.carry(state)
            state = G.new_round(options=state["options"], players=4, seed=state["round"], carry=carry)
            continue
        for seat in G.to_act(state):
            action = bot_choice(G, state, seat)
            legal = G.legal_actions(state, seat)
            if action["type"] == "pass_cards":
                (template,) = legal
                picked = action["cards"]
                assert set(picked) <= set(template["choices"]) and len(set(picked)) == 3
                # A funky pass names the seat of each card: `to` is the template's, in any order.
                assert set(action) == set(template) - {"count", "choices"} | {"cards"}
                if "to" in template:
                    assert sorted(action["to"]) == template["to"] and len(action["to"]) == 3
            else:
                assert action in legal
            state = act(state, seat, action)
            break
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("options", OPTION_SETS)
def test_bots_play_whole_matches_legally(options):
    check_bot_matches(G, options, 4, play_bots)


def test_bot_acts_only_for_a_seat_to_act():
    state = start(SUITS_DEAL)
    check_bot_refuses(G, state, 1)
    assert G.bot_action(state, 0) == {"type": "play", "card": "2C"}


def test_bot_is_ready_between_hands():
    state = play_bots(start(SUITS_DEAL), until=("round_over",))
    assert G.bot_action(state, 2) == {"type": "next_round"}
    assert G.timeout_action(state, 2) == {"type": "next_round"}


def test_bot_sees_only_its_own_hand():
    """Shuffling the cards the bot cannot see between the other hands changes nothing."""
    rng = random.Random(3)
    checked = 0
    for seed in range(40):
        carry = {"round": 4, "scores": [0] * 4, "dealer": 0}
        state = G.new_round(options={}, players=4, seed=seed, carry=carry)
        while state["phase"] == "play":
            (seat,) = G.to_act(state)
            choice = G.bot_action(state, seat)
            others = [s for s in range(4) if s != seat]
            pool = [c for s in others for c in state["hands"][s]]
            hidden, _ = redeal_hidden(state, others, pool, rng)
            assert G.bot_action(hidden, seat) == choice
            checked += 1
            state = act(state, seat, choice)
    assert checked > 1000


# -- passing -------------------------------------------------------------------------------


def passes(hand: str, jack: int = 0) -> set[str]:
    return set(hearts_bot.choose_pass(hand=hand.split(), to=None, scores=[0] * 4, jack=jack)["cards"])


def test_pass_gets_rid_of_the_queen_and_high_spades():
    assert passes("2C 3C 4C 5D 6D 8D 9H AH QS AS KS 2S 3S") == {"QS", "AS", "KS"}


def test_pass_gets_rid_of_high_hearts():
    assert passes("2C 3C 7C 9C JC 4D 6D 2S 5S KH AH QH 3H") == {"AH", "KH", "QH"}


def test_pass_empties_a_short_suit():
    assert passes("2C 3C 4C 5C 6C 7C 8C 2S 3S 4S 5S 9D KD") == {"KD", "9D", "8C"}


def test_pass_keeps_a_valuable_jack_of_diamonds():
    assert "JD" in passes("2C 3C 4C 2S 3S 4S 5S 6S 7S JD 2H 3H 4H", jack=0)
    assert "JD" not in passes("2C 3C 4C 2S 3S 4S 5S 6S 7S JD 2H 3H 4H", jack=-10)


def test_funky_pass_sends_the_worst_card_to_the_match_leader():
    action = hearts_bot.choose_pass(
        hand=["2C", "3C", "4C", "5D", "6D", "8D", "9H", "AH", "QS", "AS", "KS", "2S", "3S"],
        to=[0, 2, 3],
        scores=[40, 50, 10, 30],
        jack=0,
    )
    assert action == {"type": "pass_cards", "cards": ["QS", "AS", "KS"], "to": [2, 3, 0]}


def test_funky_pass_through_the_engine():
    state = start(options={"fourth_hand": "funky"}, hand=8, seed=11)
    for seat in range(4):
        state = act(state, seat, G.bot_action(state, seat))
    assert state["phase"] == "play"


# -- playing ---------------------------------------------------------------------------------


def table(hand: str, legal: str | None = None, trick: str = "", played: str = "", **extra: Any) -> Table:
    cards = hand.split()
    on_table = trick.split()
    return Table(
        seat=len(on_table),
        hand=cards,
        legal=legal.split() if legal is not None else cards,
        trick=list(enumerate(on_table)),
        played=set(played.split()),
        **extra,
    )


def test_follow_ducks_with_the_highest_card_that_loses():
    t = table("3C 9C KC 4D", legal="3C 9C KC", trick="TC")
    assert hearts_bot.choose_play(t) == "9C"


def test_follow_drops_the_queen_under_a_higher_spade():
    t = table("3S QS KS 4D", legal="3S QS KS", trick="AS 2S")
    assert hearts_bot.choose_play(t) == "QS"


def test_last_to_play_on_a_clean_trick_takes_it_high():
    t = table("JC KC 4D", legal="JC KC", trick="2C 5C TC")
    assert hearts_bot.choose_play(t) == "KC"


def test_cannot_duck_on_hearts_stays_low():
    t = table("9H KH 4D", legal="9H KH", trick="5H")
    assert hearts_bot.choose_play(t) == "9H"


def test_void_dumps_queen_then_high_spades_then_high_hearts():
    assert hearts_bot.choose_play(table("QS AH 4D", trick="2C")) == "QS"
    assert hearts_bot.choose_play(table("AS AH 4D", trick="2C")) == "AS"
    assert hearts_bot.choose_play(table("2S AH 4D", trick="2C")) == "AH"
    assert hearts_bot.choose_play(table("2S 3H KD", trick="2C")) == "KD"


def test_void_keeps_a_valuable_jack():
    assert hearts_bot.choose_play(table("JD 9S 4D", trick="2C", jack=-10)) == "9S"
    assert hearts_bot.choose_play(table("JD 9S 4D", trick="2C", jack=0)) == "JD"


def test_last_to_play_takes_the_jack_when_it_is_worth_it():
    t = table("QD 3D 5C", legal="QD 3D", trick="2D JD 9D", jack=-10)
    assert hearts_bot.choose_play(t) == "QD"


def test_lead_low_from_a_safe_suit_and_not_hearts():
    t = table("2D KD 3H 9C AS", legal="2D KD 9C AS")
    assert hearts_bot.choose_play(t) == "2D"


def test_lead_avoids_high_spades_while_the_queen_is_out():
    t = table("AS KS 8C", legal="AS KS 8C")
    assert hearts_bot.choose_play(t) == "8C"


def test_lead_avoids_a_suit_nobody_else_can_follow():
    diamonds = " ".join(r + "D" for r in "23456789TJQK")
    t = table("AD 9C", legal="AD 9C", played=diamonds)
    assert hearts_bot.choose_play(t) == "9C"


# -- the moon --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "target", "choice"),
    [
        # Adding 26 to the others ends the match with the shooter lowest: take it.
        ([0, 80, 90, 95], 100, "plus_others"),
        ([50, 80, 70, 60], 100, "plus_others"),
        # Adding 26 ends the match with someone else lowest: go down instead.
        ([80, 75, 10, 10], 100, "minus_self"),
        # The match goes on either way: behind, keep it going; ahead, bring the end nearer.
        ([90, 10, 20, 30], 200, "minus_self"),
        ([10, 20, 30, 40], 200, "plus_others"),
    ],
)
@pytest.mark.parametrize("options", [{"moon": "shooter_choice"}, {"preset": "sweedo"}])
def test_moon_choice(scores, target, choice, options):
    state = play_out(start(SUITS_DEAL, {**options, "target": target}, scores=scores))
    assert state["phase"] == "moon_choice"
    assert G.bot_action(state, 0) == {"type": "moon_choice", "choice": choice}


def test_choose_moon_directly():
    outcomes = {"minus_self": ([-26, 0, 0, 0], False), "plus_others": ([0, 26, 26, 26], False)}
    assert hearts_bot.choose_moon(0, outcomes) == "plus_others"
    outcomes = {"minus_self": ([74, 0, 0, 0], False), "plus_others": ([100, 26, 26, 26], True)}
    assert hearts_bot.choose_moon(0, outcomes) == "minus_self"


# -- strength --------------------------------------------------------------------------------


def test_bot_takes_clearly_fewer_points_than_random_players():
    """One bot against three random players over 200 fixed hands, the bot's seat rotating."""
    bot_points = 0
    random_points = 0
    hands = 200
    for i in range(hands):
        rng = random.Random(1000 + i)
        bot = i % 4
        carry = {"round": i % 4 + 1, "scores": [0] * 4, "dealer": 0}
        state = G.new_round(options={}, players=4, seed=1000 + i, carry=carry)
        while state["phase"] in ("pass", "play", "moon_choice"):
            seat = G.to_act(state)[0]
            if seat == bot:
                action = G.bot_action(state, seat)
            else:
                legal = rng.choice(without_claim(G.legal_actions(state, seat)))
                action = templates.concrete(legal, G.action_fields[legal["type"]], rng)
            state = act(state, seat, action)
        points = G.result(state)["points"]
        bot_points += points[bot]
        random_points += sum(points) - points[bot]
    bot_mean = bot_points / hands
    random_mean = random_points / (3 * hands)
    assert bot_mean < 0.5 * random_mean, (bot_mean, random_mean)


def test_bot_scores_well_with_sweedo_rules():
    bot_points = 0
    random_points = 0
    for i in range(100):
        rng = random.Random(i)
        bot = i % 4
        state = G.new_round(
            options={"preset": "sweedo"}, players=4, seed=i, carry={"round": i % 4 + 1, "scores": [0] * 4}
        )
        while state["phase"] in ("pass", "play", "moon_choice"):
            seat = G.to_act(state)[0]
            if seat == bot:
                action = G.bot_action(state, seat)
            else:
                legal = rng.choice(without_claim(G.legal_actions(state, seat)))
                action = templates.concrete(legal, G.action_fields[legal["type"]], rng)
            state = act(state, seat, action)
        points = G.result(state)["points"]
        bot_points += points[bot]
        random_points += sum(points) - points[bot]
    assert bot_points / 100 < random_points / 300 - 3
