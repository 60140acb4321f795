"""Every code an engine can raise is documented (and so listed in the OpenAPI text)."""

from __future__ import annotations

import ast
from pathlib import Path

from games.errors import ERROR_CODES

RULES_DIR = Path(__file__).resolve().parent.parent / "games" / "rules"


def raised_codes() -> dict[str, str]:
    """code -> file, for every RuleError built with a literal code in the engines."""
    found: dict[str, str] = {}
    for path in sorted(RULES_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None)) == "RuleError"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found[node.args[0].value] = path.name
    return found


def test_every_engine_code_is_documented():
    codes = raised_codes()
    assert {"must_follow_suit", "not_your_turn", "tile_not_in_hand"} <= set(codes)
    missing = {code: where for code, where in codes.items() if code not in ERROR_CODES}
    assert missing == {}


def test_rule_codes_answer_400_or_409():
    for code in raised_codes():
        assert ERROR_CODES[code][0] in (400, 409), code
