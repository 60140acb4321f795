"""Every code an engine can raise is documented (and so listed in the OpenAPI text)."""

from __future__ import annotations

import ast
from pathlib import Path

from games.errors import ERROR_CODES

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "games" / "rules"
# Where the server itself (not an engine) picks codes: services, selectors, serializers
# and views. Codes appear there as `code="..."` or as the first argument of an error.
SERVER_CODE_DIRS = ("accounts", "api", "games", "moderation", "notifications")
ERROR_BUILDERS = {"ServiceError", "Clash"}


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


def server_codes() -> dict[str, str]:
    """code -> file, for every literal code the server picks: `code=` keywords, the first
    argument of an error builder, `default_code`, the parser's `_error` and the
    middleware's `error_response` helpers, and the middleware's codes by status."""
    found: dict[str, str] = {}
    for folder in SERVER_CODE_DIRS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                literals: list[ast.expr] = []
                if isinstance(node, ast.Call):
                    literals += [kw.value for kw in node.keywords if kw.arg == "code"]
                    name = getattr(node.func, "id", getattr(node.func, "attr", None))
                    if name in ERROR_BUILDERS and node.args:
                        literals.append(node.args[0])
                    if name == "_error" and len(node.args) == 3:
                        literals.append(node.args[2])
                    if name == "error_response" and len(node.args) >= 2:
                        literals.append(node.args[1])
                elif isinstance(node, ast.Assign):
                    targets = {getattr(t, "id", None) for t in node.targets}
                    if "default_code" in targets:
                        literals.append(node.value)
                    if "CODES_BY_STATUS" in targets and isinstance(node.value, ast.Dict):
                        literals += [v for v in node.value.values if v is not None]
                for literal in literals:
                    if isinstance(literal, ast.Constant) and isinstance(literal.value, str):
                        found[literal.value] = f"{folder}/{path.name}"
    return found


def test_every_server_code_is_documented():
    codes = server_codes()
    assert {"username_taken", "username_confusable", "reserved_name", "bidi_control", "stale_version"} <= set(codes)
    assert {"invalid_character", "too_deep", "body_too_large", "uri_too_long", "not_found"} <= set(codes)
    missing = {code: where for code, where in codes.items() if code not in ERROR_CODES}
    assert missing == {}


def test_every_documented_code_is_in_the_openapi_description(client):
    description = client.get("/api/schema/?format=json").json()["info"]["description"]
    for code, (status, _) in ERROR_CODES.items():
        assert f"| `{code}` | {status} |" in description


def test_documented_statuses_match_the_middleware():
    from api.middleware import CODES_BY_STATUS

    for status, code in CODES_BY_STATUS.items():
        assert ERROR_CODES[code][0] == status, code
