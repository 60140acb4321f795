"""What the server answers, held to the OpenAPI document it serves, read strictly.

One checker for every test:

- `served_document()`: the document as `/api/schema/` serves it (JSON, generated in-process).
- `closed(document)`: a copy read strictly. Every object schema that does not say whether
  it allows more properties gets `unevaluatedProperties: false` (JSON Schema 2020-12, so
  it sees through `allOf`/`anyOf`/`oneOf`): an answer may hold no property the document
  does not name. A composition the document declares open to values added later
  (`x-open: true` on an `anyOf`/`oneOf`, whose last alternative is the fallback) loses that
  fallback: every value the server sends now must be listed. An OpenAPI 3.0 document is
  read as 3.1 (`nullable: true` becomes a `null` alternative), whose schemas are 2020-12.
- `check_response(...)`, `check_django(response)`, `StrictTransport`/`httpx_response_hook`
  and `validate_recorded(records)`: an HTTP answer through openapi-core against the closed
  document: its status is documented for the operation, its content type, its body, and
  its documented headers (and a header the API lets browsers read, `CORS_EXPOSE_HEADERS`,
  sent but not documented for that answer fails too). A request body the server accepted
  (2xx) must be one the document allows.
- `check_component(name, value)`: a value that is no HTTP answer (an engine's view, a
  legal action, an event, a scored hand) against `#/components/schemas/<name>` of the
  closed document, with jsonschema's Draft 2020-12 validator.

A failure raises AssertionError naming the operation or component, the JSON pointer into
the value, the schema's place in the document and the schema's complaint.

`STRICT_ANSWERS_RECORD=<folder>` turns every check into a recorder: each failure is
appended to `<folder>/<pid>.jsonl` and nothing is raised, so one run sees every failure
of every answer; `scripts/strict_report.py` runs the suites so and prints the list.

Everything is built once per process: the document, its closed reading, openapi-core's
`OpenAPI` and each component's validator.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass
from typing import Any
from urllib.parse import parse_qsl, quote, urlsplit

import httpx
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from jsonschema.exceptions import ValidationError  # type: ignore[import-untyped]

DOCUMENT_URL = "/api/schema/"
DOCUMENT_MEDIA_TYPE = "application/vnd.oai.openapi+json"
HOST = "http://testserver"
RECORD_ENV = "STRICT_ANSWERS_RECORD"
SCHEMAS = "#/components/schemas/"
# An answer's failures shown in one AssertionError, the rest counted.
SHOWN = 12

Schema = dict[str, Any]


# -- the document ------------------------------------------------------------------------------


@functools.cache
def served_document() -> dict[str, Any]:
    """The document `/api/schema/` serves, as JSON. Serving it reads no database."""
    from django.test import Client

    res = Client().get(DOCUMENT_URL, HTTP_ACCEPT=DOCUMENT_MEDIA_TYPE)
    assert res.status_code == 200, (res.status_code, res.content[:500])
    document: dict[str, Any] = json.loads(res.content)
    return document


# Where a schema holds schemas.
_ONE = frozenset(
    {"items", "additionalProperties", "unevaluatedProperties", "unevaluatedItems", "not", "contains"}
    | {"propertyNames", "if", "then", "else", "contentSchema"}
)
_MANY = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_COMPOSITIONS = ("allOf", "anyOf", "oneOf")
# An OpenAPI 3.0 schema's keyword that 3.1 drops (its null alternative is written out instead).
_NULLABLE = "nullable"
OPEN_SUFFIX = ".open"
# Where an error answer lists the codes its operation answers with its status.
ERROR_CODES_EXTENSION = "x-error-codes"


def _is_object_schema(schema: Mapping[str, Any]) -> bool:
    kind = schema.get("type")
    return "properties" in schema or kind == "object" or (isinstance(kind, list) and "object" in kind)


def _adds_properties(schema: Mapping[str, Any]) -> bool:
    return any(k in schema for k in ("properties", "patternProperties", "additionalProperties"))


class _Reader:
    """One closed reading of a document (see `closed`)."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.source = document
        self.legacy = str(document.get("openapi", "")).startswith("3.0")
        self.components: dict[str, Any] = document.get("components", {}).get("schemas", {})
        self.open_variants: dict[str, Schema] = {}

    def schema(self, node: Any, *, open_top: bool = False) -> Any:
        """`node` read strictly; `open_top`: its own top level stays open to properties
        named beside it (a member of a composition that adds properties of its own)."""
        if not isinstance(node, dict):
            return node
        if "$ref" in node and open_top:
            node = {**node, "$ref": self.open_ref(node["$ref"])}
        out: Schema = {}
        composed = False
        for key, value in node.items():
            if key in _ONE and isinstance(value, dict):
                out[key] = self.schema(value)
            elif key in _MANY and isinstance(value, dict):
                out[key] = {name: self.schema(sub) for name, sub in value.items()}
            elif key in _LISTS and isinstance(value, list):
                # A composition that is a part of an object (beside properties of its own,
                # several parts together, or within an object read open): its members let
                # the other parts' properties by, and the whole is closed here.
                members_open = key in _COMPOSITIONS and (
                    open_top or _adds_properties(node) or (key == "allOf" and len(value) > 1)
                )
                composed = composed or members_open
                out[key] = [self.schema(sub, open_top=members_open) for sub in value]
            else:
                out[key] = copy.deepcopy(value)
        if out.get("x-open") is True:
            self.drop_fallback(out)
        discriminator = out.get("discriminator")
        if isinstance(discriminator, dict) and isinstance(discriminator.get("propertyName"), str):
            # The discriminating property is what picks the alternative: it is there.
            required = out.setdefault("required", [])
            if discriminator["propertyName"] not in required:
                required.append(discriminator["propertyName"])
        if self.legacy:
            _legacy_numbers(out)
        if (
            (_is_object_schema(out) or composed)
            and not open_top
            and "additionalProperties" not in out
            and "unevaluatedProperties" not in out
        ):
            out["unevaluatedProperties"] = False
        if self.legacy and out.pop(_NULLABLE, False) is True:
            notes: Schema = {k: out.pop(k) for k in ("description", "title", "default", "example") if k in out}
            out = {"anyOf": [out, {"type": "null"}], **notes}
        else:
            out.pop(_NULLABLE, None)
        return out

    def drop_fallback(self, out: Schema) -> None:
        """An open composition, closed: its last alternative (the fallback) is dropped."""
        for key in ("anyOf", "oneOf"):
            members = out.get(key)
            if not isinstance(members, list) or len(members) < 2:
                continue
            fallback = members.pop()
            mapping = out.get("discriminator", {}).get("mapping")
            if isinstance(mapping, dict) and isinstance(fallback, dict) and "$ref" in fallback:
                for value, ref in list(mapping.items()):
                    if ref == fallback["$ref"]:
                        del mapping[value]

    def open_ref(self, ref: str) -> str:
        """The reference to the open reading of the component `ref` names."""
        if not ref.startswith(SCHEMAS) or "/" in ref[len(SCHEMAS) :]:
            return ref
        name = ref[len(SCHEMAS) :]
        if name.endswith(OPEN_SUFFIX):
            return ref
        variant = name + OPEN_SUFFIX
        if variant not in self.open_variants and name in self.components:
            self.open_variants[variant] = {}  # a placeholder while it is read (a cycle)
            self.open_variants[variant] = self.schema(self.components[name], open_top=True)
        return SCHEMAS + variant

    def media(self, content: Any) -> Any:
        if not isinstance(content, dict):
            return content
        out = {}
        for media_type, spec in content.items():
            if not isinstance(spec, dict) or "schema" not in spec:
                out[media_type] = spec
            elif self.legacy and spec["schema"] == {"type": "string", "format": "binary"}:
                # 3.0's bytes of any kind; 3.1 says so with no schema (its strings are text).
                out[media_type] = {k: v for k, v in spec.items() if k != "schema"}
            else:
                out[media_type] = {**spec, "schema": self.schema(spec["schema"])}
        return out

    def parameter(self, parameter: Any) -> Any:
        if not isinstance(parameter, dict):
            return parameter
        out = dict(parameter)
        if "schema" in out:
            out["schema"] = self.schema(out["schema"])
        if "content" in out:
            out["content"] = self.media(out["content"])
        return out

    def response(self, response: Any, status: str = "") -> Any:
        if not isinstance(response, dict):
            return response
        out = dict(response)
        if "content" in out:
            out["content"] = self.media(_own_errors(out["content"], response.get(ERROR_CODES_EXTENSION), status))
        if isinstance(out.get("headers"), dict):
            out["headers"] = {name: self.parameter(h) for name, h in out["headers"].items()}
        return out

    def operation(self, operation: Any) -> Any:
        if not isinstance(operation, dict):
            return operation
        out = dict(operation)
        if isinstance(out.get("parameters"), list):
            out["parameters"] = [self.parameter(p) for p in out["parameters"]]
        body = out.get("requestBody")
        if isinstance(body, dict) and "content" in body:
            out["requestBody"] = {**body, "content": self.media(body["content"])}
        if isinstance(out.get("responses"), dict):
            out["responses"] = {status: self.response(r, status) for status, r in out["responses"].items()}
        return out

    def document(self) -> dict[str, Any]:
        out = copy.deepcopy(dict(self.source))
        if self.legacy:
            out["openapi"] = "3.1.0"
        paths = {}
        for path, item in self.source.get("paths", {}).items():
            paths[path] = {key: self.operation(value) for key, value in item.items()}
            if isinstance(item.get("parameters"), list):
                paths[path]["parameters"] = [self.parameter(p) for p in item["parameters"]]
        out["paths"] = paths
        components = out.setdefault("components", {})
        schemas = {name: self.schema(schema) for name, schema in self.components.items()}
        for kind, read in (
            ("parameters", self.parameter),
            ("headers", self.parameter),
            ("responses", self.response),
        ):
            if kind in components:
                components[kind] = {name: read(value) for name, value in self.source["components"][kind].items()}
        if "requestBodies" in components:
            components["requestBodies"] = {
                name: {**body, "content": self.media(body.get("content", {}))}
                for name, body in self.source["components"]["requestBodies"].items()
            }
        schemas.update(self.open_variants)
        components["schemas"] = schemas
        return out


