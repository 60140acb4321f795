"""api/openapi.yaml is what /api/schema/ serves, so every change to the document shows
in review as a change to that file. `make schema` rewrites it."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from tests.yaml_text import read_yaml

pytestmark = pytest.mark.django_db

CHECKED_IN = Path(__file__).resolve().parents[2] / "api" / "openapi.yaml"


def test_the_checked_in_document_is_the_served_one(api_client):
    res = api_client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi")
    assert res.status_code == 200
    served = res.content.decode()
    on_file = CHECKED_IN.read_text() if CHECKED_IN.exists() else ""
    # Compared as data: the file may be rewritten by a YAML tool without changing a thing.
    if read_yaml(served) != read_yaml(on_file or "{}"):
        diff = "".join(
            list(
                difflib.unified_diff(
                    on_file.splitlines(keepends=True),
                    served.splitlines(keepends=True),
                    "api/openapi.yaml",
                    "/api/schema/",
                    n=2,
                )
            )[:200]
        )
        pytest.fail(f"api/openapi.yaml is not what the server serves: run `make schema` and commit it.\n{diff}")
