"""The deal algorithm `hmac-sha256-fisher-yates-v2` and v1 before it: fixed vectors (also
in docs/fair-deals.md, for third parties to check their own implementation), their properties,
and the engines' deals by them, checked by the standalone verifier."""

from __future__ import annotations

import hashlib
import hmac
import importlib.util
import json
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from games import rules
from games.rules import fairness
from games.rules.conformance import profile_for

_spec = importlib.util.spec_from_file_location("verify_deals", Path(__file__).parents[2] / "tools" / "verify_deals.py")
assert _spec is not None and _spec.loader is not None
verify_deals = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verify_deals)

SEED = "0123456789abcdef" * 4
VECTOR = fairness.Inputs(SEED, "ABC234", 1, ("alice", "", "bob", "x"), fairness.ALGORITHM_V1)
V2 = fairness.Inputs(SEED, "ABC234", 1, ("alice", "", "bob", "x"))
V1_SEEDS = verify_deals.SEEDS_TEXT[fairness.ALGORITHM_V1]
V2_SEEDS = verify_deals.SEEDS_TEXT[fairness.ALGORITHM]


def test_vector_commitment_and_first_block():
    assert fairness.commitment(SEED) == "a8ae6e6ee929abea3afcfc5258c8ccd6f85273e0d4626d26c7279f3250f77c8e"
    first = bytes(b for _, b in zip(range(32), fairness.byte_stream(VECTOR, 0), strict=False))
    assert first.hex() == "52e54b4edcd03a4e39af3c5d51dcd84712344a311b4b8c81e1059f966e7ff8f8"
    assert first == hmac.new(bytes.fromhex(SEED), b"ABC234:1:0:alice,,bob,x:0", hashlib.sha256).digest()


def test_vector_hearts_permutation():
    assert fairness.permutation(VECTOR, 0, 52) == [
        16, 39, 20, 23, 45, 24, 30, 34, 49, 28, 36, 4, 10, 11, 17, 29, 2, 48, 42, 19, 50, 25, 0, 5, 44, 27,
        33, 31, 26, 41, 9, 12, 32, 22, 35, 40, 6, 13, 51, 37, 38, 18, 47, 7, 43, 46, 8, 1, 21, 15, 3, 14,
    ]  # fmt: skip
    shuffled = fairness.shuffle(fairness.card_deck(1), VECTOR)
    assert shuffled[:13] == ["5D", "2S", "9D", "QD", "8S", "KD", "6H", "TH", "QS", "4H", "QH", "6C", "QC"]
    # The standalone verifier, written apart from the server's code, agrees.
    assert (
        verify_deals.shuffled(
            verify_deals.card_deck(1), verify_deals.stream(SEED, "ABC234", 1, 0, V1_SEEDS(list(VECTOR.client_seeds)))
        )
        == shuffled
    )


def test_v2_writes_the_seeds_as_a_json_array_so_no_two_lists_read_alike():
    assert V2.algorithm == fairness.ALGORITHM == "hmac-sha256-fisher-yates-v2"
    first = bytes(b for _, b in zip(range(32), fairness.byte_stream(V2, 0), strict=False))
    message = b'ABC234:1:0:["alice","","bob","x"]:0'
    assert first == hmac.new(bytes.fromhex(SEED), message, hashlib.sha256).digest()
    assert first.hex() == "5901b99791e9173edf9069fdf35e8455faab04cac1bca306d35a357ae86091c8"
    assert fairness.shuffle(fairness.card_deck(1), V2)[0:20:4] == ["QC", "8S", "QH", "5C", "8H"]
    one, other = ("a,b", ""), ("a", "b,")
    v1 = [fairness.Inputs(SEED, "ABC234", 1, seeds, fairness.ALGORITHM_V1) for seeds in (one, other)]
    v2 = [fairness.Inputs(SEED, "ABC234", 1, seeds) for seeds in (one, other)]
    assert fairness.permutation(v1[0], 0, 52) == fairness.permutation(v1[1], 0, 52), "v1's ambiguity"
    assert fairness.permutation(v2[0], 0, 52) != fairness.permutation(v2[1], 0, 52)
    # A record without an algorithm is a hand dealt under v1.
    assert fairness.Inputs.from_json({**V2.as_json(), "algorithm": fairness.ALGORITHM_V1}) == VECTOR
    legacy = {k: v for k, v in VECTOR.as_json().items() if k != "algorithm"}
    assert fairness.Inputs.from_json(legacy) == VECTOR
    assert verify_deals.shuffled(
        verify_deals.card_deck(1), verify_deals.stream(SEED, "ABC234", 1, 0, V2_SEEDS(list(V2.client_seeds)))
    ) == fairness.shuffle(fairness.card_deck(1), V2)


def test_vector_moon_redeal():
    inputs = fairness.Inputs(SEED, "ABC234", 2, ("", "", ""), fairness.ALGORITHM_V1)
    deck = fairness.domino_deck([f"{a}-0" for a in range(1, 7)])
    assert deck[:6] == ["0-0", "1-1", "2-1", "2-2", "3-1", "3-2"] and len(deck) == 22
    assert fairness.dealt(deck, inputs, 1, 3, 7) == {
        "redeal": 1,
        "hands": [
            ["4-2", "2-1", "5-5", "5-2", "2-2", "6-3", "5-1"],
            ["6-4", "4-3", "6-5", "6-6", "5-4", "1-1", "3-3"],
            ["5-3", "0-0", "4-4", "3-1", "4-1", "3-2", "6-2"],
        ],
        "widow": ["6-1"],
    }