def _own_errors(content: Any, codes: Any, status: str) -> Any:
    """An error answer refers to the one `Error` shape, whose code and type are any this
    version knows (and, open, any string); read strictly it holds only the codes its
    operation lists for that status (`x-error-codes`), and the kind of error the status
    is: a failure of the server (5xx), a field's or the request's (400), else the request's."""
    if not isinstance(codes, list) or not isinstance(content, dict):
        return content
    if status.startswith("5"):
        kinds = ["server_error"]
    elif status == "400":
        kinds = ["client_error", "validation_error"]
    else:
        kinds = ["client_error"]
    out = {}
    for media_type, spec in content.items():
        own = {
            # Open here, so that only the `Error` part (read closed) names the properties.
            "additionalProperties": True,
            "properties": {
                "type": {"enum": kinds},
                "errors": {"items": {"additionalProperties": True, "properties": {"code": {"enum": codes}}}},
            },
        }
        out[media_type] = {**spec, "schema": {"allOf": [spec["schema"], own]}}
    return out


def _legacy_numbers(schema: Schema) -> None:
    """3.0's boolean `exclusiveMinimum`/`exclusiveMaximum` as 3.1's numbers."""
    for bound, exclusive in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")):
        if schema.get(exclusive) is True and bound in schema:
            schema[exclusive] = schema.pop(bound)
        elif schema.get(exclusive) is False:
            del schema[exclusive]


