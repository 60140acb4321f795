"""The search that judges a claim where the proof does not (games/rules/claim_search.py):
over every lie of the unseen pieces, a line chosen from what the claimant sees that wins
whatever anyone else plays.

Checked against the rules themselves: over small endings of every game, a claim's answer
is the same for every lie, and every accepted claim, followed along its line in every lie
with every reply anyone may make (not only the first legal one the play-out uses), takes
every remaining trick for the claimant's side."""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import rules
from games.rules import cards, claim_search
from games.rules.claim_search import Line, lie_count, lies, piece_of
from tests.rules.test_claims import CLAIM, _side, end_of_hearts, kali_end, moon_end

HEARTS = rules.get("hearts")
MOON = rules.get("moon")
KALI = rules.get("kali_tidi")
TILES = [f"{a}-{b}" for a in range(7) for b in range(a + 1)]


def test_lies_deal_the_unseen_pieces_every_distinct_way_copies_alike():
    pool = ["2C", "3C", "4C", "5C", "6C"]
    dealt = list(lies(pool, [2, 2, 1]))
    assert len(dealt) == lie_count(5, [2, 2, 1]) == math.factorial(5) // 4
    assert len({tuple(map(tuple, d)) for d in dealt}) == len(dealt)
    assert all(Counter(c for h in d for c in h) == Counter(pool) and list(map(len, d)) == [2, 2, 1] for d in dealt)
    assert all(h == sorted(h) for d in dealt for h in d)
    # Two decks: the two copies of a card are one piece twice; no lie is counted twice.
    copies = list(lies(["AS", "AS", "KS", "KS"], [2, 2]))
    assert sorted(map(str, copies)) == sorted(
        map(str, [[["AS", "AS"], ["KS", "KS"]], [["AS", "KS"], ["AS", "KS"]], [["KS", "KS"], ["AS", "AS"]]])
    )