def test_a_draw_at_or_above_the_last_multiple_is_rejected():
    # For i = 2 (three positions), 2**32 - (2**32 % 3) = 4294967295: that draw is
    # refused and the next one (5, so j = 5 % 3 = 2) counts; for i = 1, 0 gives j = 0.
    draws = [0xFFFFFFFF, 5, 0]
    stream = iter(b for x in draws for b in x.to_bytes(4, "big"))
    assert fairness.fisher_yates(3, stream) == [1, 0, 2]
    # Without the rejection, 0xFFFFFFFF % 3 = 0 would have swapped positions 2 and 0.


def test_canonical_decks():
    assert fairness.domino_deck()[:5] == ["0-0", "1-0", "1-1", "2-0", "2-1"] and len(fairness.domino_deck()) == 28
    two = fairness.card_deck(2, ["2C", "4D", "4D"])
    # The first copy goes first; a card removed twice loses both.
    assert two[:3] == ["3C", "4C", "5C"] and two[49:51] == ["AS", "2C"] and "4D" not in two
    assert len(two) == 101


@given(
    seed=st.binary(min_size=32, max_size=32).map(bytes.hex),
    code=st.text("ABCDEFGHJKMNPQRSTUVWXYZ23456789", min_size=6, max_size=6),
    hand=st.integers(1, 500),
    redeal=st.integers(0, 20),
    client_seeds=st.lists(st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=64), max_size=7),
    n=st.integers(0, 104),
)
def test_any_inputs_give_a_permutation_the_verifier_agrees_with(seed, code, hand, redeal, client_seeds, n):
    inputs = fairness.Inputs(seed, code, hand, tuple(client_seeds))
    order = fairness.permutation(inputs, redeal, n)
    assert sorted(order) == list(range(n))
    deck = [str(k) for k in range(n)]
    assert verify_deals.shuffled(deck, verify_deals.stream(seed, code, hand, redeal, V2_SEEDS(client_seeds))) == [
        deck[k] for k in order
    ]


@given(st.text(max_size=70))
def test_client_seeds_are_at_most_64_printable_ascii_characters(text):
    assert fairness.is_client_seed(text) == (len(text) <= 64 and all(" " <= c <= "~" for c in text))


def _revealed(state: dict[str, Any], number: int) -> dict[str, Any]:
    fair = state["fair"]
    return {
        "round": number,
        "fairness": {
            "algorithm": fairness.algorithm_of(fair),
            "game": state["game"],
            "code": fair["code"],
            "hand": fair["hand"],
            "commitment": fairness.commitment(fair["server_seed"]),
            "server_seed": fair["server_seed"],
            "client_seeds": fair["client_seeds"],
            "deals": fair["deals"],
        },
    }


def test_every_engine_deals_by_the_algorithm():
    """Every game and every combination of options the conformance suite plays: the
    standalone verifier finds the deal the one the seeds give."""
    cases = {
        (game.key, json.dumps(run.options, sort_keys=True))
        for game in rules.all_games()
        for run in profile_for(game).runs()
    }
    assert len(cases) > 90
    for key, raw_json in sorted(cases):
        game = rules.get(key)
        raw = json.loads(raw_json)
        options = game.validate_options(raw)
        players = game.seat_count(options)
        inputs = fairness.Inputs(SEED, "ABC234", 1, tuple(f"s{k}" for k in range(players)))
        state = game.new_round(options=options, players=players, seed=1, carry=None, fair=inputs)
        if state["phase"] == "remove":
            remover = game.to_act(state)[0]
            legal = game.legal_actions(state, remover)[0]
            state = game.apply(
                state, remover, {"type": "remove_cards", "cards": legal["choices"][: legal["count"]]}
            ).state
        (deal,) = state["fair"]["deals"]
        assert [sorted(h) for h in deal["hands"]] == [sorted(h) for h in state["hands"]], key
        assert verify_deals.check_hand(_revealed(state, 1)) == [], key


def test_moon_redeals_by_the_algorithm_with_the_redeal_counter():
    game = rules.get("moon")
    options = game.validate_options({"players": 3})
    inputs = fairness.Inputs(SEED, "ABC234", 1, ("", "", ""))
    state = game.new_round(options=options, players=3, seed=1, carry=None, fair=inputs)
    before = state
    for _ in range(3):
        state = game.apply(state, game.to_act(state)[0], {"type": "pass"}).state
    assert state["redeals"] == 1 and len(before["fair"]["deals"]) == 1  # no state changed in place
    assert [d["redeal"] for d in state["fair"]["deals"]] == [0, 1]
    assert [sorted(h) for h in state["fair"]["deals"][1]["hands"]] == [sorted(h) for h in state["hands"]]
    assert verify_deals.check_hand(_revealed(state, 1)) == []
    # A tampered deal does not verify.
    tampered = _revealed(state, 1)
    hands = tampered["fairness"]["deals"][1]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    assert verify_deals.check_hand(tampered) != []
    assert Counter(t for h in hands for t in h) == Counter(t for h in state["hands"] for t in h)
