"""Every code the server can answer is documented (and so listed in the OpenAPI text),
by the app that answers it: each app raises only its own codes and the shared ones."""

from __future__ import annotations

import ast
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from accounts.error_codes import CODES as ACCOUNTS_CODES
from api.error_catalogue import CATALOGUES, ERROR_CODES
from core.errors import SHARED_CODES, Catalogue, ServiceError
from games import error_codes, rules
from games.error_codes import CODES as GAMES_CODES
from games.error_codes import RULE_CODES
from games.rules.errors import SHARED_RULE_CODES
from grants.error_codes import CODES as GRANTS_CODES
from moderation.error_codes import CODES as MODERATION_CODES
from notifications.error_codes import CODES as NOTIFICATIONS_CODES
from privacy.error_codes import CODES as PRIVACY_CODES
from talk.error_codes import CODES as TALK_CODES

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "games" / "rules"
# Where the server itself (not an engine) picks codes: services, selectors, serializers
# and views. Codes appear there as `code="..."` or as the first argument of an error.
# Each app may raise its own codes and the shared ones; the API answers for them all.
OWN_CODES: dict[str, Catalogue] = {
    "accounts": ACCOUNTS_CODES,
    "api": ERROR_CODES,
    "games": GAMES_CODES,
    "grants": GRANTS_CODES,
    "moderation": MODERATION_CODES,
    "notifications": NOTIFICATIONS_CODES,
    "privacy": PRIVACY_CODES,
    "ratings": Catalogue("ratings", {}),
    "talk": TALK_CODES,
}
ERROR_BUILDERS = {"ServiceError", "several", "Clash"}


def raised_in(paths: list[Path]) -> dict[str, str]:
    """code -> file, for every RuleError built with a literal code in these files."""
    found: dict[str, str] = {}
    for path in sorted(paths):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None)) == "RuleError"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found[node.args[0].value] = path.name
    return found


def folder_of(game: rules.Game) -> Path:
    return Path(sys.modules[type(game).__module__].__file__ or "").parent


def raised_codes() -> dict[str, str]:
    """code -> file, for every RuleError built with a literal code in the engines."""
    return raised_in(list(RULES_DIR.rglob("*.py")))


def test_every_engine_code_is_a_documented_rule_code():
    codes = raised_codes()
    assert {"must_follow_suit", "not_your_turn", "tile_not_in_hand"} <= set(codes)
    # The actions endpoint documents RULE_CODES as what an engine may answer.
    assert {code: where for code, where in codes.items() if code not in RULE_CODES} == {}
    assert RULE_CODES <= set(ERROR_CODES)


def test_the_shared_rules_raise_shared_codes_and_each_game_its_own():
    shared = raised_in([p for p in RULES_DIR.glob("*.py")])
    assert set(shared) <= {*SHARED_RULE_CODES, "invalid"}, set(shared) - {*SHARED_RULE_CODES, "invalid"}
    for game in rules.all_games():
        allowed = {*SHARED_RULE_CODES, *game.schema.rule_codes, "invalid"}
        raised = raised_in(list(folder_of(game).rglob("*.py")))
        assert set(raised) <= allowed, (game.key, set(raised) - allowed)
        # What a game declares it raises, and nothing another game may claim otherwise.
        assert set(game.schema.rule_codes) <= set(raised), game.key
        assert not set(game.schema.rule_codes) & set(SHARED_RULE_CODES), game.key


def test_a_game_may_not_give_a_shared_code_another_meaning(monkeypatch):
    hearts = rules.get("hearts")
    clash = {"hearts_not_broken": (409, "Something else.")}
    monkeypatch.setattr(rules.get("moon"), "schema", replace(rules.get("moon").schema, rule_codes=clash))
    assert hearts.schema.rule_codes["hearts_not_broken"][0] == 400
    with pytest.raises(ValueError, match="hearts_not_broken"):
        error_codes._rule_codes()


def test_rule_codes_answer_400_or_409():
    for code in raised_codes():
        assert ERROR_CODES[code][0] in (400, 409), code


def server_codes(folder: str) -> dict[str, str]:
    """code -> file, for every literal code the server picks in `folder`: `code=`
    keywords, the first argument of an error builder, `default_code`, the parser's
    `_error` and the middleware's `error_response` helpers, and the middleware's codes by
    status."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        if path.is_relative_to(RULES_DIR):
            continue  # the engines' codes: raised_codes
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
                    found[literal.value] = f"{folder}/{path.relative_to(ROOT / folder)}"
    return found


@pytest.mark.parametrize("folder", sorted(OWN_CODES))
def test_every_app_answers_only_its_own_codes_and_the_shared_ones(folder):
    codes = server_codes(folder)
    allowed = set(OWN_CODES[folder]) | set(SHARED_CODES)
    assert {code: where for code, where in codes.items() if code not in allowed} == {}


def test_the_server_codes_are_found():
    found = {code for folder in OWN_CODES for code in server_codes(folder)}
    assert {"username_taken", "username_confusable", "reserved_name", "bidi_control", "stale_version"} <= found
    assert {"invisible_character"} <= found
    assert {"invalid_character", "too_deep", "body_too_large", "uri_too_long", "not_found"} <= found
    assert {"weak_password", "bad_push_endpoint", "room_full", "invalid"} <= found


def test_the_catalogue_is_every_apps_and_nothing_else():
    assert set(ERROR_CODES) == {code for catalogue in CATALOGUES for code in catalogue}
    assert len(ERROR_CODES) == sum(len(catalogue) for catalogue in CATALOGUES)
    statuses = [status for status, _ in ERROR_CODES.values()]
    assert statuses == sorted(statuses)


def test_a_code_two_apps_declare_is_refused():
    mine = Catalogue("one", {"room_full": (409, "Every seat is taken.")})
    theirs = Catalogue("two", {"room_full": (400, "Another meaning.")})
    with pytest.raises(ValueError, match="'room_full' is declared by both one and two"):
        Catalogue.combined("all", [mine, theirs])


def test_one_refusal_for_several_reasons_keeps_each():
    err = ServiceError.several("weak_password", ["Too short.", "Too common."], attr="password")
    assert (err.code, err.status, err.attr, err.detail, err.details) == (
        "weak_password",
        400,
        "password",
        "Too short.",
        ("Too short.", "Too common."),
    )


def test_every_documented_code_is_in_the_openapi_description(client):
    description = client.get("/api/schema/?format=json").json()["info"]["description"]
    for code, (status, _) in ERROR_CODES.items():
        assert f"| `{code}` | {status} |" in description


def test_documented_statuses_match_the_middleware():
    from api.middleware import CODES_BY_STATUS

    for status, code in CODES_BY_STATUS.items():
        assert ERROR_CODES[code][0] == status, code