def closed(document: Mapping[str, Any]) -> dict[str, Any]:
    """A deep copy of `document` read strictly (see the module's docstring). An OpenAPI 3.0
    document comes back as 3.1."""
    return _Reader(document).document()


@functools.cache
def closed_document() -> dict[str, Any]:
    return closed(served_document())


# -- failures ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Failure:
    """One thing the document does not allow. `subject`: the operation (`GET /api/v1/me 200`)
    or the component checked; `schema`: where in the (closed) document the failing schema is;
    `pointer`: where in the value; `keyword`: the schema keyword that failed, or what of the
    answer (`status`, `content-type`, `header`, `request`); `holder`: the `type` of the
    object missing or holding the property (an event's, an action's), if it has one."""

    subject: str
    keyword: str
    message: str
    schema: str = ""
    pointer: str = ""
    sample: str = ""
    holder: str = ""

    def line(self) -> str:
        where = f" at {self.pointer or '/'}" if self.keyword not in ("status", "content-type", "path", "header") else ""
        schema = f" [{self.schema}]" if self.schema else ""
        return f"{self.subject}:{where} {self.message}{schema}"


def _sample(value: Any, limit: int = 300) -> str:
    try:
        text = json.dumps(value, sort_keys=True, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _pointer(parts: Iterable[Any]) -> str:
    return "".join("/" + _escape(p) for p in parts)


def _at(pointer: str) -> Any:
    """The value at a JSON pointer (no leading #) of the closed document."""
    node: Any = closed_document()
    for raw in pointer.split("/")[1:]:
        key = raw.replace("~1", "/").replace("~0", "~")
        node = node[int(key)] if isinstance(node, list) else node[key]
    return node


@functools.cache
def _pointer_of_parts(parts: tuple[Any, ...]) -> str:
    """The JSON pointer of a place named by its keys from the root, references followed."""
    node: Any = closed_document()
    at = ""
    for key in parts:
        while isinstance(node, dict) and key not in node and isinstance(node.get("$ref"), str):
            at = node["$ref"].removeprefix("#")
            node = _at(at)
        node = node[int(key)] if isinstance(node, list) else node[key]
        at += "/" + _escape(key)
    return at


@functools.cache
def _schemas_by_content() -> dict[str, str]:
    """Every schema object of the closed document by its JSON: where it first is."""
    places: dict[str, str] = {}

    def walk(node: Any, at: str) -> None:
        if isinstance(node, dict):
            places.setdefault(json.dumps(node, sort_keys=True), at)
            for key, value in node.items():
                walk(value, f"{at}/{_escape(key)}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{at}/{i}")

    walk(closed_document(), "")
    return places


def _place(root: str, error: ValidationError) -> str:
    """Where in the closed document the schema that failed is: its path from `root` (the
    pointer of the schema validated), references followed; else found by its content."""
    node: Any = _at(root)
    at = root
    for key in list(error.absolute_schema_path)[:-1]:
        # A validator may be given the schema behind a reference, or a reference to it.
        while isinstance(node, dict) and key not in node and str(node.get("$ref", "")).startswith("#"):
            at = node["$ref"][1:]
            node = _at(at)
        if key == "$ref" and isinstance(node, dict) and "$ref" not in node:
            continue
        if key == "$ref" and isinstance(node, dict) and str(node.get("$ref", "")).startswith("#"):
            at = node["$ref"][1:]
            node = _at(at)
        elif isinstance(node, dict) and key in node:
            node, at = node[key], f"{at}/{_escape(key)}"
        elif isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
            node, at = node[key], f"{at}/{key}"
        else:
            # A path the validator took by a way of its own (openapi-core's discriminator).
            return "#" + _schemas_by_content().get(json.dumps(error.schema, sort_keys=True), root)
    # The keyword that failed is the referenced schema's.
    while isinstance(node, dict) and error.validator not in node and str(node.get("$ref", "")).startswith("#"):
        at = node["$ref"][1:]
        node = _at(at)
    return "#" + at


def _leaves(error: ValidationError) -> Iterator[ValidationError]:
    """The errors that say what is wrong: within a failed `anyOf`/`oneOf`, those of the
    alternative that came closest (failed deepest, then fewest times)."""
    if not error.context:
        yield error
        return
    branches: dict[Any, list[ValidationError]] = defaultdict(list)
    for sub in error.context:
        branches[sub.relative_schema_path[0] if sub.relative_schema_path else None].append(sub)
    closest = max(branches.values(), key=lambda errs: (min(len(e.absolute_path) for e in errs), -len(errs)))
    for sub in closest:
        yield from _leaves(sub)


_UNEXPECTED = re.compile(r"\((.*) (?:was|were) unexpected\)")
_QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"")
_REQUIRED = re.compile(r"^('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\") is a required property")


