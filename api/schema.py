"""OpenAPI additions: every operation's error answers, and the table of stable error
codes in the document's description.

drf-standardized-errors renders the errors; its own schema generator is not used for
them because it describes a validation error per serializer field (`attr` one of the
field names), while this API also names nested paths and headers in `attr`, and it
knows nothing of the codes the services answer. Here each operation lists the codes it
can answer, each code's status comes from every app's catalogue put together
(`api.error_catalogue.ERROR_CODES`), and every status gets the one error shape with its
codes as an enum.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.plumbing import ResolvedComponent
from drf_spectacular.utils import Direction
from drf_standardized_errors.openapi_utils import get_flat_serializer_fields, get_serializer_fields_with_error_codes
from inflection import camelize
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.serializers import BaseSerializer

from games.rules.schema import open_enum
from grants.authentication import BearerAuthentication

from . import schema_security  # noqa: F401 (registers the app tokens' security schemes)
from .error_catalogue import ERROR_CODES
from .inputs import IDEMPOTENCY_KEY_MAX

# What any request under /api/ may be answered before or around its view
# (api/middleware.py): a host Django does not serve, a control character in a header, a
# declared body over the limit (even on a GET), a long URI, a failure of the server.
ANY_REQUEST = ("bad_request", "invalid_character", "body_too_large", "uri_too_long", "server_error")
# What reading a JSON body may answer (api/parsers.py and DRF's media type check).
BODY = (
    "parse_error",
    "duplicate_key",
    "too_deep",
    "invalid_character",
    "invalid",
    "body_too_large",
    "unsupported_media_type",
)


def answers(*codes: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare the codes a view method answers beyond those its view's classes imply
    (authentication, throttles, body, serializer fields, path parameters)."""
    unknown = set(codes) - set(ERROR_CODES)
    if unknown:
        raise ValueError(f"undocumented error codes: {sorted(unknown)}")

    def mark(method: Callable[..., Any]) -> Callable[..., Any]:
        method.error_codes = frozenset(codes)  # type: ignore[attr-defined]
        return method

    return mark


def _serializer_codes(serializer: Any) -> set[str]:
    if isinstance(serializer, type) and issubclass(serializer, BaseSerializer):
        serializer = serializer()
    if not isinstance(serializer, BaseSerializer):
        return set()
    fields = get_serializer_fields_with_error_codes(get_flat_serializer_fields(serializer))
    # DRF's fields list every message they have; those the parser or a field of ours
    # makes unreachable (NUL, surrogates, min_value) are not among the API's codes.
    return {code for field in fields for code in field.error_codes} & set(ERROR_CODES)


ERROR_CODE = (
    "Stable: every code this version knows (the document's description has the table; each error answer "
    "lists its own in `x-error-codes`); later versions of v1 may add codes, which clients handle by the status."
)

# Every 429 says when asking again can succeed (DRF's throttles and our own refusals).
RETRY_AFTER = {
    "schema": {"type": "integer", "minimum": 0},
    "description": "Seconds until asking again can succeed.",
    "required": True,
}

# DRF answers 401 (rather than 403) exactly when it can name the scheme to authenticate with.
WWW_AUTHENTICATE = {
    "schema": {"type": "string"},
    "description": "The scheme to authenticate with (RFC 9110). Where apps' tokens are taken: for a refused "
    'bearer token RFC 6750\'s `Bearer realm="api", error="invalid_token"`, for a refused `Token` `Token`, '
    'without credentials `Token, Bearer realm="api"`. On the sign-in operations: `Token`.',
    "required": True,
}
# RFC 6750, 3.1: a bearer token without the scope is answered 403 with the scope it needs.
SCOPE_CHALLENGE = {
    "schema": {"type": "string"},
    "description": 'With `insufficient_scope` only: `Bearer realm="api", error="insufficient_scope", '
    'scope="<the scope the operation needs>"` (RFC 6750); without `scope` where no app token may call it.',
    "required": False,
}
STATUS_HEADERS = {401: {"WWW-Authenticate": WWW_AUTHENTICATE}, 429: {"Retry-After": RETRY_AFTER}}


# What an operation does, in a few words, where its view says nothing (a view names its
# own with `extend_schema(summary=...)`); an operation with neither cannot be documented.
SUMMARIES = {
    "auth_guest_create": "Play as a guest: a new guest account and its token",
    "auth_logout_create": "Sign out: end the sign-in that makes the call",
    "auth_register_create": "Make an account and sign in",
    "auth_token_create": "Sign in with a username and password",
    "me_retrieve": "Your own account",
    "rooms_list": "Rooms: those open to join, or your own",
    "rooms_create": "Make a room",
    "rooms_retrieve": "A room: its game, options, seats and status",
    "rooms_bots_create": "Seat a computer player",
    "rooms_join_create": "Take a seat",
    "rooms_leave_create": "Leave your seat",
    "rooms_qr_svg_retrieve": "The room's address as a QR code",
    "rooms_start_create": "Start the match: deal the first hand",
}


