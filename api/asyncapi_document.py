"""The AsyncAPI document of the sockets, made from three sources so that no part of it is
written twice:

- api/asyncapi_source.yaml, written by hand: the channels, operations, messages and the
  sockets' own small schemas (the sockets are no DRF views a generator could read);
- the close codes of each channel, from api/socket_closes.py, the table the consumers
  close with (`x-close-codes`);
- every OpenAPI component the source names and is not its own (`GameView`, `Event`,
  `ChatLine`), with every component those reach, copied from the OpenAPI document the
  server serves, so that the document stands alone and a generator types a `view`
  message as fully as `GET …/state`.

/api/asyncapi.yaml serves it (api/views_asyncapi.py); api/asyncapi.yaml is the checked-in
copy (`manage.py asyncapi --file api/asyncapi.yaml`, run by `make schema`), which
tests/live/test_asyncapi.py holds equal to what is served.

AsyncAPI 3.0's schemas are JSON Schema draft-07 with a few words of their own, and
OpenAPI 3.1's are 2020-12: what the OpenAPI components use reads the same in both but for
two words, which are translated. OpenAPI's `discriminator` is an object (the property and
a map of its values to components) where AsyncAPI's is a property's name whose values
are component names, which ours are not: the object is kept as `x-discriminator`, and
the alternatives still tell themselves apart by their `const`. OpenAPI's single `example`
is draft-07's `examples`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from .socket_closes import CHANNEL_CLOSES

SOURCE = Path(__file__).resolve().parent / "asyncapi_source.yaml"
CHECKED_IN = Path(__file__).resolve().parent / "asyncapi.yaml"
SCHEMAS = "#/components/schemas/"


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            yield ref
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def _schema_names(node: Any) -> set[str]:
    """The components `node` refers to: a reference into one (`ActionRequest/properties/
    action`) names that component."""
    return {ref.removeprefix(SCHEMAS).split("/")[0] for ref in _refs(node) if ref.startswith(SCHEMAS)}


def reachable_components(openapi: dict[str, Any], names: set[str]) -> dict[str, Any]:
    """The OpenAPI components `names` and every component they reach, in the OpenAPI
    document's order."""
    components = openapi["components"]["schemas"]
    missing = names - components.keys()
    if missing:
        raise ValueError(f"the AsyncAPI source names components the OpenAPI document lacks: {sorted(missing)}")
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo += _schema_names(components[name]) - seen
    return {name: schema for name, schema in components.items() if name in seen}


def as_asyncapi_schema(node: Any) -> Any:
    """An OpenAPI 3.1 schema in AsyncAPI's words (see the module's docstring)."""
    if isinstance(node, list):
        return [as_asyncapi_schema(value) for value in node]
    if not isinstance(node, dict):
        return node
    schema: dict[str, Any] = {}
    for key, value in node.items():
        if key == "discriminator" and isinstance(value, dict):
            schema["x-discriminator"] = copy.deepcopy(value)
        elif key == "example":
            schema.setdefault("examples", [copy.deepcopy(value)])
        elif key in ("properties", "patternProperties", "$defs", "definitions"):
            # Names of properties, not keywords: only their schemas are translated.
            schema[key] = {name: as_asyncapi_schema(sub) for name, sub in value.items()}
        elif key in ("enum", "const", "examples", "default", "required"):
            schema[key] = copy.deepcopy(value)  # values, not schemas
        else:
            schema[key] = as_asyncapi_schema(value)
    return schema


def build(openapi: dict[str, Any]) -> dict[str, Any]:
    """The AsyncAPI document, from its source, the close table and `openapi`."""
    document = yaml.safe_load(SOURCE.read_text())
    for name, channel in document["channels"].items():
        channel["x-close-codes"] = [
            {"code": close.code, "reason": close.reason, "description": close.description}
            for close in CHANNEL_CLOSES[name]
        ]
    own = document["components"]["schemas"]
    borrowed = reachable_components(openapi, _schema_names(document) - own.keys())
    clashes = own.keys() & borrowed.keys()
    if clashes:
        raise ValueError(f"the AsyncAPI source's own schemas clash with OpenAPI components: {sorted(clashes)}")
    own.update({name: as_asyncapi_schema(schema) for name, schema in borrowed.items()})
    return document


def render(document: dict[str, Any]) -> str:
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100)


def served_openapi() -> dict[str, Any]:
    """The OpenAPI document as /api/schema/ serves it (drf-spectacular's generator)."""
    from drf_spectacular.renderers import OpenApiJsonRenderer
    from drf_spectacular.settings import spectacular_settings

    generator = spectacular_settings.DEFAULT_GENERATOR_CLASS()
    # Through drf-spectacular's own renderer, which turns its lazy texts and numbers into
    # plain JSON, as /api/schema/ does.
    rendered = OpenApiJsonRenderer().render(generator.get_schema(request=None, public=True), renderer_context={})
    schema: dict[str, Any] = json.loads(rendered)
    return schema


@cache
def served() -> str:
    """The document as /api/asyncapi.yaml serves it: made once per process (the OpenAPI
    document takes seconds to generate)."""
    return render(build(served_openapi()))
