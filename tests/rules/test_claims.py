"""Claiming the rest (games/rules/claims.py) in every game: a claim is judged on what the
claimant knows, listed exactly where it holds (the same for every lie of the unseen
pieces), played out as normal play; others are refused with `claim_not_certain` and
nothing changed."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games import rules
from games.rules import claims, templates
from games.rules.claims import NOT_CERTAIN_DETAIL
from games.rules.conformance import first_carry
from games.rules.moon.engine import side_of as moon_side_of
from games.rules.moon.engine import sides as moon_sides
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


def test_claim_is_listed_exactly_where_it_holds_for_the_player_to_act_only():
    state = end_of_hearts([["AS", "KS"], ["2S", "3S"], ["4S", "5S"], ["6S", "7S"]], 0)
    assert HEARTS.legal_actions(state, 0)[-1] == CLAIM
    assert all(CLAIM not in HEARTS.legal_actions(state, s) for s in (1, 2, 3))
    # Not listed where it would be refused.
    losing = end_of_hearts([["2S", "3S"], ["AS", "KS"], ["4S", "5S"], ["6S", "7S"]], 0)
    assert CLAIM not in HEARTS.legal_actions(losing, 0)
    assert refused(HEARTS, losing, 0, CLAIM).code == "claim_not_certain"
    # Never outside trick play.
    passing = HEARTS.new_round(options={}, players=4, seed=0, carry={"round": 1, "scores": [0] * 4, "dealer": 0})
    assert all(CLAIM not in HEARTS.legal_actions(passing, s) for s in range(4))


def test_four_top_hearts_are_claimed_at_a_glance():
    # The AH is gone; seat 0 holds the next four, hearts broken, four tricks left: the
    # whole tree of plays is large, the proof is one look at each card.
    hands = [["TH", "JH", "QH", "KH"], ["2H", "3H", "2S", "3S"], ["4H", "5H", "4S", "5S"], ["6H", "9H", "6S", "7S"]]
    state = end_of_hearts(hands, 0)
    assert HEARTS.legal_actions(state, 0)[-1] == CLAIM
    claimed, _ = claim_events(HEARTS, state, 0)
    assert claimed["tricks_taken"][0] == 4


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


def test_claim_out_of_turn_or_out_of_trick_play_gets_the_usual_codes():
    state = end_of_hearts([["AS", "KS"], ["2S", "3S"], ["4S", "5S"], ["6S", "7S"]], 0)
    assert refused(HEARTS, state, 1, CLAIM).code == "not_your_turn"
    assert refused(HEARTS, state, 0, {"type": "claim", "tricks": 2}).code == "invalid"
    passing = HEARTS.new_round(options={}, players=4, seed=0, carry={"round": 1, "scores": [0] * 4, "dealer": 0})
    assert refused(HEARTS, passing, 0, CLAIM).code == "wrong_phase"


def test_a_claim_that_shoots_the_moon_leads_to_the_shooters_choice():
    state = end_of_hearts([["AH", "KH"], ["2S", "3S"], ["4S", "5S"], ["6S", "7S"]], 0)
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


def test_moon_top_trumps_are_claimed_and_a_partners_winning_tile_counts():
    # Trumps are sixes: seat 0 holds the two highest, no higher tile is unseen.
    hands = [["6-6", "6-5"], ["4-1", "3-1"], ["6-4", "2-2"], ["4-2", "3-2"]]
    state = moon_end(4, hands, 0)
    claimed, events = claim_events(MOON, state, 0)
    assert claimed == played_out(MOON, state)[0] and events[0] == {"type": "claimed", "seat": 0}
    assert claimed["tricks_taken"][0] == 7
    # The trick before the last, fours led and seat 2's 6-6 on them: its partner seat 0,
    # out of fours, may claim, keeping the 6-5 (then the top trump) for the last, though
    # it cannot take this one; seat 1, an opponent, in the same place may not.
    last = moon_end(4, [["2-1", "6-5"], ["3-1"], ["3-3"], ["5-5"]], 0)
    last["trick"] = [{"seat": 1, "tile": "4-1"}, {"seat": 2, "tile": "6-6"}, {"seat": 3, "tile": "4-3"}]
    claimed, _ = claim_events(MOON, last, 0)
    assert (claimed["tricks_taken"][0], claimed["tricks_taken"][2]) == (6, 1)
    other = moon_end(4, [["3-3"], ["3-1", "6-5"], ["4-4"], ["5-5"]], 1)
    other["trick"] = [{"seat": 2, "tile": "6-6"}, {"seat": 3, "tile": "4-2"}, {"seat": 0, "tile": "2-1"}]
    assert refused(MOON, other, 1, CLAIM).code == "claim_not_certain"


def test_moon_three_players_claim_alone():
    hands = [["6-6", "6-5"], ["4-1", "3-1"], ["4-2", "3-2"]]
    claimed, _ = claim_events(MOON, moon_end(3, hands, 0), 0)
    assert claimed["tricks_taken"][0] == 7
    # A lower trump out: led first, the 6-6 draws it (its holder must follow trumps), and
    # the 5-5 is then the top tile left. The claim is played out along that line.
    hands = [["5-5", "6-6"], ["4-1", "6-5"], ["4-2", "3-2"]]
    claimed, events = claim_events(MOON, moon_end(3, hands, 0), 0)
    assert claimed["tricks_taken"][0] == 7
    assert [e["tile"] for e in events if e["type"] == "play" and e["seat"] == 0] == ["6-6", "5-5"]
    # The 5-4 instead: the 5-5 may be out, and whoever holds it takes the second trick.
    hands = [["5-4", "6-6"], ["5-5", "6-5"], ["4-2", "3-2"]]
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


def kali_hands(*hands: list[str]) -> list[list[str]]:
    return [list(h) for h in hands]


def test_kali_tidi_top_trumps_with_trumps_drawn_are_claimed():
    # Spades are trumps and no other spade is left: seat 0's AS and KS take both tricks.
    state = kali_end("teams", kali_hands(["AS", "KS"], ["2C", "3C"], ["4H", "3H"], ["4C", "5C"]), 0)
    assert KALI.legal_actions(state, 0)[-1] == CLAIM
    claimed, _ = claim_events(KALI, state, 0)
    assert claimed == played_out(KALI, state)[0] and claimed["tricks_taken"][0] == 2
    # One lower trump still out: led first, the AS draws it (its holder must follow), and
    # the AH is then the top card left, wherever the 3S lay.
    state = kali_end("teams", kali_hands(["AH", "AS"], ["2C", "3C"], ["4H", "3S"], ["4C", "5C"]), 0)
    claimed, events = claim_events(KALI, state, 0)
    assert claimed["tricks_taken"][0] == 2
    assert [e["card"] for e in events if e["type"] == "play" and e["seat"] == 0] == ["AS", "AH"]
    # Two lower trumps out: one lie holds both in one opponent's hand, who ruffs the AH.
    state = kali_end("teams", kali_hands(["AS", "AH"], ["2C", "3C"], ["4H", "3S"], ["4C", "4S"]), 0)
    assert CLAIM not in KALI.legal_actions(state, 0)
    assert refused(KALI, state, 0, CLAIM).code == "claim_not_certain"


def test_a_claims_answer_is_the_same_for_every_lie_of_the_unseen_cards():
    # Clubs trumps, two tricks left, seat 0 on lead with AS AC, its partner 2D 3D, the KC
    # out. Where seat 1's KC lies with the 2S (it must follow a spade) every line wins;
    # where it lies with a diamond, leading the AS first loses. The claimant sees the
    # same in both, and the claim is judged on that: accepted in both, played out by the
    # line that wins in both (the AC first, drawing the KC).
    answers = set()
    for one, three in ((["KC", "2S"], ["6D", "5D"]), (["KC", "6D"], ["2S", "5D"])):
        state = kali_end("teams", kali_hands(["AS", "AC"], one, ["2D", "3D"], three), 0)
        state["trump"] = "C"
        answers.add(CLAIM in KALI.legal_actions(state, 0))
        try:
            claimed, events = claim_events(KALI, state, 0)
            answers.add("accepted")
            assert claimed["tricks_taken"][0] + claimed["tricks_taken"][2] == 2
            assert [e["card"] for e in events if e["type"] == "play" and e["seat"] == 0] == ["AC", "AS"]
        except rules.RuleError as err:
            answers.add(err.code)
    assert answers == {True, "accepted"}


def test_kali_tidi_teams_count_as_the_claimants_side():
    # The trick before the last: seat 2's AS (the top trump) is on the table; seat 0,
    # out of clubs, plays after it and keeps its KS, then the top trump, for the last.
    hands = kali_hands(["2H", "KS"], ["2C"], ["5D"], ["6C"])
    state = kali_end("teams", hands, 0)
    state["trick"] = [{"seat": 1, "card": "3C"}, {"seat": 2, "card": "AS"}, {"seat": 3, "card": "4C"}]
    claimed, _ = claim_events(KALI, state, 0)
    assert claimed == played_out(KALI, state)[0] and claimed["phase"] in ("round_over", "match_over")
    # Seat 1, last to a trick seat 2's AS takes: seat 2 is no partner of its.
    other = kali_end("teams", kali_hands(["5H"], ["2H", "KS"], ["5D"], ["6C"]), 1)
    other["trick"] = [{"seat": 2, "card": "AS"}, {"seat": 3, "card": "3C"}, {"seat": 0, "card": "5C"}]
    assert refused(KALI, other, 1, CLAIM).code == "claim_not_certain"


def test_kali_tidi_cards_mode_counts_only_revealed_partners():
    # The trick before the last, seat 2's AS on the table and seat 0, the bidder, to
    # play, keeping its KS (then the top trump) for the last. Once seat 2 is a revealed partner the
    # bidder's claim holds; unrevealed (though it holds the called card), it counts as an
    # opponent, so that the claim's answer cannot tell the table who the partner is.
    def last_trick(partners: list[int]) -> dict[str, Any]:
        state = kali_end("cards", kali_hands(["2H", "KS"], ["2C"], ["AD"], ["6C"]), 0, partners=partners)
        state["trick"] = [{"seat": 1, "card": "3C"}, {"seat": 2, "card": "AS"}, {"seat": 3, "card": "4C"}]
        return state

    claimed, _ = claim_events(KALI, last_trick([2]), 0)
    assert claimed["tricks_taken"][2] == 1
    assert refused(KALI, last_trick([]), 0, CLAIM).code == "claim_not_certain"
    hidden = kali_end("cards", [["AS", "2H"], ["2C", "3C"], ["KS", "AD"], ["4C", "5C"]], 0)
    # The hidden partner, claiming, may not count on the bidder either.
    assert KALI.claim_side(hidden, 2) == [2] and KALI.claim_side(hidden, 1) == [1]
    assert KALI.claim_side(last_trick([2]), 2) == [0, 2] and KALI.claim_side(hidden, 0) == [0]


def test_no_claim_is_offered_with_one_piece_left():
    # Seat 0 would take the last trick whatever came, but its claim would be that play.
    state = end_of_hearts([["AH"], ["2S"], ["3S"], ["4S"]], 0)
    assert CLAIM not in HEARTS.legal_actions(state, 0)
    assert refused(HEARTS, state, 0, CLAIM).code == "claim_not_certain"
    moon = moon_end(4, [["6-6"], ["3-1"], ["4-2"], ["3-2"]], 0)
    assert CLAIM not in MOON.legal_actions(moon, 0)


# -- the same answer for every lie ---------------------------------------------------------------


def _side(game: Any, state: dict[str, Any], seat: int) -> set[int]:
    """The seats whose tricks count for `seat`'s claim."""
    if game is KALI:
        return set(KALI.claim_side(state, seat))
    if game is MOON and state["players"] == 4:
        return set(moon_sides(4)[moon_side_of(seat, 4)])
    return {seat}