def _null_once(schema: dict[str, Any]) -> dict[str, Any]:
    """drf-spectacular adds "null" to the types of a field that allows null even when the
    field's own schema lists it already; JSON Schema wants each type once."""
    kind = schema.get("type")
    if isinstance(kind, list):
        schema["type"] = list(dict.fromkeys(kind))
    return schema


class AutoSchema(SpectacularAutoSchema):
    def get_summary(self) -> str:
        operation_id = self.get_operation_id()
        if operation_id not in SUMMARIES:
            raise LookupError(f"{operation_id} has no summary: give its view one (extend_schema(summary=...)).")
        return SUMMARIES[operation_id]

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is not None and "security" not in operation:
            # Said outright: this operation reads no credentials (an absent list would
            # mean "as the document's default", which this document does not set).
            operation["security"] = []
        return operation

    def _map_serializer_field(self, field: Any, direction: Direction, bypass_extensions: bool = False) -> Any:
        return _null_once(super()._map_serializer_field(field, direction, bypass_extensions))

    def error_codes(self) -> set[str]:
        """Every code this operation can answer."""
        codes = set(ANY_REQUEST)
        view = self.view
        authenticators = view.get_authenticators()
        if authenticators:
            # A token that does not work is refused even where no sign-in is needed.
            codes |= {"authentication_failed", "banned"}
            if any(isinstance(a, BearerAuthentication) for a in authenticators):
                codes.add("insufficient_scope")  # an app's token without the scope
            if not all(isinstance(p, AllowAny) for p in view.get_permissions()):
                codes.add("not_authenticated")
            if self.method not in ("GET", "HEAD", "OPTIONS") and any(
                isinstance(a, SessionAuthentication) for a in authenticators
            ):
                codes.add("permission_denied")  # a session without its CSRF token
        if view.get_throttles():
            codes.add("throttled")
        # drf-spectacular leaves _get_paginator and ResolvedComponent unannotated.
        paginated = self.method == "GET" and self._get_paginator() is not None
        if paginated or any(p["in"] == "path" for p in self._get_parameters()):
            codes.add("not_found")  # an unknown room, or a page past the last
        if self.method in ("POST", "PUT", "PATCH", "DELETE") and self.get_request_serializer() is not None:
            codes |= set(BODY) | _serializer_codes(self.get_request_serializer())
        # A view whose documented body is a schema of its own (the typed action) names
        # the serializer that checks the body's envelope.
        codes |= _serializer_codes(getattr(self.view, "body_serializer", None))
        for parameter in self._query_serializers():
            codes |= _serializer_codes(parameter)
        method = getattr(view, self.method.lower(), None)
        codes |= getattr(method, "error_codes", frozenset())
        return codes

    def _get_request_body(self, direction: Direction = "request") -> Any:
        # drf-spectacular documents bodies of POST, PUT and PATCH only; a DELETE that
        # names what it removes in its body (a push endpoint: a URL too long and too
        # secret for a path) documents that body too.
        if self.method == "DELETE":
            self.method = "POST"
            try:
                return super()._get_request_body(direction)
            finally:
                self.method = "DELETE"
        body = super()._get_request_body(direction)
        if body is not None and isinstance(self.get_request_serializer(), dict):
            # A body given as a raw schema (the action's, built from the engines) is read
            # whole; drf-spectacular tells that of serializers only.
            body["required"] = True
        return body

    def get_operation_id(self) -> str:
        # A path naming a file (`qr.svg`) would put a dot in the id; generators make names of ids.
        return str(super().get_operation_id()).replace(".", "_")

    def get_auth(self) -> list[dict[str, list[str]]]:
        # An operation that reads no credentials asks for none. drf-spectacular writes `[{}]`
        # (sign-in optional) for any AllowAny view, which generators read as a signed-in client.
        if not self.view.get_authenticators():
            return []
        return list(super().get_auth())

    def _query_serializers(self) -> Iterable[Any]:
        overrides = self.get_override_parameters()
        return [p for p in overrides if isinstance(p, BaseSerializer) or isinstance(p, type)]

    def _get_response_bodies(self, direction: Direction = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction=direction)
        if direction != "response":
            return responses
        made = getattr(getattr(self.view, self.method.lower(), None), "creates", None)
        if made and "201" in responses:
            responses["201"]["headers"] = {
                "Location": {
                    "schema": {"type": "string", "format": "uri"},
                    "description": f"The URL of {made}.",
                    "required": True,
                }
            }
        by_status: dict[int, set[str]] = defaultdict(set)
        for code in self.error_codes():
            by_status[ERROR_CODES[code][0]].add(code)
        self._register_error_components()
        for status, codes in sorted(by_status.items()):
            responses[str(status)] = {
                "content": {"application/json": {"schema": {"$ref": f"{SCHEMAS}{ERROR}"}}},
                "description": ", ".join(f"`{code}`" for code in sorted(codes)),
                # The codes this operation answers with this status, for readers that act
                # on them (the description says the same to people).
                ERROR_CODES_EXTENSION: sorted(codes),
                **({"headers": STATUS_HEADERS[status]} if status in STATUS_HEADERS else {}),
            }
            if "insufficient_scope" in codes:
                responses[str(status)]["headers"] = {"WWW-Authenticate": SCOPE_CHALLENGE}
        return responses

    def _register_error_components(self) -> None:
        for name, schema in error_components().items():
            component = ResolvedComponent(name=name, type=ResolvedComponent.SCHEMA, schema=schema, object=name)
            self.registry.register_on_missing(component)


