"""Every code an engine can raise is documented (and so listed in the OpenAPI text)."""

from __future__ import annotations

import ast
from pathlib import Path

from games.errors import ERROR_CODES

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "games" / "rules"
# Where the server itself (not an engine) picks codes: services, selectors, serializers
# and views. Codes appear there as `code="..."` or as the first argument of an error.
SERVER_CODE_DIRS = ("accounts", "api", "games", "moderation")
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
    found: dict[str, str] = {}
    for folder in SERVER_CODE_DIRS:
        for path in sorted((ROOT / folder).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if not isinstance(node, ast.Call):
                    continue
                for kw in node.keywords:
                    if kw.arg == "code" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                        found[kw.value.value] = f"{folder}/{path.name}"
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                if name in ERROR_BUILDERS and node.args and isinstance(node.args[0], ast.Constant):
                    found[node.args[0].value] = f"{folder}/{path.name}"
    return found


def test_every_server_code_is_documented():
    codes = server_codes()
    assert {"username_taken", "username_confusable", "reserved_name", "bidi_control", "stale_version"} <= set(codes)
    missing = {code: where for code, where in codes.items() if code not in ERROR_CODES}
    assert missing == {}


def test_every_documented_code_is_in_the_openapi_description(client):
    description = client.get("/api/schema/?format=json").json()["info"]["description"]
    for code, (status, _) in ERROR_CODES.items():
        assert f"| `{code}` | {status} |" in description