def _relie(state: dict[str, Any], seat: int, rng: Any) -> dict[str, Any]:
    """`state` with the other seats' hands dealt again from their pieces together, each
    keeping its size: another lie of what `seat` cannot see."""
    others = [s for s in range(state["players"]) if s != seat]
    pool = [p for s in others for p in state["hands"][s]]
    rng.shuffle(pool)
    hands = [list(h) for h in state["hands"]]
    for s in others:
        size = len(hands[s])
        hands[s], pool = sorted(pool[:size]), pool[size:]
    return {**state, "hands": hands}


@pytest.mark.parametrize(
    ("game", "options"),
    [
        (HEARTS, {}),
        (MOON, {"players": 4}),
        (KALI, {"players": 4, "team_mode": "teams"}),
        (KALI, {"players": 5, "team_mode": "cards", "decks": 2}),
    ],
    ids=["hearts", "moon-4", "kali-teams", "kali-cards-2decks"],
)
def test_at_every_trick_play_position_the_claim_reads_alike_for_every_lie(game, options):
    """Whether `claim` is listed, and so whether it is accepted, is the same for other
    lies of the unseen pieces; an accepted claim, on any of them, takes every remaining
    trick for the claimant's side."""
    rng = random.Random(f"{game.key}{options}")
    opts = game.validate_options(options)
    players = game.seat_count(opts)
    listed_seen = positions = 0
    for hand in range(6):
        carry = first_carry(game, opts, players, hand)
        state = game.new_round(options=opts, players=players, seed=hand, carry=carry)
        for _ in range(400):
            to_act = game.to_act(state)
            if not to_act or state["phase"] not in ("play", *game.phase_actions):
                break
            seat = to_act[0]
            legal = game.legal_actions(state, seat)
            if state["phase"] == "play":
                positions += 1
                listed = CLAIM in legal
                listed_seen += listed
                for _ in range(3):
                    other = _relie(state, seat, rng)
                    assert (CLAIM in game.legal_actions(other, seat)) == listed, (game.key, state["trick"])
                    if listed:
                        before = list(other["tricks_taken"])
                        claimed = game.apply(other, seat, CLAIM).state
                        gained = [a - b for a, b in zip(claimed["tricks_taken"], before, strict=True)]
                        takers = {s for s, n in enumerate(gained) if n}
                        assert takers <= _side(game, other, seat), (takers, seat)
                if listed:
                    state = game.apply(state, seat, CLAIM).state
                    continue
            plays = [a for a in legal if a["type"] != "claim"]
            action = rng.choice(plays)
            if "choices" in action:
                action = templates.concrete(action, game.action_fields[action["type"]], rng)
            state = game.apply(state, seat, action).state
    assert positions > 100 and listed_seen > 0, (positions, listed_seen)