SCHEMAS = "#/components/schemas/"
ERROR = "Error"
ERROR_CODES_EXTENSION = "x-error-codes"
# What an error's `type` says: a field's error (attr set) is a validation_error, a
# malformed request or a refusal a client_error, a failure of the server a server_error.
ERROR_TYPES = ["client_error", "validation_error", "server_error"]


def error_components() -> dict[str, Any]:
    """The one error shape every error answer refers to, and its parts: each a component,
    so that a generated client has one type of each (not one per operation and status).
    Each operation's answer lists its own codes in `x-error-codes` and its description."""
    return {
        ERROR: {
            "type": "object",
            "description": "An error answer: its kind, and one or more errors.",
            "properties": {
                "type": {"$ref": f"{SCHEMAS}ErrorType"},
                "errors": {"type": "array", "minItems": 1, "items": {"$ref": f"{SCHEMAS}ErrorDetail"}},
            },
            "required": ["type", "errors"],
        },
        "ErrorType": open_enum(
            ERROR_TYPES,
            "`validation_error`: a field's value (`attr` names it); `client_error`: the request or what it asks; "
            "`server_error`: the server failed. Later versions of v1 may add kinds: go by the status.",
        ),
        "ErrorDetail": {
            "type": "object",
            "properties": {
                "code": {"$ref": f"{SCHEMAS}ErrorCode"},
                "detail": {"type": "string", "description": "What went wrong, in words for people."},
                "attr": {
                    "type": ["string", "null"],
                    "description": "The field, nested path or header the error is about; null for the request.",
                },
            },
            "required": ["code", "detail", "attr"],
        },
        "ErrorCode": open_enum(list(ERROR_CODES), ERROR_CODE),
    }


INTRO = """\
Turn-based trick-taking games (Hearts, Moon, Kali Tidi) over REST.

Authenticate with `Authorization: Token <token>` (from `auth/register`, `auth/token` or
`auth/guest`). Apps acting for players send `Authorization: Bearer <token>`: an OAuth2
access token (authorization code with PKCE at `/oauth/authorize/` and `/oauth/token/`)
or a personal access token (`me/tokens`), each limited to its scopes (`read`, `play`,
`notifications`); every operation's `oauth2` security requirement names the scope it
needs, and a token without it is answered `403 insufficient_scope`. Every error has the shape
`{{"type": "client_error"|"server_error"|"validation_error", "errors": [{{"code", "detail", "attr"}}]}}`.
Send `Idempotency-Key: <uuid>` with an action to make retries safe.

## Limits
What is beyond them is refused with the error below and changes nothing.
- A JSON body: at most {body} bytes, an action at most {action} (`413 body_too_large`).
- Objects and arrays nest at most {depth} deep (`400 too_deep`); an object names each key
  once (`400 duplicate_key`).
- No string of a body, and no header, holds a control character or invalid Unicode
  (`400 invalid_character`).
- The path and query: at most {uri} characters (`414 uri_too_long`).
- `Idempotency-Key`: 1 to {key} visible ASCII characters (`400 invalid`).
- Numbers such as `version` and `after`: ASCII digits from 0 to 2147483647 (`400 invalid`).
- An action holds only the fields its type defines (`400 invalid`, `attr` naming the field).

## Provably fair deals (`hmac-sha256-fisher-yates-v2`)
Anyone can check after a hand that its deal was fixed before the players chose anything
and was not picked by the server (hands dealt before v2 name `hmac-sha256-fisher-yates-v1`,
which joined the client seeds with commas where v2 writes a JSON array):
- **Commitment.** For each hand the server draws `server_seed`, 32 random bytes written
  as 64 lowercase hex characters, before that hand's players can set their seeds: hand
  1's when the room is created, hand n+1's when hand n ends. The view carries
  `fairness: {{"algorithm": "hmac-sha256-fisher-yates-v2", "commitment": C, "hand": n}}`,
  C = SHA-256 (hex) of the 64 ASCII characters of `server_seed`.
- **Players' seeds.** A seated player may set `client_seed` (0 to 64 printable ASCII
  characters, default empty) with `PUT rooms/{{code}}/client_seed` until their hand
  begins (in the lobby, or between hands); it is public (`seats[i].client_seed`).
- **Shuffle.** Start from the canonical deck: cards as `2C 3C … AC 2D … AS` (suits C D
  H S, ranks 2 to A), repeated per deck, less the cards removed for the match (the first
  copy of each, in that order); dominoes `a-b` with a ≥ b ordered by a then b
  (`0-0 1-0 1-1 2-0 …`), less the tiles the variant leaves out (three-player Moon:
  `1-0` to `6-0`). Bytes come from HMAC-SHA256(key = the 32 seed bytes, message =
  `"{{code}}:{{hand}}:{{redeal}}:{{seeds}}:{{counter}}"` in UTF-8), counter 0, 1, 2, …,
  blocks concatenated; `seeds` is the seats' client seeds in seat order as a JSON array
  of strings without spaces (`["alice","","bob","x"]`), `redeal` counts
  Moon's all-pass redeals within the hand (0 first). Fisher-Yates from the last index
  down: for i = n-1 … 1, read 4 bytes as a big-endian unsigned x, read again while
  x ≥ 2³² - (2³² mod (i+1)), then j = x mod (i+1) and swap positions i and j.
- **Deal.** Round-robin from seat 0: seat s gets positions s, s+P, s+2P, … until each
  holds its hand size; what is left is Moon's widow.
- **Reveal.** Once a hand is over, `GET rooms/{{code}}/rounds` gives it `fairness:
  {{algorithm, game, code, hand, commitment, server_seed, client_seeds, deals}}`, every
  deal with each seat's hand in the order dealt and what was left over. Before then
  nothing of it leaves the server. `tools/verify_deals.py` checks a room's answer.

## Error codes
| code | status | meaning |
|---|---|---|
"""