def _schema_failures(subject: str, root: str, errors: Iterable[ValidationError]) -> list[Failure]:
    """jsonschema's errors against the schema at `root` (a JSON pointer into the closed
    document) as failures: one per unexpected or missing property."""
    out: list[Failure] = []
    for top in errors:
        for error in _leaves(top):
            path = list(error.absolute_path)
            schema = _place(root, error)
            keyword = str(error.validator)
            holder = error.instance.get("type") if isinstance(error.instance, dict) else None
            holder = holder if isinstance(holder, str) else ""
            if keyword in ("unevaluatedProperties", "additionalProperties") and isinstance(error.instance, dict):
                match = _UNEXPECTED.search(error.message)
                names = [a or b for a, b in _QUOTED.findall(match.group(1))] if match else []
                for name in names or [""]:
                    value = error.instance.get(name) if name else error.instance
                    out.append(
                        Failure(
                            subject,
                            keyword,
                            f"property {name!r} is not in the document",
                            schema,
                            _pointer([*path, name] if name else path),
                            _sample(value),
                            holder,
                        )
                    )
                continue
            if keyword == "required":
                match = _REQUIRED.match(error.message)
                name = match.group(1)[1:-1] if match else ""
                message = f"required property {name!r} is missing"
                out.append(Failure(subject, keyword, message, schema, _pointer([*path, name]), holder=holder))
                continue
            out.append(Failure(subject, keyword, error.message, schema, _pointer(path), _sample(error.instance)))
    return out


