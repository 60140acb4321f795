"""The web client's check of a deal (web/static/web/fairness.js), run in Node: it verifies
hands dealt under v2 and under v1, and refuses each read as the other, as
tools/verify_deals.py does."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from games import rules
from games.rules import fairness
from tests.conftest import IN_CI
from tests.rules.test_fairness import SEED, _revealed, verify_deals

SCRIPT = Path(__file__).resolve().parents[2] / "web" / "static" / "web" / "fairness.js"
# Seeds whose v1 message is ambiguous: ["a,b", ""] and ["a", "b,"] read alike there.
SEEDS = ("a,b", "", "c", 'd"\\')


def _hand(algorithm: str) -> dict[str, Any]:
    game = rules.get("hearts")
    inputs = fairness.Inputs(SEED, "ABC234", 1, SEEDS, algorithm)
    state = game.new_round(options=game.validate_options({}), players=4, seed=1, carry=None, fair=inputs)
    return _revealed(state, 1)["fairness"]


def _relabelled(record: dict[str, Any], algorithm: str) -> dict[str, Any]:
    return {**record, "algorithm": algorithm}


def test_both_verifiers_check_v2_and_v1_hands_and_tell_them_apart() -> None:
    v1, v2 = _hand(fairness.ALGORITHM_V1), _hand(fairness.ALGORITHM)
    assert v1["algorithm"] == fairness.ALGORITHM_V1 and v2["algorithm"] == fairness.ALGORITHM
    assert v1["deals"] != v2["deals"]
    records = [v2, v1, _relabelled(v2, fairness.ALGORITHM_V1), _relabelled(v1, fairness.ALGORITHM)]
    assert [verify_deals.check_hand({"round": 1, "fairness": r}) == [] for r in records] == [True, True, False, False]

    if shutil.which("node") is None:
        if IN_CI:
            pytest.fail("node is missing", pytrace=False)
        pytest.skip("node is missing")
    program = (
        f"import {{ verifyHand }} from {json.dumps(SCRIPT.as_uri())};"
        "const records = JSON.parse(process.argv[1]);"
        "console.log(JSON.stringify(await Promise.all(records.map((r) => verifyHand(r)))));"
    )
    out = subprocess.run(
        ["node", "--input-type=module", "-e", program, json.dumps(records)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == [True, True, False, False]
    # An algorithm it does not know is nothing to check, not a failure.
    unknown = _relabelled(v2, "hmac-sha256-fisher-yates-v9")
    out = subprocess.run(
        ["node", "--input-type=module", "-e", program, json.dumps([unknown])],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert json.loads(out.stdout) == [None]


def test_the_page_keeps_each_room_s_verdicts_by_hand_for_the_fair_deal_box() -> None:
    """verifyRounds records what it found of each hand, by room, for the Fair deal box
    to list (fair.js): a hand that checks out, one whose deal was changed, and one with
    nothing to check, in hand order; another room's hands stay apart."""
    honest = _hand(fairness.ALGORITHM)
    changed = json.loads(json.dumps(honest))
    hands = changed["deals"][0]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    other = {**honest, "code": "XYZ789"}
    rounds = [
        {"round": 3, "fairness": {**changed, "hand": 3}},
        {"round": 1, "fairness": honest},
        {"round": 2, "fairness": {**honest, "algorithm": "hmac-sha256-fisher-yates-v9"}},
        {"round": 1, "fairness": other},
        {"round": 4, "fairness": None},
    ]
    if shutil.which("node") is None:
        if IN_CI:
            pytest.fail("node is missing", pytrace=False)
        pytest.skip("node is missing")
    program = (
        f"import {{ checkedHands, verifyRounds }} from {json.dumps(SCRIPT.as_uri())};"
        "const rounds = await verifyRounds(JSON.parse(process.argv[1]));"
        "console.log(JSON.stringify({ verified: rounds.map((r) => r.verified),"
        " here: checkedHands('ABC234'), other: checkedHands('XYZ789'), none: checkedHands('NOSUCH') }));"
    )
    out = subprocess.run(
        ["node", "--input-type=module", "-e", program, json.dumps(rounds)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    # Hand 3's deal was changed, and its record names hand 3: it does not verify.
    assert got["verified"] == [False, True, None, False, None]
    assert got["here"] == [[1, True], [2, None], [3, False]]
    assert got["other"] == [[1, False]]
    assert got["none"] == []