def add_error_codes(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    rows = "\n".join(f"| `{code}` | {status} | {meaning} |" for code, (status, meaning) in ERROR_CODES.items())
    intro = INTRO.format(
        body=settings.API_MAX_BODY_BYTES,
        action=settings.API_MAX_ACTION_BYTES,
        depth=settings.API_MAX_JSON_DEPTH,
        uri=settings.API_MAX_URI_CHARS,
        key=IDEMPOTENCY_KEY_MAX,
    )
    result.setdefault("info", {})["description"] = intro + rows + "\n"
    # The API is served from the same origin as this document; said outright, since
    # readers differ on what a document without servers means.
    result["servers"] = [{"url": "/", "description": "This server (the document's own origin)."}]
    return result


def strict_requests(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Request bodies refuse fields they do not define (api.serializers.StrictSerializer),
    and the document says so; with COMPONENT_SPLIT_REQUEST their components end in
    `Request`."""
    for name, schema in result.get("components", {}).get("schemas", {}).items():
        if name.endswith("Request") and schema.get("type") == "object":
            schema["additionalProperties"] = False
            for field in schema.get("properties", {}).values():
                _blank_or_pattern(field)
                _default_in_words(field)
    return result


def _default_in_words(field: dict[str, Any]) -> None:
    """A request field's default, said in its description rather than as `default`:
    generators (openapi-typescript) make a field with a default one the client must send,
    while the server fills it in."""
    for holder in [field, *field.get("anyOf", []), *field.get("oneOf", [])]:
        if "default" in holder:
            default = json.dumps(holder.pop("default"))
            said = f"Default: `{default}`."
            field["description"] = f"{field['description']} {said}" if field.get("description") else said


def _blank_or_pattern(field: dict[str, Any]) -> None:
    """drf-spectacular writes a string that may be blank and has a pattern as `oneOf` the
    pattern and the empty string; where the pattern matches "" too, "" matches both and
    so neither, by oneOf's rule. The meaning is "either", which is `anyOf`."""
    alternatives = field.get("oneOf")
    if alternatives and {"type": "string", "maxLength": 0} in alternatives:
        field["anyOf"] = field.pop("oneOf")


def room_links(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """OpenAPI links from a new room to every operation on it, so that clients (and
    schemathesis' stateful phase) know where its `code` goes."""
    paths = result.get("paths", {})
    create = paths.get("/api/v1/rooms/", {}).get("post")
    if create is None:
        return result
    links = {}
    for path, operations in paths.items():
        if "{code}" not in path:
            continue
        for operation in operations.values():
            operation_id = operation["operationId"]
            links[camelize(operation_id)] = {
                "operationId": operation_id,
                "parameters": {"code": "$response.body#/code"},
            }
    create["responses"]["201"]["links"] = links
    return result