def _conclude(failures: list[Failure]) -> None:
    """Raise the failures, or record them (STRICT_ANSWERS_RECORD)."""
    if not failures:
        return
    folder = os.environ.get(RECORD_ENV)
    if folder:
        os.makedirs(folder, exist_ok=True)
        test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]
        with open(os.path.join(folder, f"{os.getpid()}.jsonl"), "a") as out:
            for failure in failures:
                out.write(json.dumps({**asdict(failure), "test": test}) + "\n")
        return
    lines = [f.line() for f in failures[:SHOWN]]
    if len(failures) > SHOWN:
        lines.append(f"... and {len(failures) - SHOWN} more")
    first = failures[0]
    sample = f"\nvalue at {first.pointer or '/'}: {first.sample}" if first.sample else ""
    raise AssertionError(f"{len(failures)} disagreement(s) with the served document:\n  " + "\n  ".join(lines) + sample)


# -- components --------------------------------------------------------------------------------


URN = "urn:strict-answers"


@functools.cache
def _registry() -> Any:
    import jsonschema_rs

    return jsonschema_rs.Registry([(URN, closed_document())])


@functools.cache
def _fast(pointer: str) -> Any:
    """jsonschema-rs's validator of the schema at `pointer` of the closed document. Its
    yes is taken (it is some hundred times faster); its no is told in full, or overruled,
    by the Python validators, whose word is final."""
    import jsonschema_rs

    ref = f"{URN}#{quote(pointer, safe="/~-._!$&'()*+,;=:@")}"
    return jsonschema_rs.Draft202012Validator({"$ref": ref}, registry=_registry(), validate_formats=True)


@functools.cache
def _component_validator(name: str) -> Draft202012Validator:
    schemas = closed_document().get("components", {}).get("schemas", {})
    if name not in schemas:
        raise KeyError(f"the document has no component {name!r}")
    root = {"$ref": SCHEMAS + name, "components": closed_document()["components"]}
    return Draft202012Validator(root, format_checker=Draft202012Validator.FORMAT_CHECKER)


def has_component(name: str) -> bool:
    return name in closed_document().get("components", {}).get("schemas", {})


def component_failures(name: str, value: Any) -> list[Failure]:
    validator = _component_validator(name)
    pointer = "/components/schemas/" + _escape(name)
    fast = _fast(pointer)
    try:
        if fast.is_valid(value):
            return []
    except (TypeError, ValueError):
        pass  # not JSON as it stands (a key that is no string): read through JSON below
    # Through JSON, as a client reads it (a funky pass's seat keys become strings).
    value = json.loads(json.dumps(value))
    if fast.is_valid(value):
        return []
    return _schema_failures(name, pointer, validator.iter_errors(value))


def check_component(name: str, value: Any) -> None:
    """`value` is what `#/components/schemas/<name>` of the closed document allows."""
    _conclude(component_failures(name, value))


# -- answers -----------------------------------------------------------------------------------


class _QuickSchemaValidator:
    """openapi-core's validator of one schema, asked only when jsonschema-rs says no
    (`_fast`); built only then too. A failure names the schema's place."""

    def __init__(self, schema: Any, make: Callable[[], Any]) -> None:
        self.schema = schema
        self._make = make
        self._real: Any = None

    @property
    def real(self) -> Any:
        if self._real is None:
            self._real = self._make()
        return self._real

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def __contains__(self, schema_format: str) -> bool:
        return schema_format in self.real

    def validate(self, value: Any) -> None:
        from openapi_core.validation.schemas.exceptions import InvalidSchemaValue

        pointer = _pointer_of_parts(tuple(self.schema.parts))
        # Bytes (a binary answer) are no JSON: openapi-core's own reading of them stands.
        if not isinstance(value, bytes | bytearray) and _fast(pointer).is_valid(value):
            return
        try:
            self.real.validate(value)
        except InvalidSchemaValue as exc:
            exc.strict_root = pointer  # type: ignore[attr-defined]
            raise


