"""Random play-outs of Kali Tidi over every players x decks x team mode x option set.

Each combination plays hands chained through carry() with fixed seeds; moves are random
legal actions or the computer player's. Checks:

- every step: every card is somewhere once (hands, the trick, tricks taken, removed);
  exactly the seats to act have legal actions and the chosen one is accepted;
  no view or visible event holds a card the viewer may not know (another hand's cards);
- hidden partners, every step of sampled hands: before a partner is revealed no viewer
  but that partner can tell — every other viewer's view and visible events are the same
  as in the same state with the partner's hand swapped with another player's, and the
  legal actions of the seat to act do not depend on the called cards;
- the end of every hand: 250 or 500 points taken, scores per the rules, and (sampled) the
  hand rebuilt from new_round(seed) plus its actions equals the final state.
"""

from __future__ import annotations

import itertools
import json
import random
import zlib
from collections import Counter
from typing import Any

import pytest

from games.rules import cards
from games.rules.base import COMPLETE, MATCH_OVER
from games.rules.kali_tidi import callable_cards, card_points
from tests.rules.support import pieces_in

from .test_kali_tidi_rules import G

pytestmark = pytest.mark.slow

DECK = frozenset(cards.deck())


def combos() -> list[dict[str, Any]]:
    out = []
    for players, decks, mode, trump_card in itertools.product(
        range(2, 8), (1, 2), ("teams", "random", "cards"), ("none", "three_of_spades")
    ):
        if players == 2 and mode != "teams":
            continue
        rules = ("first", "last") if mode == "cards" and decks == 2 else ("first",)
        for rule in rules:
            out.append(
                {"players": players, "decks": decks, "team_mode": mode, "trump_card": trump_card, "partner_rule": rule}
            )
    return out


COMBOS = combos()
HANDS_PER_COMBO = 20
BOT_SHARE = 0.5
DEEP_EVERY = 4  # hands whose every step gets the partner-swap check and a replay


def cards_in(obj: dict[str, Any] | list[Any]) -> set[str]:
    return pieces_in(obj, DECK)


