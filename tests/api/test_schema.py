import re

import pytest

from tests.game_params import game_keys

pytestmark = pytest.mark.django_db


def test_openapi_document_lists_paths_and_error_codes(api_client):
    res = api_client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert res.status_code == 200
    doc = res.json()
    assert "/api/v1/rooms/{code}/actions" in doc["paths"]
    for code in ("must_follow_suit", "stale_version", "not_your_turn", "card_not_in_hand", "room_full"):
        assert f"`{code}`" in doc["info"]["description"]


def test_swagger_ui_is_served_without_a_cdn(api_client):
    res = api_client().get("/api/docs/")
    assert res.status_code == 200
    html = res.content.decode()
    assert "swagger-ui" in html
    # Every script and style it loads is this server's (a random nonce may spell "cdn").
    sources = re.findall(r"""(?:src|href)=["']([^"']+)""", html)
    assert sources and all(not re.match(r"(https?:)?//", source) for source in sources), sources
    assert "unpkg" not in html.lower() and "jsdelivr" not in html.lower()


def test_json_whatever_the_client_accepts_and_the_schema_still_negotiates(api_client):
    """The JSON-only endpoints answer JSON even to an Accept header that asks otherwise;
    the schema, which has several renderers, still follows the header."""
    client = api_client()
    res = client.get("/api/v1/games/", HTTP_ACCEPT="text/html")
    assert res.status_code == 200
    assert res["Content-Type"].startswith("application/json")
    assert [g["key"] for g in res.json()] == game_keys()
    yaml = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi")
    assert yaml["Content-Type"].startswith("application/vnd.oai.openapi")
    assert yaml.content.startswith(b"openapi:")
    as_json = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert as_json["Content-Type"].startswith("application/vnd.oai.openapi+json")


def _document(api_client) -> dict:
    res = api_client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert res.status_code == 200
    return res.json()


def _operations(doc: dict):
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            yield f"{method.upper()} {path}", operation