@functools.cache
def _schema_validators_factory() -> Any:
    from openapi_core.validation.schemas import oas31_schema_validators_factory, oas32_schema_validators_factory
    from openapi_core.validation.schemas.factories import DialectSchemaValidatorsFactory

    base = oas32_schema_validators_factory if _is_32() else oas31_schema_validators_factory

    class Factory(DialectSchemaValidatorsFactory):
        def create(self, spec: Any, schema: Any, *args: Any, **kwargs: Any) -> Any:
            return _QuickSchemaValidator(schema, lambda: super(Factory, self).create(spec, schema, *args, **kwargs))

    return Factory(base.schema_validator_cls, base.default_jsonschema_dialect_id, base.format_checker)


def _is_32() -> bool:
    return str(closed_document()["openapi"]).startswith("3.2")


@functools.cache
def _openapi() -> Any:
    from openapi_core import Config, OpenAPI

    # openapi-core checks the closed reading with openapi-spec-validator first, as for any
    # document it reads: a reading no validator accepts is no reading to hold answers to.
    config = Config(
        schema_validators_factory=_schema_validators_factory(),
        # An SVG is text (XML): its schema is a string with its `contentMediaType`.
        extra_media_type_deserializers={"image/svg+xml": lambda data: data.decode("utf-8")},
    )
    return OpenAPI.from_dict(closed_document(), config=config)


@functools.cache
def _validators() -> tuple[Any, Any]:
    """openapi-core's validators of an answer, and of a request's body alone."""
    from openapi_core.validation.request.validators import V31RequestBodyValidator, V32RequestBodyValidator

    app = _openapi()
    body = V32RequestBodyValidator if _is_32() else V31RequestBodyValidator
    return app.response_validator, body(app.spec, schema_validators_factory=_schema_validators_factory())


@functools.cache
def _operations() -> list[tuple[re.Pattern[str], str, dict[str, Any]]]:
    """Each documented path as a pattern, its template and its operations."""
    out = []
    for template, item in closed_document().get("paths", {}).items():
        pattern = re.escape(template)
        pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", pattern)
        out.append((re.compile(f"^{pattern}$"), template, item))
    # Literal paths before templated ones (`me/tokens` before `players/{username}`).
    out.sort(key=lambda entry: entry[1].count("{"))
    return out


def _operation(method: str, path: str) -> tuple[str, dict[str, Any]] | None:
    for pattern, template, item in _operations():
        if pattern.match(path) and method.lower() in item:
            return template, item[method.lower()]
    return None


@functools.cache
def _exposed_headers() -> frozenset[str]:
    """The headers a browser's script may read of an answer: when sent, documented. But
    `Allow`, which DRF's views send on every answer (the path's methods, as HTTP has it)."""
    from django.conf import settings

    return frozenset(h.lower() for h in getattr(settings, "CORS_EXPOSE_HEADERS", ())) - {"allow"}


class _Request:
    """What openapi-core reads of a request (its Request protocol)."""

    def __init__(self, method: str, path: str, query: str, body: bytes | None, content_type: str) -> None:
        from openapi_core.datatypes import RequestParameters
        from werkzeug.datastructures import Headers, ImmutableMultiDict

        self.host_url = HOST
        self.path = path
        self.method = method.lower()
        self.body = body
        self.content_type = content_type
        self.parameters = RequestParameters(
            query=ImmutableMultiDict(parse_qsl(query, keep_blank_values=True)),
            header=Headers({"Content-Type": content_type} if content_type else {}),
            cookie=ImmutableMultiDict(),
        )


class _Response:
    """What openapi-core reads of an answer (its Response protocol)."""

    def __init__(self, status: int, headers: Mapping[str, str], body: bytes) -> None:
        from werkzeug.datastructures import Headers

        self.status_code = status
        self.headers = Headers(list(headers.items()))
        self.content_type = self.headers.get("Content-Type", "")
        self.data = body


