"""Claiming the rest (games/rules/claims.py) in every game: certain claims are played out
as normal play, others refused with `claim_not_certain` and nothing changed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games import rules
from games.rules import claims
from games.rules.claims import NOT_CERTAIN_DETAIL
from tests.rules.support import CLAIM, refused

HEARTS = rules.get("hearts")
MOON = rules.get("moon")
KALI = rules.get("kali_tidi")


def end_of_hearts(hands: list[list[str]], turn: int, *, trick: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A Hearts hand with `hands` left to play (hearts broken), the rest taken by seat 3."""
    state = HEARTS.new_round(options={}, players=4, seed=0, carry={"round": 4, "scores": [0] * 4, "dealer": 0})
    left = len(hands[turn])
    played = [p["card"] for p in trick or []]
    held = {c for h in hands for c in h} | set(played)
    rest = [c for h in state["hands"] for c in h if c not in held]
    state.update(
        hands=[list(h) for h in hands],
        trick=list(trick or []),
        turn=turn,
        tricks_played=13 - left,
        hearts_broken=True,
        taken=[[], [], [], rest],
        tricks_taken=[0, 0, 0, 13 - left],
        points_taken=[0, 0, 0, 0],
        last_trick={"cards": [], "winner": 3},
    )
    return state


def played_out(game: Any, state: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The hand played on to the end of trick play, each player's first legal play."""
    events: list[dict[str, Any]] = []
    while state["phase"] == "play":
        seat = state["turn"]
        first = next(a for a in game.legal_actions(state, seat) if a["type"] == "play")
        applied = game.apply(state, seat, first)
        events += [e.data for e in applied.events]
        state = applied.state
    return state, events


def claim_events(game: Any, state: dict[str, Any], seat: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    applied = game.apply(state, seat, CLAIM)
    return applied.state, [e.data for e in applied.events]


# -- Hearts ------------------------------------------------------------------------------------


def test_claim_is_listed_in_every_trick_play_position_of_the_player_to_act_only():
    state = end_of_hearts([["AS", "KS"], ["2S", "3S"], ["4S", "5S"], ["6S", "7S"]], 0)
    assert HEARTS.legal_actions(state, 0)[-1] == CLAIM
    assert all(CLAIM not in HEARTS.legal_actions(state, s) for s in (1, 2, 3))
    # Listed just the same where it would fail.
    losing = end_of_hearts([["2S", "3S"], ["AS", "KS"], ["4S", "5S"], ["6S", "7S"]], 0)
    assert HEARTS.legal_actions(losing, 0)[-1] == CLAIM
    # Never outside trick play.
    passing = HEARTS.new_round(options={}, players=4, seed=0, carry={"round": 1, "scores": [0] * 4, "dealer": 0})
    assert all(CLAIM not in HEARTS.legal_actions(passing, s) for s in range(4))


def test_a_certain_hearts_claim_is_played_out_and_scored_like_normal_play():
    hands = [["AS", "KS", "AH"], ["2S", "3S", "2H"], ["4S", "5S", "3H"], ["6S", "7S", "4H"]]
    state = end_of_hearts(hands, 0)
    frozen = json.dumps(state, sort_keys=True)
    claimed, events = claim_events(HEARTS, state, 0)
    assert json.dumps(state, sort_keys=True) == frozen, "a claim changed its input"
    normal, normal_events = played_out(HEARTS, state)
    assert claimed == normal
    # The same events as normal play, each play marked as part of the claim.
    marked = [{**e, "claimed": True} if e["type"] == "play" else e for e in normal_events]
    assert events == [{"type": "claimed", "seat": 0}, *marked]
    assert claimed["phase"] == "round_over" and claimed["tricks_taken"][0] == 3
    assert HEARTS.result(claimed)["points"][0] == 4


def test_a_claim_may_count_on_the_current_trick():
    # Seat 0 led AS; seat 1 claims with the top spades and no spade left with others.
    hands = [["2D"], ["KS", "QS"], ["3S", "2C"], ["4S", "3C"]]
    state = end_of_hearts(hands, 1, trick=[{"seat": 0, "card": "AS"}])
    assert refused(HEARTS, state, 1, CLAIM).code == "claim_not_certain"  # AS takes this trick
    state = end_of_hearts(hands, 1, trick=[{"seat": 0, "card": "2S"}])
    claimed, _ = claim_events(HEARTS, state, 1)
    assert claimed["tricks_taken"][1] == 2


@pytest.mark.parametrize(
    "hands",
    [
        # Seat 2 holds the AH: if seat 0 leads the heart, it loses that trick.
        [["KS", "KH"], ["2S", "3S"], ["4S", "AH"], ["6S", "7S"]],
        # Seat 0's own choice matters too: a claim holds whatever anyone plays, its own plays included.
        [["AS", "2D"], ["2S", "AD"], ["4S", "5S"], ["6S", "7S"]],
    ],
)
def test_an_uncertain_hearts_claim_is_refused_and_changes_nothing(hands):
    state = end_of_hearts(hands, 0)
    err = refused(HEARTS, state, 0, CLAIM)
    assert (err.code, err.detail, err.attr) == ("claim_not_certain", NOT_CERTAIN_DETAIL, None)


def hearts_plays(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for a in HEARTS.legal_actions(state, state["turn"]) if a["type"] == "play"]


def test_running_out_of_budget_refuses_a_claim_that_would_hold():
    hands = [["AS", "KS", "QS", "JS"], ["2S", "3S", "2H", "3H"], ["4S", "5S", "4H", "5H"], ["6S", "7S", "6H", "7H"]]
    state = end_of_hearts(hands, 0)
    plays = hearts_plays

    def step(s: dict[str, Any], seat: int, action: dict[str, Any]) -> Any:
        return HEARTS.apply(s, seat, action)

    assert claims.is_certain(state, [0], plays=plays, step=step)
    assert not claims.is_certain(state, [0], plays=plays, step=step, budget=5)
    with pytest.raises(rules.RuleError) as info:
        claims.apply_claim(state, 0, [0], plays=plays, step=step, budget=5)
    assert (info.value.code, info.value.detail) == ("claim_not_certain", NOT_CERTAIN_DETAIL)


def test_claim_out_of_turn_or_out_of_trick_play_gets_the_usual_codes():
    state = end_of_hearts([["AS", "KS"], ["2S", "3S"], ["4S", "5S"], ["6S", "7S"]], 0)
    assert refused(HEARTS, state, 1, CLAIM).code == "not_your_turn"
    assert refused(HEARTS, state, 0, {"type": "claim", "tricks": 2}).code == "invalid"
    passing = HEARTS.new_round(options={}, players=4, seed=0, carry={"round": 1, "scores": [0] * 4, "dealer": 0})
    assert refused(HEARTS, passing, 0, CLAIM).code == "wrong_phase"


def test_a_claim_that_shoots_the_moon_leads_to_the_shooters_choice():
    state = end_of_hearts([["AH"], ["2S"], ["3S"], ["4S"]], 0)
    state["options"] = {**state["options"], "moon": "shooter_choice"}
    others = [c for c in state["taken"][3] if c[1] != "H" and c != "QS"]
    state["taken"] = [[c for c in state["taken"][3] if c[1] == "H" or c == "QS"], [], [], others]
    claimed, events = claim_events(HEARTS, state, 0)
    assert claimed["phase"] == "moon_choice" and claimed["moon_shooter"] == 0
    assert events[-1] == {"type": "moon_shot", "shooter": 0, "choice": None}


# -- Moon --------------------------------------------------------------------------------------


def moon_end(players: int, hands: list[list[str]], turn: int, trump: int = 6) -> dict[str, Any]:
    state = MOON.new_round(options={"players": players}, players=players, seed=3, carry=None)
    state.update(
        phase="play",
        hands=[list(h) for h in hands],
        trick=[],
        turn=turn,
        trump=trump,
        bid=4,
        bidder=0,
        tricks_played=7 - len(hands[turn]),
        tricks_taken=[7 - len(hands[turn])] + [0] * (players - 1),
        last_trick={"tiles": [], "winner": 0},
        widow=None,
    )
    return state


def test_moon_partners_count_as_the_claimants_side():
    # With four players seat 2's trump takes the second trick: good for seat 0's claim, as partners.
    hands = [["6-6", "5-0"], ["4-1", "3-1"], ["6-5", "2-2"], ["4-2", "3-2"]]
    state = moon_end(4, hands, 0)
    claimed, events = claim_events(MOON, state, 0)
    assert claimed == played_out(MOON, state)[0] and events[0] == {"type": "claimed", "seat": 0}
    assert claimed["phase"] == "round_over" and sum(claimed["tricks_taken"][s] for s in (0, 2)) == 7
    # Seat 1, an opponent, cannot count on seat 2's trump.
    hands = [["4-1", "3-1"], ["6-6", "5-0"], ["6-5", "2-2"], ["4-2", "3-2"]]
    assert refused(MOON, moon_end(4, hands, 1), 1, CLAIM).code == "claim_not_certain"


def test_moon_three_players_claim_alone():
    hands = [["6-6", "6-5"], ["4-1", "3-1"], ["4-2", "3-2"]]
    claimed, _ = claim_events(MOON, moon_end(3, hands, 0), 0)
    assert claimed["tricks_taken"][0] == 7
    hands = [["6-6", "5-5"], ["4-1", "6-5"], ["4-2", "3-2"]]
    assert refused(MOON, moon_end(3, hands, 0), 0, CLAIM).code == "claim_not_certain"


# -- Kali Tidi ---------------------------------------------------------------------------------


def kali_end(mode: str, hands: list[list[str]], turn: int, *, partners: list[int] | None = None) -> dict[str, Any]:
    players = len(hands)
    given: dict[str, Any] = {"players": players, "team_mode": mode}
    if mode == "teams":
        given["team_sizes"] = [2, 2]
    opts = KALI.game_options(given)
    teams = [0, 1, 0, 1] if mode != "cards" else None
    carry = {"host": 0, "teams": teams, "first_bidder": 0, "removed": [], "round": 2, "scores": [0] * players}
    state = KALI.new_round(options=opts, players=players, seed=1, carry=carry)
    state.update(
        phase="play",
        hands=[list(h) for h in hands],
        trick=[],
        turn=turn,
        trump="S",
        bid=125,
        bidder=0,
        called=["AD"] if mode == "cards" else [],
        partners=list(partners or []),
        plays_of_called={},
        last_trick={"cards": [], "winner": 0, "points": 0},
    )
    return state


def test_kali_tidi_teams_count_as_the_claimants_side():
    hands = [["AS", "2H"], ["2C", "3C"], ["KS", "3H"], ["4C", "5C"]]
    state = kali_end("teams", hands, 0)
    claimed, _ = claim_events(KALI, state, 0)
    assert claimed == played_out(KALI, state)[0] and claimed["phase"] in ("round_over", "match_over")
    # Seat 1's side (1 and 3) has no trump: leading a club, seat 0 or 2 ruffs.
    state = kali_end("teams", [["AS", "2H"], ["AC", "KC"], ["KS", "3H"], ["4C", "5C"]], 1)
    assert refused(KALI, state, 1, CLAIM).code == "claim_not_certain"


def test_kali_tidi_cards_mode_counts_only_revealed_partners():
    # Seat 2 wins the second trick with KS. Once it is a revealed partner, the bidder's
    # claim holds; unrevealed (though it holds the called card), it counts as an opponent,
    # so that the claim's answer cannot tell the table who the partner is.
    hands = [["AS", "2H"], ["2C", "3C"], ["KS", "3H"], ["4C", "5C"]]
    revealed = kali_end("cards", hands, 0, partners=[2])
    claimed, _ = claim_events(KALI, revealed, 0)
    assert claimed["tricks_taken"][0] + claimed["tricks_taken"][2] == 2
    hidden = kali_end("cards", [["AS", "2H"], ["2C", "3C"], ["KS", "AD"], ["4C", "5C"]], 0)
    assert refused(KALI, hidden, 0, CLAIM).code == "claim_not_certain"
    # The hidden partner, claiming, may not count on the bidder either.
    assert KALI.claim_side(hidden, 2) == [2] and KALI.claim_side(hidden, 1) == [1]
    assert KALI.claim_side(revealed, 2) == [0, 2] and KALI.claim_side(hidden, 0) == [0]
