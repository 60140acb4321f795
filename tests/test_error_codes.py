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


API_DIR = Path(__file__).resolve().parent.parent / "api"
# The modules that refuse requests before any view or service: every code they can
# answer is a literal there.
REFUSING_MODULES = ("parsers.py", "middleware.py", "inputs.py", "errors.py")


def refusal_codes() -> dict[str, str]:
    """code -> file: `code=` keywords, `default_code`, the parser's and the middleware's
    error helpers, and the middleware's codes by status."""
    found: dict[str, str] = {}
    for name in REFUSING_MODULES:
        tree = ast.parse((API_DIR / name).read_text())
        for node in ast.walk(tree):
            literals: list[ast.expr] = []
            if isinstance(node, ast.Call):
                literals += [k.value for k in node.keywords if k.arg == "code"]
                callee = getattr(node.func, "id", None)
                if callee == "_error" and len(node.args) == 3:
                    literals.append(node.args[2])
                if callee == "error_response" and len(node.args) >= 2:
                    literals.append(node.args[1])
            elif isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "default_code" for t in node.targets):
                literals.append(node.value)
            elif isinstance(node, ast.Assign) and any(
                getattr(t, "id", None) == "CODES_BY_STATUS" for t in node.targets
            ):
                literals += node.value.values
            for literal in literals:
                if isinstance(literal, ast.Constant) and isinstance(literal.value, str):
                    found[literal.value] = name
    return found


def test_every_refusal_code_is_documented():
    codes = refusal_codes()
    assert {"invalid_character", "too_deep", "body_too_large", "uri_too_long", "not_found"} <= set(codes)
    assert {code: where for code, where in codes.items() if code not in ERROR_CODES} == {}


def test_documented_statuses_match_the_middleware():
    from api.middleware import CODES_BY_STATUS

    for status, code in CODES_BY_STATUS.items():
        assert ERROR_CODES[code][0] == status, code