def _relies(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """`state` under every lie of what `seat` cannot see (the other hands together)."""
    others = [s for s in range(state["players"]) if s != seat]
    pool = [p for s in others for p in state["hands"][s]]
    out = []
    for dealt in lies(pool, [len(state["hands"][s]) for s in others]):
        hands = [list(h) for h in state["hands"]]
        for s, hand in zip(others, dealt, strict=True):
            hands[s] = hand
        out.append({**state, "hands": hands})
    return out


def _wins_whatever_is_played(game: Any, state: dict[str, Any], seat: int, line: Line, side: set[int]) -> bool:
    """Following `line` for `seat`, every other seat playing anything legal: every trick
    goes to `side`."""
    if state["phase"] != "play":
        return True
    turn = state["turn"]
    plays = [a for a in game.legal_actions(state, turn) if a["type"] == "play"]
    if line.free:
        branches = [(a, line) for a in plays]
    elif turn == seat:
        branches = [(next(a for a in plays if piece_of(a) == line.play), line.then or claim_search.FREE)]
    else:
        branches = [(a, line.replies[piece_of(a)]) for a in plays]
    for action, then in branches:
        after = game.apply(state, turn, action).state
        if after["tricks_played"] > state["tricks_played"] and after["last_trick"]["winner"] not in side:
            return False
        if after["phase"] != "play" and after["tricks_played"] == state["tricks_played"] + 1:
            continue
        if not _wins_whatever_is_played(game, after, seat, then, side):
            return False
    return True


def _judged_alike_and_sound(game: Any, state: dict[str, Any], seat: int) -> bool:
    """The claim reads alike in every lie; where it holds, its line wins in every lie
    against every reply. Whether it holds."""
    answers = set()
    for other in _relies(state, seat):
        claim_search._judged.clear()
        line = game._claim_line(other, seat)
        answers.add(line is not None)
        assert (CLAIM in game.legal_actions(other, seat)) == (line is not None)
        if line is not None:
            assert _wins_whatever_is_played(game, other, seat, line, _side(game, other, seat))
    assert len(answers) == 1, "a claim's answer told how the unseen pieces lie"
    return answers.pop()


def _deal(rng: random.Random, deck: list[str], players: int, size: int) -> list[list[str]]:
    chosen = rng.sample(deck, players * size)
    return [sorted(chosen[i * size : (i + 1) * size]) for i in range(players)]


def _begin_trick(game: Any, state: dict[str, Any], lead: int, before: int, rng: random.Random) -> dict[str, Any]:
    """`state` with `before` seats, from `lead`, having played a random legal piece."""
    state = {**state, "turn": lead}
    for _ in range(before):
        plays = [a for a in game.legal_actions(state, state["turn"]) if a["type"] == "play"]
        state = game.apply(state, state["turn"], rng.choice(plays)).state
    return state


SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
ENDINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@ENDINGS
@given(SEEDS, st.integers(min_value=0, max_value=3))
def test_kali_tidi_endings_of_two_tricks(seed, before):
    rng = random.Random(seed)
    hands = _deal(rng, cards.deck(), 4, 2)
    lead = rng.randrange(4)
    state = kali_end("teams", hands, lead)
    state["trump"] = rng.choice(cards.SUITS)
    state = _begin_trick(KALI, state, lead, before, rng)
    _judged_alike_and_sound(KALI, state, state["turn"])


@ENDINGS
@given(SEEDS, st.integers(min_value=0, max_value=3))
def test_hearts_endings_of_two_tricks(seed, before):
    rng = random.Random(seed)
    hands = _deal(rng, cards.deck(), 4, 2)
    lead = rng.randrange(4)
    state = _begin_trick(HEARTS, end_of_hearts(hands, lead), lead, before, rng)
    _judged_alike_and_sound(HEARTS, state, state["turn"])


@ENDINGS
@given(SEEDS, st.integers(min_value=0, max_value=3), st.sampled_from([3, 4]))
def test_moon_endings_of_two_tricks(seed, before, players):
    rng = random.Random(seed)
    hands = _deal(rng, TILES, players, 2)
    lead = rng.randrange(players)
    state = moon_end(players, hands, lead, trump=rng.randrange(7))
    state = _begin_trick(MOON, state, lead, min(before, players - 1), rng)
    _judged_alike_and_sound(MOON, state, state["turn"])


def test_a_line_answers_each_reply_the_claimant_may_see():
    # Clubs trumps: AC first draws the KC wherever it lies; the line then plays the AS
    # whatever was played to the first trick.
    state = kali_end("teams", [["AS", "AC"], ["KC", "2S"], ["2D", "3D"], ["6D", "5D"]], 0)
    state["trump"] = "C"
    line = KALI._claim_line(state, 0)
    assert line is not None and not line.free and line.play == "AC"
    first_reply = line.then
    assert first_reply is not None and set(first_reply.replies) == {"KC", "2S", "6D", "5D", "2D", "3D"}
    assert _judged_alike_and_sound(KALI, state, 0)


def test_a_claim_past_the_searchs_bounds_is_refused_whatever_the_lie():
    # Four tricks left at a table of four: 16 pieces in the hands and 34,650 lies of the
    # twelve unseen cards, more than the search takes on. The claim (AS drawing the last
    # trump, then three aces) would hold, but is past what is judged on a view; it is
    # refused in every lie alike.
    hands = [["AS", "AH", "AD", "AC"], ["2S", "2H", "2D", "2C"], ["3S", "3H", "3D", "3C"], ["4H", "4D", "4C", "5C"]]
    assert 16 > claim_search.PIECES and lie_count(12, [4, 4, 4, 0]) > claim_search.WORLDS
    state = kali_end("teams", hands, 0)
    assert KALI._claim_line(state, 0) is None
    moved = kali_end("teams", [hands[0], hands[2], hands[1], hands[3]], 0)
    assert KALI._claim_line(moved, 0) is None