def _error_codes(doc: dict, operation: dict, status: str) -> set[str]:
    answer = operation["responses"][status]
    # Every error answer is the one shared shape; its own codes are listed beside it.
    assert answer["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
    codes = answer["x-error-codes"]
    assert codes == sorted(set(codes)) and answer["description"] == ", ".join(f"`{c}`" for c in codes)
    return set(codes)


def test_one_error_shape_with_open_codes_and_kinds(api_client):
    from api.error_catalogue import ERROR_CODES

    schemas = _document(api_client)["components"]["schemas"]
    assert not [name for name in schemas if re.search(r"Error\d{3}$", name)]
    error = schemas["Error"]
    assert error["required"] == ["type", "errors"]
    assert error["properties"]["type"] == {"$ref": "#/components/schemas/ErrorType"}
    assert error["properties"]["errors"]["items"] == {"$ref": "#/components/schemas/ErrorDetail"}
    assert schemas["ErrorDetail"]["required"] == ["code", "detail", "attr"]
    # Open: the known values, then any string (what a later v1 adds).
    for name, known in (
        ("ErrorCode", list(ERROR_CODES)),
        ("ErrorType", ["client_error", "validation_error", "server_error"]),
    ):
        values, other = schemas[name]["anyOf"]
        assert schemas[name]["x-open"] is True and other == {"type": "string"}
        assert values == {"type": "string", "enum": known}, name


def test_every_error_answer_lists_its_codes_each_under_its_own_status(api_client):
    from api.error_catalogue import ERROR_CODES

    doc = _document(api_client)
    assert not any(path.startswith("/api/schema") for path in doc["paths"])
    for name, operation in _operations(doc):
        errors = [status for status in operation["responses"] if int(status) >= 400]
        # Every operation can meet a failure of the server, an overlong address, a limit.
        assert {"414", "429", "500"} <= set(errors), name
        for status in errors:
            codes = _error_codes(doc, operation, status)
            assert codes, (name, status)
            assert {code: ERROR_CODES[code][0] for code in codes} == dict.fromkeys(codes, int(status)), name


def test_the_statuses_the_issue_found_undocumented_are_documented(api_client):
    doc = _document(api_client)
    ops = dict(_operations(doc))
    assert _error_codes(doc, ops["POST /api/v1/auth/token"], "401") == {
        "authentication_failed",
        "banned",
        "second_factor_required",
        "wrong_second_factor",
    }
    actions = ops["POST /api/v1/rooms/{code}/actions"]
    assert {"not_seated", "permission_denied", "insufficient_scope"} == _error_codes(doc, actions, "403")
    assert {
        "stale_version",
        "not_your_turn",
        "wrong_phase",
        "room_closed",
        "not_playing",
        "seat_held_by_computer",
    } == _error_codes(doc, actions, "409")
    assert {"must_follow_suit", "unknown_action", "parse_error", "invalid"} <= _error_codes(doc, actions, "400")
    assert {"room_full", "already_started", "already_seated"} <= _error_codes(
        doc, ops["POST /api/v1/rooms/{code}/join"], "409"
    )
    assert "not_seated" in _error_codes(doc, ops["POST /api/v1/rooms/{code}/leave"], "403")
    assert "room_full" in _error_codes(doc, ops["POST /api/v1/rooms/{code}/bots"], "409")
    assert "seats_not_filled" in _error_codes(doc, ops["POST /api/v1/rooms/{code}/start"], "409")
    assert "invalid" in _error_codes(doc, ops["GET /api/v1/rooms/{code}/events"], "400")
    # A GET reads no body, so it cannot answer 415; a POST with none cannot either.
    assert "415" not in ops["GET /api/v1/rooms/{code}/events"]["responses"]
    assert "415" not in ops["POST /api/v1/rooms/{code}/start"]["responses"]


def test_lists_are_arrays_and_request_bodies_closed(api_client):
    doc = _document(api_client)
    ops = dict(_operations(doc))
    for name in ("GET /api/v1/games/", "GET /api/v1/rooms/{code}/events", "GET /api/v1/rooms/{code}/rounds"):
        schema = ops[name]["responses"]["200"]["content"]["application/json"]["schema"]
        assert schema["type"] == "array", name
    requests = {name: s for name, s in doc["components"]["schemas"].items() if name.endswith("Request")}
    assert {"RegisterRequest", "GuestRequest", "RoomCreateRequest", "TeamRequest", "ActionRequest"} <= set(requests)
    for name, schema in requests.items():
        if "oneOf" in schema:  # one body per game (RoomCreateRequest), each closed
            assert all(requests[m["$ref"].rsplit("/", 1)[1]]["additionalProperties"] is False for m in schema["oneOf"])
            continue
        assert schema["additionalProperties"] is False, name
    links = ops["POST /api/v1/rooms/"]["responses"]["201"]["links"]
    assert {link["operationId"] for link in links.values()} >= {"rooms_join_create", "rooms_actions_create"}


def served_document(api_client) -> dict:
    res = api_client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert res.status_code == 200
    return res.json()


def operations(doc: dict):
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                yield path, method, operation


def test_names_a_generator_makes_identifiers_of_are_identifiers(api_client):
    # A dot in an operationId or a component name (a path naming a file, `qr.svg`) becomes
    # a dot in a generated function or class name.
    doc = served_document(api_client)
    name = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
    ids = [operation["operationId"] for _, _, operation in operations(doc)]
    assert len(ids) == len(set(ids))
    assert [i for i in ids if not name.fullmatch(i)] == []
    assert [c for c in doc["components"]["schemas"] if not name.fullmatch(c)] == []
    assert "rooms_qr_svg_retrieve" in ids


def test_operations_that_read_no_credentials_ask_for_none(api_client):
    doc = served_document(api_client)
    anonymous = {
        (path, method): operation.get("security")
        for path, method, operation in operations(doc)
        if (path.startswith("/api/v1/auth/") and path != "/api/v1/auth/logout") or path.startswith("/api/v1/exports/")
    }
    assert set(anonymous) == {
        ("/api/v1/auth/register", "post"),
        ("/api/v1/auth/token", "post"),
        ("/api/v1/auth/guest", "post"),
        ("/api/v1/auth/password-reset", "post"),
        ("/api/v1/auth/password-reset/confirm", "post"),
        ("/api/v1/auth/passkey/options", "post"),
        ("/api/v1/auth/passkey", "post"),
        # A mailed link's token is its only credential.
        ("/api/v1/exports/{token}", "get"),
    }
    # Not `[{}]` (sign-in optional), which generators read as needing a signed-in client,
    # and not left out (which linters read as undecided): none, said outright.
    assert set(map(str, anonymous.values())) == {"[]"}
    for path, method, operation in operations(doc):
        if (path, method) not in anonymous:
            assert operation.get("security"), (path, method)


def test_the_action_body_is_required(api_client):
    doc = served_document(api_client)
    body = doc["paths"]["/api/v1/rooms/{code}/actions"]["post"]["requestBody"]
    assert body["required"] is True
    assert body["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ActionRequest"}


def test_every_429_declares_its_retry_after(api_client):
    doc = served_document(api_client)
    throttled = [(p, m, op["responses"]["429"]) for p, m, op in operations(doc) if "429" in op["responses"]]
    assert throttled
    for path, method, response in throttled:
        header = response["headers"]["Retry-After"]
        assert header["required"] is True and header["schema"]["type"] == "integer", (path, method)


def test_every_operation_says_what_it_does(api_client):
    doc = served_document(api_client)
    missing = [(path, method) for path, method, operation in operations(doc) if not operation.get("summary")]
    assert missing == []


def test_bearer_challenges_are_documented(api_client):
    doc = served_document(api_client)
    scoped = [
        (p, m, op)
        for p, m, op in operations(doc)
        if "insufficient_scope" in op["responses"].get("403", {}).get("x-error-codes", [])
    ]
    assert scoped
    for path, method, operation in scoped:
        header = operation["responses"]["403"]["headers"]["WWW-Authenticate"]
        assert header["required"] is False and 'error="insufficient_scope"' in header["description"], (path, method)
    for path, method, operation in operations(doc):
        if "401" in operation["responses"]:
            assert operation["responses"]["401"]["headers"]["WWW-Authenticate"]["required"] is True, (path, method)


def test_a_new_rooms_options_are_typed_per_game_as_games_describes_them(api_client):
    from jsonschema import Draft202012Validator

    from tests.strict_answers import served_document as whole

    doc = served_document(api_client)
    schemas = doc["components"]["schemas"]
    body = schemas["RoomCreateRequest"]
    games = {game["key"]: game for game in api_client().get("/api/v1/games/").json()}
    assert body["discriminator"]["propertyName"] == "game"
    assert set(body["discriminator"]["mapping"]) == set(games)
    for key, ref in body["discriminator"]["mapping"].items():
        variant = schemas[ref.rsplit("/", 1)[1]]
        assert {"$ref": ref} in body["oneOf"]
        assert variant["properties"]["game"] == {"type": "string", "const": key}
        options = schemas[variant["properties"]["options"]["$ref"].rsplit("/", 1)[1]]
        assert options["additionalProperties"] is False and options["required"] == []
        described = set(games[key]["options"]) | ({"preset"} if games[key]["presets"] else set())
        assert set(options["properties"]) == described, key

    def valid(value):
        document = whole()
        schema = {"$ref": "#/components/schemas/RoomCreateRequest", "components": document["components"]}
        return Draft202012Validator(schema).is_valid(value)

    assert valid({"game": "hearts", "options": {"target": 50}})
    assert not valid({"game": "hearts", "options": {"targte": 50}})  # a typo
    assert not valid({"game": "hearts", "options": {"target": "50"}})  # a value of the wrong type
    assert not valid({"game": "hearts", "options": {"widow": "optional"}})  # Moon's option


def test_an_unknown_option_is_still_the_servers_own_clear_refusal(api_client, make_user):
    res = api_client(make_user("opt")).post(
        "/api/v1/rooms/", {"game": "hearts", "options": {"targte": 50}}, format="json"
    )
    assert res.status_code == 400
    assert [(e["code"], e["attr"]) for e in res.json()["errors"]] == [("invalid", "targte")]


def test_integers_a_request_sends_are_bounded_as_the_server_reads_them(api_client, make_user):
    """A number the server stores in PostgreSQL's integer is documented up to 2**31 - 1,
    and the server answers a clear 400 beyond (not a failure of the database)."""
    doc = served_document(api_client)
    version = doc["components"]["schemas"]["ActionRequest"]["properties"]["version"]
    assert (version["minimum"], version["maximum"]) == (0, 2**31 - 1)
    client = api_client(make_user("bounds"))
    code = client.post("/api/v1/rooms/", {"game": "hearts"}, format="json").json()["code"]
    action = {"type": "next_round"}
    at_most = client.post(f"/api/v1/rooms/{code}/actions", {"version": 2**31 - 1, "action": action}, format="json")
    beyond = client.post(f"/api/v1/rooms/{code}/actions", {"version": 2**31, "action": action}, format="json")
    assert at_most.status_code == 409, at_most.content  # read, and refused by the rules
    assert beyond.status_code == 400 and beyond.json()["errors"][0]["attr"] == "version", beyond.content


def test_bearer_challenges_follow_rfc_6750(api_client, make_user):
    from rest_framework.test import APIClient

    owner = api_client(make_user("scoped"))
    made = owner.post("/api/v1/me/tokens", {"name": "reader", "scopes": ["read"]}, format="json")
    assert made.status_code == 201, made.content
    reader = APIClient()
    reader.credentials(HTTP_AUTHORIZATION=f"Bearer {made.json()['token']}")
    refused = reader.post("/api/v1/rooms/", {"game": "hearts"}, format="json")
    assert refused.status_code == 403 and refused.json()["errors"][0]["code"] == "insufficient_scope"
    assert refused["WWW-Authenticate"] == 'Bearer realm="api", error="insufficient_scope", scope="play"'
    # An operation no app's token may call names no scope that would do.
    player_only = reader.get("/api/v1/me/tokens")
    assert player_only.status_code == 403
    assert player_only["WWW-Authenticate"] == 'Bearer realm="api", error="insufficient_scope"'
    # A 401 answers the scheme the request used; without credentials, both.
    stranger = APIClient()
    stranger.credentials(HTTP_AUTHORIZATION="Bearer pat_not-a-token")
    unknown = stranger.get("/api/v1/me")
    assert unknown.status_code == 401
    assert unknown["WWW-Authenticate"] == 'Bearer realm="api", error="invalid_token"'
    anonymous = APIClient().get("/api/v1/me")
    assert anonymous.status_code == 401
    assert anonymous["WWW-Authenticate"] == 'Token, Bearer realm="api"'
    # A 403 that is no scope's carries no challenge.
    other = owner.post("/api/v1/rooms/ZZZZZZ/leave")
    assert other.status_code in (403, 404) and "WWW-Authenticate" not in other
