"""The OpenAPI document is one every reader accepts: openapi-spec-validator, openapi-core
with its default configuration (which refuses a document its validator does not pass) and
Redocly's linter (its recommended rules, as `redocly.yaml` sets them), each with no error.

Both the document `/api/schema/` serves and the checked-in `api/openapi.yaml` are read;
they are the same data (tests/api/test_openapi_file.py), so each validator reads each
distinct document once. The document is generated once per process.
"""

from __future__ import annotations

import functools
import hashlib
import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import IN_CI
from tests.strict_answers import served_document
from tests.yaml_text import read_yaml

ROOT = Path(__file__).resolve().parents[2]
CHECKED_IN = ROOT / "api" / "openapi.yaml"
REDOCLY = ROOT / "node_modules" / ".bin" / "redocly"
REDOCLY_CONFIG = ROOT / "redocly.yaml"
SHOWN = 20


@functools.cache
def _checked_in() -> dict[str, Any]:
    document: dict[str, Any] = read_yaml(CHECKED_IN.read_text())
    return document


DOCUMENTS: dict[str, Callable[[], dict[str, Any]]] = {"served": served_document, "checked_in": _checked_in}


def _key(document: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(document, sort_keys=True).encode()).hexdigest()


@functools.cache
def _spec_errors(key: str, text: str) -> tuple[str, ...]:
    from openapi_spec_validator.validation import OpenAPIV31SpecValidator

    document = json.loads(text)
    return tuple(
        f"{'/'.join(map(str, error.absolute_path)) or '(root)'}: {error.message[:300]}"
        for error in OpenAPIV31SpecValidator(document).iter_errors()
    )


@functools.cache
def _openapi_core_refusal(key: str, text: str) -> str | None:
    from openapi_core import OpenAPI
    from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

    try:
        OpenAPI.from_dict(json.loads(text))
    except OpenAPIValidationError as exc:
        return str(exc)[:2000]
    return None


@functools.cache
def _redocly(key: str, text: str, folder: str) -> subprocess.CompletedProcess[str]:
    path = Path(folder) / f"openapi-{key[:12]}.json"
    path.write_text(text)
    return subprocess.run(
        [str(REDOCLY), "lint", str(path), "--config", str(REDOCLY_CONFIG), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        check=False,
    )


def _document(which: str, django_db_blocker: Any) -> tuple[str, str]:
    with django_db_blocker.unblock():
        document = DOCUMENTS[which]()
    return _key(document), json.dumps(document)


@pytest.mark.parametrize("which", list(DOCUMENTS))
def test_openapi_spec_validator_finds_no_error(which: str, django_db_blocker: Any) -> None:
    errors = _spec_errors(*_document(which, django_db_blocker))
    assert not errors, f"{len(errors)} errors:\n" + "\n".join(errors[:SHOWN])


@pytest.mark.parametrize("which", list(DOCUMENTS))
def test_openapi_core_reads_it_with_its_own_checks(which: str, django_db_blocker: Any) -> None:
    refusal = _openapi_core_refusal(*_document(which, django_db_blocker))
    assert refusal is None, refusal


@pytest.mark.parametrize("which", list(DOCUMENTS))
def test_redocly_lint_finds_no_error(which: str, django_db_blocker: Any, tmp_path_factory: Any) -> None:
    if not REDOCLY.exists() or shutil.which("node") is None:
        if IN_CI:
            pytest.fail("Redocly's linter is missing: run `npm ci`.")
        pytest.skip("Redocly's linter is missing: run `npm ci`.")
    key, text = _document(which, django_db_blocker)
    run = _redocly(key, text, str(tmp_path_factory.getbasetemp()))
    assert run.stdout.strip(), run.stderr[-2000:]
    report = json.loads(run.stdout)
    errors = [
        f"{problem['ruleId']}: {problem['message']} at {[loc.get('pointer') for loc in problem.get('location', [])]}"
        for problem in report["problems"]
        if problem["severity"] == "error"
    ]
    assert not errors, f"{len(errors)} errors:\n" + "\n".join(errors[:SHOWN])
    assert run.returncode == 0, run.stderr[-2000:]


def test_redocly_lint_finds_no_error_in_the_asyncapi_document() -> None:
    """The sockets' document too, as Redocly reads AsyncAPI 3 (the official parser's
    check is tests/live/test_asyncapi.py's)."""
    if not REDOCLY.exists() or shutil.which("node") is None:
        if IN_CI:
            pytest.fail("Redocly's linter is missing: run `npm ci`.")
        pytest.skip("Redocly's linter is missing: run `npm ci`.")
    run = subprocess.run(
        [str(REDOCLY), "lint", "api/asyncapi.yaml", "--config", str(REDOCLY_CONFIG), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        check=False,
    )
    report = json.loads(run.stdout)
    errors = [f"{p['ruleId']}: {p['message']}" for p in report["problems"] if p["severity"] == "error"]
    assert not errors, f"{len(errors)} errors:\n" + "\n".join(errors[:SHOWN])
    assert run.returncode == 0, run.stderr[-2000:]


def test_the_validators_find_what_they_are_here_to_find() -> None:
    """The negative control: the faults integrators met (a type named twice, a required
    property named twice) are errors to the validator these tests trust."""
    from openapi_spec_validator.validation import OpenAPIV31SpecValidator

    document = {
        "openapi": "3.1.0",
        "info": {"title": "broken", "version": "1"},
        "paths": {},
        "components": {
            "schemas": {
                "TypeTwice": {"type": "object", "properties": {"when": {"type": ["number", "null", "null"]}}},
                "RequiredTwice": {
                    "type": "object",
                    "properties": {"round": {"type": "integer"}},
                    "required": ["round", "round"],
                },
            }
        },
    }
    found = [error.message for error in OpenAPIV31SpecValidator(document).iter_errors()]
    assert len(found) == 2, found
