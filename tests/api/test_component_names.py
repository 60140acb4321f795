"""The OpenAPI document's component names only grow between versions, and each keeps its
kind: a client generated from an earlier document names its types by them (tests/contract,
sdk/), so a component removed or renamed breaks it, and so does one that turns from an
object into a choice of several (`anyOf`): an event type every game logged alike, say,
that a new game declares with other fields, so that it becomes one type per game.
api/openapi_components.txt lists every name ever served with its kind, `section/name
kind`, sorted; the served document holds each of them, of that kind, and names no other.

A new component is added to the list by `make schema`, which runs this file as a program
after writing api/openapi.yaml: it adds that document's names to the list and never takes
one off, so a removal fails here until the list is edited by hand, on purpose.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
LISTED = ROOT / "api" / "openapi_components.txt"
DOCUMENT = ROOT / "api" / "openapi.yaml"
WRITE = "python -m tests.api.test_component_names (make schema runs it)"


def kind_of(schema: Any) -> str:
    """What a generated client makes of a component: a choice (`union`), an `object`, an
    `enum`, a `ref` to another, or the JSON type it is."""
    if not isinstance(schema, dict):
        return "other"
    if "anyOf" in schema or "oneOf" in schema:
        return "union"
    if "enum" in schema:
        return "enum"
    if "$ref" in schema:
        return "ref"
    if schema.get("type") == "object" or "properties" in schema:
        return "object"
    kind = schema.get("type", "other")
    return kind if isinstance(kind, str) else "other"


def component_kinds(document: dict[str, Any]) -> dict[str, str]:
    return {
        f"{section}/{name}": kind_of(schema) if section == "schemas" else section
        for section, named in document.get("components", {}).items()
        for name, schema in named.items()
    }


def listed_kinds(text: str) -> dict[str, str]:
    """The list's names and kinds, in its order."""
    return dict(line.split(maxsplit=1) for line in text.splitlines() if line.strip())


def merged(listed: dict[str, str], served: dict[str, str]) -> str:
    """The list with the served names added, none taken off and no kind changed: one a
    line, sorted."""
    return "".join(f"{name} {kind}\n" for name, kind in sorted({**served, **listed}.items()))


@pytest.mark.django_db
def test_the_served_document_keeps_every_listed_component_and_lists_every_new_one(api_client: Any) -> None:
    res = api_client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert res.status_code == 200
    served = component_kinds(res.json())
    text = LISTED.read_text(encoding="utf-8")
    listed = listed_kinds(text)
    assert list(listed) == sorted(listed) and len(listed) == len(text.splitlines()), (
        f"{LISTED.name} is one `name kind` a line, sorted, each name once"
    )
    gone = sorted(set(listed) - set(served))
    assert not gone, (
        f"components served by an earlier version are gone (renamed or removed), which breaks the "
        f"clients generated from it: {gone}"
    )
    changed = {name: f"{listed[name]} -> {served[name]}" for name in listed if served[name] != listed[name]}
    assert not changed, (
        f"components changed kind, which changes the types of the clients generated from an earlier "
        f"version: {changed}. An event type several games logged alike (one component) must keep its "
        f"fields in a new game too: declare it with the same payload, or give the new game's a type of its own"
    )
    new = sorted(set(served) - set(listed))
    assert not new, f"new components, not in api/{LISTED.name}: {new}; add them with {WRITE}"
    assert served["schemas/Error"] == "object" and served["schemas/Event"] == "union", "the components are read"


def test_the_list_is_only_ever_added_to() -> None:
    listed = {"schemas/A": "object", "schemas/B": "union"}
    assert merged(listed, {"schemas/B": "object", "schemas/C": "string"}) == (
        "schemas/A object\nschemas/B union\nschemas/C string\n"
    )
    document = {"components": {"schemas": {"A": {"properties": {}}, "U": {"anyOf": []}}, "responses": {"R": {}}}}
    assert component_kinds(document) == {"schemas/A": "object", "schemas/U": "union", "responses/R": "responses"}


def main() -> None:
    """Add api/openapi.yaml's component names to the list (written by `make schema`)."""
    from tests.yaml_text import read_yaml

    document = read_yaml(DOCUMENT.read_text(encoding="utf-8"))
    listed = listed_kinds(LISTED.read_text(encoding="utf-8")) if LISTED.exists() else {}
    served = component_kinds(document)
    LISTED.write_text(merged(listed, served), encoding="utf-8")
    added = set(served) - set(listed)
    print(f"{LISTED.relative_to(ROOT)}: {len(added)} added", file=sys.stderr)


if __name__ == "__main__":
    main()