def _as_bytes(body: Any) -> bytes:
    if body is None:
        return b""
    if isinstance(body, bytes):
        return body
    if isinstance(body, str):
        return body.encode()
    return json.dumps(body).encode()


def _body_failures(subject: str, exc: BaseException) -> list[Failure] | None:
    """The schema errors under one of openapi-core's exceptions, if any."""
    from openapi_core.validation.schemas.exceptions import InvalidSchemaValue

    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, InvalidSchemaValue):
            errors = [e for e in seen.schema_errors if isinstance(e, ValidationError)]
            return _schema_failures(subject, getattr(seen, "strict_root", ""), errors)
        seen = seen.__cause__ or seen.__context__
    return None


def response_failures(
    method: str,
    path: str,
    status: int,
    headers: Mapping[str, str],
    body: Any,
    request_body: Any = None,
    request_content_type: str = "application/json",
) -> list[Failure]:
    """Everything in one answer the closed document does not allow."""
    from openapi_core.templating.media_types.exceptions import MediaTypeNotFound
    from openapi_core.templating.paths.exceptions import PathError
    from openapi_core.templating.responses.exceptions import ResponseNotFound
    from openapi_core.validation.response.exceptions import MissingData

    method = method.upper()
    url = urlsplit(path)
    found = _operation(method, url.path)
    if found is None:
        return [Failure(f"{method} {url.path}", "path", "no such operation in the document")]
    template, operation = found
    subject = f"{method} {template} {status}"
    request = _Request(method, url.path, url.query, _as_bytes(request_body), request_content_type)
    response = _Response(status, headers, _as_bytes(body))
    response_validator, request_body_validator = _validators()
    out: list[Failure] = []
    for exc in response_validator.iter_errors(request, response):
        body_failures = _body_failures(subject, exc)
        if body_failures is not None:
            out.extend(body_failures)
        elif isinstance(exc, ResponseNotFound) or isinstance(exc.__cause__, ResponseNotFound):
            documented = ", ".join(sorted(operation.get("responses", {})))
            out.append(Failure(subject, "status", f"status {status} is not documented (documented: {documented})"))
        elif isinstance(exc, MediaTypeNotFound) or isinstance(exc.__cause__, MediaTypeNotFound):
            types = sorted(operation["responses"].get(str(status), {}).get("content", {}))
            out.append(
                Failure(subject, "content-type", f"content type {response.content_type!r} is not one of {types}")
            )
        elif isinstance(exc.__cause__, MissingData) or isinstance(exc, MissingData):
            out.append(Failure(subject, "content-type", "the answer has no body; the document gives it one"))
        elif isinstance(exc, PathError):
            out.append(Failure(subject, "path", str(exc)))
        else:
            name = getattr(exc, "name", "")
            cause = exc.__cause__
            detail = str(cause or exc)
            out.append(Failure(subject, "header" if name else type(exc).__name__, f"{name or ''} {detail}".strip()))
    # A header a browser may read (CORS_EXPOSE_HEADERS) is part of the answer: documented.
    documented_headers = {
        h.lower() for h in operation.get("responses", {}).get(str(status), {}).get("headers", {}) or {}
    }
    for header in sorted(_exposed_headers() & {h.lower() for h in response.headers.keys()} - documented_headers):
        out.append(
            Failure(
                subject,
                "header",
                f"header {header!r} is sent but not documented for this status",
                sample=_sample(response.headers.get(header)),
            )
        )
    # What the server accepted, the document must allow.
    if request_body not in (None, b"", "") and 200 <= status < 300 and "requestBody" in operation:
        request_subject = f"{method} {template} request"
        for exc in request_body_validator.iter_errors(request):
            body_failures = _body_failures(request_subject, exc)
            if body_failures is not None:
                out.extend(body_failures)
            else:
                out.append(Failure(request_subject, "request", str(exc.__cause__ or exc)))
    return out


def check_response(
    method: str,
    path: str,
    status: int,
    headers: Mapping[str, str],
    body: Any,
    request_body: Any = None,
) -> None:
    """The answer `status`, `headers`, `body` to `method path` (query string allowed) is
    one the closed document allows; a `request_body` the server accepted (2xx) is one it
    allows too. `body` is the bytes sent (or text, or JSON-like data)."""
    _conclude(response_failures(method, path, status, headers, body, request_body))