def concrete(template: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if "choices" in template:
        choices = list(template["choices"])
        rng.shuffle(choices)
        picked: list[str] = []
        for card in choices:
            if len(picked) == template["count"]:
                break
            if template["type"] == "call_partners" and card in picked:
                continue
            picked.append(card)
        return {"type": template["type"], "cards": picked}
    return dict(template)


def check_cards(state: dict[str, Any], taken: Counter) -> None:
    here = Counter(c for h in state["hands"] for c in h)
    here += Counter(p["card"] for p in state["trick"])
    here += taken + Counter(state["removed"])
    assert here == Counter(cards.deck(state["options"]["decks"]))


def known_to(state: dict[str, Any], viewer: int | None, played: set[str]) -> set[str]:
    """Cards the viewer may see named: its hand, what was played, removed, called."""
    mine = set(state["hands"][viewer]) if viewer is not None else set()
    # The trump card option names 3♠ as a rule, not as anybody's card.
    rule = {"3S"} if state["options"]["trump_card"] == "three_of_spades" else set()
    # The bidder's list of cards it may call names every code it does not hold all of:
    # worked out from its own hand, it says nothing of who holds them.
    calling = set(callable_cards(state, viewer)) if state["phase"] == "call" and viewer == state["bidder"] else set()
    return mine | played | set(state["removed"]) | set(state["called"]) | rule | calling


def check_no_card_leak(state: dict[str, Any], events: list[Any], played: set[str]) -> None:
    players = state["players"]
    for viewer in [*range(players), None]:
        allowed = known_to(state, viewer, played)
        others = {c for s in range(players) if s != viewer for c in state["hands"][s]} - allowed
        assert not cards_in(G.view(state, viewer)) & others, f"view of {viewer} shows another hand"
        for event in events:
            if event.visible(viewer):
                assert not cards_in(event.data) & others, f"event {event.data} leaks to {viewer}"


def check_partners_hidden(state: dict[str, Any], events: list[Any]) -> None:
    """An unrevealed partner's hand swapped with another non-bidder's (same size) must
    change nothing any third viewer sees."""
    if state["options"]["team_mode"] != "cards" or not state["called"]:
        return
    players, bidder = state["players"], state["bidder"]
    holders = [
        s
        for s in range(players)
        if s != bidder and s not in state["partners"] and any(c in state["called"] for c in state["hands"][s])
    ]
    for holder in holders:
        for other in range(players):
            if other in (holder, bidder) or len(state["hands"][other]) != len(state["hands"][holder]):
                continue
            swapped = json.loads(json.dumps(state))
            swapped["hands"][holder], swapped["hands"][other] = state["hands"][other], state["hands"][holder]
            for viewer in [*range(players), None]:
                if viewer in (holder, other):
                    continue
                assert G.view(state, viewer) == G.view(swapped, viewer), "a view depends on who holds a called card"
    to_act = G.to_act(state)
    if to_act and state["phase"] == "play":
        seat = to_act[0]
        blind = {**state, "called": [], "partners": list(state["partners"])}
        assert G.legal_actions(state, seat) == G.legal_actions(blind, seat)


def replay(options: dict[str, Any], seed: int, carry: dict[str, Any], actions: list[tuple[int, Any]]):
    state = G.new_round(options=options, players=options["players"], seed=seed, carry=carry)
    for seat, action in actions:
        state = G.apply(state, seat, action).state
    return state


def play_combo(options: dict[str, Any], seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    opts = G.validate_options(options)
    players = opts["players"]
    teams = None
    if opts["team_mode"] == "teams":
        a, b = opts["team_sizes"]
        teams = [0] * a + [1] * b
    stats = Counter()
    carry = G.first_carry(options=opts, players=players, host_seat=0, teams=teams or [None] * players, seed=seed)
    hands = 0
    while hands < HANDS_PER_COMBO:
        hand_seed = rng.randrange(1 << 40)
        deep = hands % DEEP_EVERY == 0
        state = G.new_round(options=opts, players=players, seed=hand_seed, carry=carry)
        start_carry = carry
        actions: list[tuple[int, Any]] = []
        taken: Counter = Counter()
        played: set[str] = set()
        for _ in range(5000):
            if state["phase"] in (COMPLETE, MATCH_OVER):
                break
            to_act = G.to_act(state)
            for s in range(players):
                assert bool(G.legal_actions(state, s)) == (s in to_act)
            seat = rng.choice(to_act)
            legal = G.legal_actions(state, seat)
            if state["phase"] == "round_over" or rng.random() < BOT_SHARE:
                action = G.bot_action(state, seat)
            else:
                action = concrete(rng.choice(legal), rng)
            applied = G.apply(state, seat, action)
            before_trick = [p["card"] for p in state["trick"]]
            state = applied.state
            actions.append((seat, action))
            if action["type"] == "play":
                played.add(action["card"])
                if not state["trick"]:
                    taken.update([*before_trick, action["card"]])
            if action["type"] == "remove_cards":
                stats["removals"] += 1
            if any(e.data["type"] == "partner_revealed" for e in applied.events):
                stats["reveals"] += 1
            check_cards(state, taken)
            check_no_card_leak(state, applied.events, played)
            if deep:
                check_partners_hidden(state, applied.events)
        else:
            raise AssertionError("a hand did not end")
        result = state["result"]
        assert sum(result["points"]) == 250 * opts["decks"]
        assert result["bidding_points"] + result["other_points"] == 250 * opts["decks"]
        assert result["made"] == (result["bidding_points"] >= result["bid"])
        before = start_carry.get("scores", [0] * players)
        for s in range(players):
            assert result["scores"][s] == before[s] + (result["bid"] if s in result["hand_winners"] else 0)
        if opts["team_mode"] == "cards":
            assert set(result["partners"]) <= set(result["bidding_side"])
            stats["partners"] += len(result["partners"])
        stats["made" if result["made"] else "set"] += 1
        if deep:
            rebuilt = replay(opts, hand_seed, start_carry, actions)
            assert json.dumps(rebuilt, sort_keys=True) == json.dumps(state, sort_keys=True)
            assert json.loads(json.dumps(state)) == state
        hands += 1
        if state["phase"] == MATCH_OVER:
            stats["matches"] += 1
            carry = G.first_carry(
                options=opts, players=players, host_seat=0, teams=teams or [None] * players, seed=hand_seed
            )
        else:
            carry = G.carry(state)
    stats["hands"] = hands
    return stats


@pytest.mark.parametrize("options", COMBOS, ids=lambda o: "-".join(str(v) for v in o.values()))
def test_random_playout(options):
    stats = play_combo(options, seed=zlib.crc32(json.dumps(options, sort_keys=True).encode()))
    assert stats["hands"] == HANDS_PER_COMBO
    assert stats["made"] + stats["set"] == HANDS_PER_COMBO
    if options["team_mode"] == "cards":
        assert stats["partners"] >= HANDS_PER_COMBO // 2, stats
    if (52 * options["decks"]) % options["players"]:
        assert stats["removals"] >= 1


def test_suite_covers_every_combination():
    assert len(COMBOS) == 74
    assert {c["players"] for c in COMBOS} == set(range(2, 8))
    assert sum(HANDS_PER_COMBO for _ in COMBOS) >= 800


def test_card_points_of_the_deck():
    assert sum(card_points(c) for c in cards.deck(2)) == 500
