import re

import pytest

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
    assert {g["key"] for g in res.json()} == {"hearts", "moon", "kali_tidi"}
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
    ref = operation["responses"][status]["content"]["application/json"]["schema"]["$ref"]
    schema = doc["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert schema["required"] == ["type", "errors"]
    code = schema["properties"]["errors"]["items"]["properties"]["code"]
    # Open: the known codes, then any string (codes a later v1 adds).
    known, other = code["anyOf"]
    assert code["x-open"] is True and other == {"type": "string"}
    return set(known["enum"])


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
    # Not `[{}]` (sign-in optional), which generators read as needing a signed-in client.
    assert set(map(str, anonymous.values())) == {"None"}
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