def check_django(response: Any, request_body: Any = None) -> Any:
    """A Django or DRF test client's answer. Returns the answer, for chaining."""
    request = response.request
    query = request.get("QUERY_STRING", "")
    path = request["PATH_INFO"] + (f"?{query}" if query else "")
    content = b"" if getattr(response, "streaming", False) else response.content
    check_response(request["REQUEST_METHOD"], path, response.status_code, response.headers, content, request_body)
    return response


def httpx_response_hook(response: httpx.Response) -> None:
    """An httpx response event hook: `httpx.Client(event_hooks={"response": [httpx_response_hook]})`."""
    response.read()
    request = response.request
    check_response(
        request.method,
        request.url.raw_path.decode(),
        response.status_code,
        response.headers,
        response.content,
        request.content or None,
    )


class StrictTransport(httpx.BaseTransport):
    """An httpx transport that checks every answer of the one it wraps."""

    def __init__(self, inner: httpx.BaseTransport, check: Callable[[httpx.Response], None] | None = None) -> None:
        self.inner = inner
        self.check = check or httpx_response_hook
        self.answers = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        response.request = request
        self.check(response)
        self.answers += 1
        return response

    def close(self) -> None:
        self.inner.close()


def validate_recorded(records: Iterable[Mapping[str, Any]]) -> None:
    """Answers recorded elsewhere (another client's test), each a dict with `method`,
    `path` (query string allowed), `status`, `content_type` and `body` (the text sent, or
    its JSON), and optionally `headers` and `request_body`. Every failure of every answer
    is raised at once."""
    failures: list[Failure] = []
    count = 0
    for record in records:
        count += 1
        headers = dict(record.get("headers") or {})
        if record.get("content_type") and not any(k.lower() == "content-type" for k in headers):
            headers["Content-Type"] = record["content_type"]
        failures.extend(
            response_failures(
                record["method"],
                record["path"],
                int(record["status"]),
                headers,
                record.get("body"),
                record.get("request_body"),
            )
        )
    assert count, "no answers were recorded"
    _conclude(failures)


# -- the engines' values -----------------------------------------------------------------------


def game_label(key: str) -> str:
    """A game's name in the document's components: kali_tidi → KaliTidi."""
    return "".join(part.capitalize() for part in key.split("_"))


def served_view(view: Mapping[str, Any]) -> dict[str, Any]:
    """An engine's view with what games.selectors.table_view adds: the room's facts, and
    each seat's public facts under its game facts."""
    seats = [
        {"seat": i, "user": None, "display_name": "Bot", "is_bot": True, "team": None, "client_seed": "", **facts}
        for i, facts in enumerate(view["seats"])
    ]
    room = {
        "code": "ABCDEF",
        "version": 7,
        "status": "playing",
        "status_reason": "",
        "status_cause": None,
        "deadline": None,
        "abandon_deadline": None,
        "rematch": None,
        "fairness": {"algorithm": "hmac-sha256-fisher-yates-v1", "commitment": "0" * 64, "hand": 1},
    }
    return {**room, **view, "seats": seats}


# The log's facts around an engine's event (games.selectors.events_for).
EVENT_ENVELOPE: dict[str, Any] = {"seq": 1, "round": 1, "version": 1, "at": "2026-01-01T00:00:00Z"}


def engine_checker(game_key: str) -> Callable[[str, dict[str, Any]], None]:
    """A `games.rules.conformance.Check` holding what a play-out walks to the document:
    a view (as served) to `<Game>View`, a legal action to `<Game>LegalAction`, an action
    applied to `<Game>Action`, a scored hand to `<Game>Result`, and an event to
    `<Game>Event`. An action or a legal action met before is not checked again."""
    label = game_label(game_key)
    names = {
        "view": f"{label}View",
        "legal_action": f"{label}LegalAction",
        "action": f"{label}Action",
        "result": f"{label}Result",
        "event": f"{label}Event",
    }
    seen: set[tuple[str, str]] = set()

    def check(kind: str, value: dict[str, Any]) -> None:
        if kind == "event":
            # The engine's event as the log serves it: in its envelope.
            value = {**EVENT_ENVELOPE, **value}
        if kind == "view":
            # Views seldom repeat: not worth remembering.
            check_component(names[kind], served_view(value))
            return
        key = (kind, json.dumps(value, sort_keys=True))
        if key in seen:
            return
        seen.add(key)
        check_component(names[kind], value)

    return check