def test_computer_players_play_on_where_a_claim_holds():
    # They choose among plays: a claim that holds is the player's to make, not theirs.
    moon = moon_end(4, [["6-6", "6-5"], ["4-1", "3-1"], ["6-4", "2-2"], ["4-2", "3-2"]], 0)
    assert CLAIM in MOON.legal_actions(moon, 0) and MOON.bot_action(moon, 0)["type"] == "play"
    kali = kali_end("teams", kali_hands(["AS", "KS"], ["2C", "3C"], ["4H", "3H"], ["4C", "5C"]), 0)
    assert CLAIM in KALI.legal_actions(kali, 0) and KALI.bot_action(kali, 0)["type"] == "play"
    hearts = end_of_hearts([["AS", "KS"], ["2S", "3S"], ["4S", "5S"], ["6S", "7S"]], 0)
    assert CLAIM in HEARTS.legal_actions(hearts, 0) and HEARTS.bot_action(hearts, 0)["type"] == "play"


def test_only_a_claimant_who_may_list_it_pays_for_the_proof(monkeypatch):
    # Computer players and forced plays never claim: they ask without it, and the proof
    # and search (claims.judge) do not run for them; the same position asked for the
    # player's view still lists the claim.
    positions = [
        (MOON, moon_end(4, [["6-6", "6-5"], ["4-1", "3-1"], ["6-4", "2-2"], ["4-2", "3-2"]], 0)),
        (KALI, kali_end("teams", kali_hands(["AS", "KS"], ["2C", "3C"], ["4H", "3H"], ["4C", "5C"]), 0)),
        (HEARTS, end_of_hearts([["AS", "KS"], ["2S", "3S"], ["4S", "5S"], ["6S", "7S"]], 0)),
    ]
    judged: list[str] = []
    real_judge = claims.judge

    def counting(*args: Any, **kwargs: Any) -> Any:
        judged.append("judged")
        return real_judge(*args, **kwargs)

    monkeypatch.setattr(claims, "judge", counting)
    for game, state in positions:
        judged.clear()
        without = game.legal_actions(state, 0, with_claim=False)
        assert CLAIM not in without and judged == []
        assert game.bot_action(state, 0)["type"] == "play" and judged == []
        assert game.legal_actions(state, 0) == [*without, CLAIM] and judged == ["judged"]
