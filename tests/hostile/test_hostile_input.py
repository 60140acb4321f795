"""Every class of hostile input gets a clear 4xx in the error shape, and changes nothing.

Each request goes to gunicorn over a socket; after each, the room's version, its action
log and its event log (and the counts of rooms, players and idempotent answers) are
read from the database and must be exactly as before.
"""

from __future__ import annotations

import json
import socket
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from games import rules
from games.models import Action

from .support import Table, assert_error_shape, snapshot, token_client

ROOM_ENDPOINTS = [
    ("GET", ""),
    ("GET", "qr.svg"),
    ("POST", "join"),
    ("POST", "leave"),
    ("POST", "bots"),
    ("POST", "start"),
    ("GET", "state"),
    ("POST", "actions"),
    ("GET", "events"),
    ("GET", "rounds"),
    ("GET", "replay"),
]


def refused(
    table: Table,
    method: str,
    path: str,
    *,
    status: int,
    code: str,
    attr: str | None = None,
    seat: int = 0,
    **kwargs: Any,
) -> dict[str, Any]:
    """Send one request and check the refusal: status, shape, code, attr, nothing changed."""
    before = snapshot(table.code)
    res = table.clients[seat].request(method, path, **kwargs)
    assert res.status_code == status, (method, path, res.status_code, res.text[:300])
    error = assert_error_shape(res)
    assert (error["code"], error["attr"]) == (code, attr), error
    assert snapshot(table.code) == before
    return error


def post_action(table: Table, body: bytes | str, **kwargs: Any) -> dict[str, Any]:
    headers = {"Content-Type": "application/json", **kwargs.pop("headers", {})}
    return refused(table, "POST", table.path("actions"), content=body, headers=headers, **kwargs)


def my_view(table: Table, seat: int = 0) -> dict[str, Any]:
    res = table.clients[seat].get(table.path("state"))
    assert res.status_code == 200, res.text
    return res.json()


def legal_pass(view: dict[str, Any]) -> dict[str, Any]:
    return {"type": "pass_cards", "cards": view["you"]["hand"][:3]}


def raw_exchange(url: str, head: bytes, body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
    """One request written byte for byte (httpx refuses control characters in headers)."""
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as sock:
        sock.sendall(head + b"\r\nConnection: close\r\n\r\n" + body)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    top, _, payload = answer.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    if headers.get("transfer-encoding") == "chunked":
        body = b""
        while True:
            size_line, _, payload = payload.partition(b"\r\n")
            size = int(size_line, 16)
            if not size:
                break
            body, payload = body + payload[:size], payload[size + 2 :]
        payload = body
    return int(lines[0].split(" ")[1]), headers, payload


# -- 1. NUL and control characters --------------------------------------------------


@pytest.mark.parametrize("segment", ["%00", "AB%00CD", "ABC%00DE", "%01%02%03%04%05%06", "ABCDE%7F", "ABCDEFG"])
def test_room_codes_that_cannot_exist_are_404_on_every_room_endpoint(table: Table, segment: str) -> None:
    for method, tail in ROOM_ENDPOINTS:
        kwargs: dict[str, Any] = {"json": {}} if method == "POST" else {}
        refused(table, method, f"/api/v1/rooms/{segment}/{tail}", status=404, code="not_found", **kwargs)


@pytest.mark.parametrize(
    ("action", "attr"),
    [
        ({"type": "pass_cards", "cards": ["2C"], "x": "a\u0000b"}, "action.x"),
        ({"type": "pass_cards", "cards": ["2C\u0000", "3C", "4C"]}, "action.cards.0"),
        ({"type": "play\u0000", "card": "2C"}, "action.type"),
        ({"type": "pass_cards", "cards": ["2C", "3C", "4C"], "\u0001": 1}, "action"),
        ({"type": "pass_cards", "cards": ["2C", "3C", "\x1b[31m"]}, "action.cards.2"),
        ({"type": "pass_cards", "cards": ["2C", "3C", "4C\u0085"]}, "action.cards.2"),
        # attr quotes names only: not a key of a kilobyte, nor one that is not a name.
        ({"type": "pass_cards", "k" * 1000: {"x": "\u0000"}}, "action"),
        ({"type": "pass_cards", "a.b": ["\u0000"]}, "action"),
    ],
)
def test_control_characters_anywhere_in_a_body(table: Table, action: dict[str, Any], attr: str) -> None:
    body = json.dumps({"version": my_view(table)["version"], "action": action})
    post_action(table, body, status=400, code="invalid_character", attr=attr)


def test_control_characters_in_names_and_room_fields(table: Table) -> None:
    auth = table.clients[0]
    cases = [
        ("/api/v1/auth/register", {"username": "eve\u0000", "password": "a-long-secret-9"}, "username"),
        (
            "/api/v1/auth/register",
            {"username": "eve", "password": "a-long-secret-9", "display_name": "E\u0007"},
            "display_name",
        ),
        ("/api/v1/auth/token", {"username": "eve\u0000", "password": "a-long-secret-9"}, "username"),
        ("/api/v1/auth/guest", {"display_name": "Guest\u0000"}, "display_name"),
        ("/api/v1/auth/guest", {"display_name": "tab\there"}, "display_name"),
        ("/api/v1/rooms/", {"game": "hearts", "name": "room\u0000"}, "name"),
        ("/api/v1/rooms/", {"game": "hearts\u0000"}, "game"),
        ("/api/v1/rooms/", {"game": "hearts", "options": {"preset": "\u0000"}}, "options.preset"),
    ]
    for path, body, attr in cases:
        before = snapshot(table.code)
        res = auth.post(path, json=body)
        assert res.status_code == 400, (path, body, res.text)
        error = assert_error_shape(res)
        assert (error["code"], error["attr"]) == ("invalid_character", attr), (body, error)
        assert snapshot(table.code) == before


@pytest.mark.parametrize("value", ["%00", "hea%00rts", "%01", "hearts%1B", "hea%C2%85rts"])
def test_control_characters_in_a_query_parameter(table: Table, value: str) -> None:
    # One refusal with the body's code; a NUL gets no second, uncatalogued one from DRF.
    error = refused(
        table, "GET", f"/api/v1/leaderboard?game={value}", status=400, code="invalid_character", attr="game"
    )
    assert error["detail"] == "Holds a control character."


@pytest.mark.parametrize(
    "header",
    [
        b"Idempotency-Key: abc\x00def",
        b"Idempotency-Key: abc\x01def",
        b"Authorization: Token abc\x00def",
        b"Authorization: Token abc\x1bdef",
        b"X-Anything: \x7f",
    ],
)
def test_control_characters_in_headers(table: Table, header: bytes) -> None:
    from tests.tokens import account_token

    view = my_view(table)
    body = json.dumps({"version": view["version"], "action": legal_pass(view)}).encode()
    token = account_token(table.users[0])
    host = urlsplit(table.url).netloc.encode()
    lines = [
        f"POST {table.path('actions')} HTTP/1.1".encode(),
        b"Host: " + host,
        b"Content-Type: application/json",
        b"Content-Length: " + str(len(body)).encode(),
    ]
    if not header.startswith(b"Authorization"):
        lines.append(f"Authorization: Token {token}".encode())
    lines.append(header)
    before = snapshot(table.code)
    status, _, payload = raw_exchange(table.url, b"\r\n".join(lines), body)
    # gunicorn refuses such a header itself (its own 400 page) before the application
    # sees it; test_control_characters_in_headers_reaching_the_app covers servers that
    # pass it on.
    assert status == 400, (status, payload[:300])
    assert snapshot(table.code) == before


@pytest.mark.parametrize(
    ("meta", "attr"),
    [
        ({"HTTP_IDEMPOTENCY_KEY": "abc\x00def"}, "Idempotency-Key"),
        ({"HTTP_IDEMPOTENCY_KEY": "abc\x01def"}, "Idempotency-Key"),
        ({"HTTP_AUTHORIZATION": "Token abc\x00def"}, "Authorization"),
        ({"HTTP_X_ANYTHING": "\x7f"}, "X-Anything"),
        ({"CONTENT_TYPE": "application/json\x00"}, "Content-Type"),
    ],
)
def test_control_characters_in_headers_reaching_the_app(table: Table, meta: dict[str, str], attr: str) -> None:
    """Through Django's whole middleware stack, as a server that passes such headers on
    (daphne, the development server) would deliver them."""
    from django.test import Client

    from tests.tokens import account_token

    view = my_view(table)
    token = account_token(table.users[0])
    body = json.dumps({"version": view["version"], "action": legal_pass(view)})
    headers = {"HTTP_AUTHORIZATION": f"Token {token}", "CONTENT_TYPE": "application/json", **meta}
    before = snapshot(table.code)
    res = Client().generic("POST", table.path("actions"), body, **headers)
    assert res.status_code == 400, res.content
    body = res.json()
    assert set(body) == {"type", "errors"}
    assert (body["errors"][0]["code"], body["errors"][0]["attr"]) == ("invalid_character", attr)
    assert snapshot(table.code) == before


# -- 2. Lone surrogates and invalid UTF-8 -------------------------------------------


def test_lone_surrogates_are_refused_not_echoed(table: Table) -> None:
    version = my_view(table)["version"]
    # Written by hand: the escapes are what a client sends, valid JSON syntax.
    body = f'{{"version": {version}, "action": {{"type": "\\udc00"}}}}'
    error = post_action(table, body, status=400, code="invalid_character", attr="action.type")
    assert "\\udc00" not in error["detail"]
    body = f'{{"version": {version}, "action": {{"type": "play", "card": "\\ud83c"}}}}'
    post_action(table, body, status=400, code="invalid_character", attr="action.card")
    res = table.clients[0].post(
        "/api/v1/rooms/",
        content='{"game": "hearts", "options": {"\\udc00": 1}}',
        headers={"Content-Type": "application/json"},
    )
    assert res.status_code == 400 and (assert_error_shape(res)["code"], assert_error_shape(res)["attr"]) == (
        "invalid_character",
        "options",
    )


@pytest.mark.parametrize(
    "body",
    [
        b'{"version": 1, "action": {"type": "\xff"}}',
        b'{"version": 1, "action": {"type": "\xed\xb0\x80"}}',  # a surrogate, UTF-8-encoded
        b"\xef\xbb\xbf{}",  # a byte-order mark
        b'{"version": NaN, "action": {}}',
        b'{"version": Infinity, "action": {}}',
        b"{",
        b"",
    ],
)
def test_bytes_that_are_not_json_in_utf8(table: Table, body: bytes) -> None:
    if body == b"":
        # No body at all: the fields are missing.
        post_action(table, body, status=400, code="required", attr="version")
        return
    post_action(table, body, status=400, code="parse_error")


# -- 3. Deep nesting ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("actions", "[" * 4000),
        ("actions", '{"a":' * 600 + "1" + "}" * 600),
        ("actions", '{"version": 1, "action": {"type": "play", "card": ' + "[" * 9 + "]" * 9 + "}}"),
        ("join", "[" * 60_000),
        ("join", '{"a":' * 5000 + "1" + "}" * 5000),
    ],
)
def test_deep_nesting_is_bounded(table: Table, path: str, body: str) -> None:
    if path == "actions":
        post_action(table, body, status=400, code="too_deep")
    else:
        refused(
            table,
            "POST",
            table.path(path),
            content=body,
            headers={"Content-Type": "application/json"},
            status=400,
            code="too_deep",
        )


def test_nesting_within_the_bound_is_parsed(table: Table) -> None:
    # Ten levels are allowed; the field is then refused for what it is.
    body = json.dumps({"version": 0, "action": {"type": "play", "card": [[[[[[[[]]]]]]]]}})
    post_action(table, body, status=409, code="stale_version")


# -- 4. Big bodies ------------------------------------------------------------------


def test_big_bodies_answer_413(table: Table) -> None:
    from tests.tokens import account_token

    view = my_view(table)
    # Over Django's own cap (2.5 MB): refused from the declared length, before anything
    # reads the body (so the client need not even send it all).
    token = account_token(table.users[0])
    head = (
        f"POST {table.path('actions')} HTTP/1.1\r\nHost: {urlsplit(table.url).netloc}\r\n"
        f"Authorization: Token {token}\r\nContent-Type: application/json\r\nContent-Length: 3000000"
    )
    before = snapshot(table.code)
    status, headers, payload = raw_exchange(table.url, head.encode(), b'{"version": 1, "pad": "' + b"x" * 1000)
    assert status == 413 and headers["content-type"] == "application/json", payload
    assert json.loads(payload)["errors"][0]["code"] == "body_too_large"
    assert snapshot(table.code) == before
    # Over the actions endpoint's limit (4 KB), however legal the action in it.
    padded = {**legal_pass(view), "pad": "x" * 5000}
    post_action(table, json.dumps({"version": view["version"], "action": padded}), status=413, code="body_too_large")
    # Over the general limit (64 KB) elsewhere.
    refused(
        table,
        "POST",
        "/api/v1/rooms/",
        json={"game": "hearts", "name": "x" * 66_000},
        status=413,
        code="body_too_large",
    )


def test_a_body_sent_in_chunks_is_bounded_too(table: Table) -> None:
    view = my_view(table)
    body = json.dumps({"version": view["version"], "action": {**legal_pass(view), "pad": "x" * 10_000}}).encode()

    def chunks() -> Any:
        for i in range(0, len(body), 8192):
            yield body[i : i + 8192]

    before = snapshot(table.code)
    res = table.clients[0].post(table.path("actions"), content=chunks(), headers={"Content-Type": "application/json"})
    assert 400 <= res.status_code < 500, res.text
    assert_error_shape(res)
    assert snapshot(table.code) == before


# -- 5. Numbers ---------------------------------------------------------------------


@pytest.mark.parametrize(
    # Empty: given, and not a number (the document says an integer; leave it out for 0).
    "after",
    ["", "²", "¹²", "٣", "-1", "+1", "1.0", "1e3", " 1", "99999999999999999999999", "2147483648"],
)
def test_events_after_is_ascii_digits_in_range(table: Table, after: str) -> None:
    refused(table, "GET", table.path("events"), params={"after": after}, status=400, code="invalid", attr="after")


def test_events_after_in_range_still_answers(table: Table) -> None:
    for after in ("0", "2147483647", "007"):
        assert table.clients[0].get(table.path("events"), params={"after": after}).status_code == 200


@pytest.mark.parametrize(
    "version", ["٣", "²", "¹²", 2**64, 2**63, -1, -(2**70), 1.0, 1.5, True, None, [], {}, "1.0", " 1"]
)
def test_version_is_a_whole_number_in_range(table: Table, version: Any) -> None:
    body = json.dumps({"version": version, "action": legal_pass(my_view(table))})
    post_action(table, body, status=400, code="invalid", attr="version")


@pytest.mark.parametrize("team", ["\u0661", "٣", "²", -1, 2, 2**64, 1.0, True, "1 "])
def test_team_numbers_are_whole_numbers_in_range(table: Table, team: Any) -> None:
    for tail in ("join", "bots"):
        refused(table, "POST", table.path(tail), json={"team": team}, status=400, code="invalid", attr="team")


def test_numbers_beyond_64_bits_anywhere_in_a_body(table: Table) -> None:
    view = my_view(table)
    body = f'{{"version": {view["version"]}, "action": {{"type": "play", "card": 1{"0" * 30}}}}}'
    post_action(table, body, status=400, code="invalid", attr="action.card")
    body = f'{{"version": {view["version"]}, "action": {{"type": "play", "card": 1e400}}}}'
    post_action(table, body, status=400, code="invalid", attr="action.card")
    # Past Python's own limit on digits (and past the actions endpoint's size limit).
    refused(
        table,
        "POST",
        table.path("join"),
        content='{"team": ' + "9" * 5000 + "}",
        headers={"Content-Type": "application/json"},
        status=400,
        code="parse_error",
    )


# -- 6. Options of the wrong JSON type ----------------------------------------------

WRONG_VALUES: list[Any] = [[], ["short"], {}, {"a": 1}, "text", 1, 1.5, True, None]


def _json_type_fits(schema: dict[str, Any], value: Any) -> bool:
    kind = schema["type"]
    if value is None:
        return bool(schema.get("nullable"))
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "array":
        return isinstance(value, list)
    return isinstance(value, str)


def test_every_option_of_the_wrong_type_names_the_option(table: Table) -> None:
    client = table.clients[0]
    for game in rules.all_games():
        catalogue = game.catalogue()
        cases = [("preset", value) for value in WRONG_VALUES if value is not None and not isinstance(value, str)]
        cases += [
            (name, value)
            for name, schema in catalogue["options"].items()
            for value in WRONG_VALUES
            if not _json_type_fits(schema, value)
        ]
        for name, value in cases:
            before = snapshot(table.code)
            res = client.post("/api/v1/rooms/", json={"game": game.key, "options": {name: value}})
            assert res.status_code == 400, (game.key, name, value, res.text)
            error = assert_error_shape(res)
            assert (error["code"], error["attr"]) == ("invalid", name), (game.key, name, value, error)
            assert snapshot(table.code) == before


# -- 7. Unknown fields in an action -------------------------------------------------


def test_unknown_fields_are_refused_and_only_the_game_fields_are_stored(table: Table) -> None:
    view = my_view(table)
    action = legal_pass(view)
    for extra, attr in [
        ({"pad": "x"}, "pad"),
        ({"card": "2C"}, "card"),
        ({"x" * 50: 1}, "action"),
        ({"a-b": 1}, "action"),
    ]:
        body = json.dumps({"version": view["version"], "action": {**action, **extra}})
        post_action(table, body, status=400, code="invalid", attr=attr)
    # Every type of every game refuses a field it does not define.
    assert (
        table.clients[0].post(table.path("actions"), json={"version": view["version"], "action": action}).status_code
        == 200
    )
    stored = Action.objects.get(round__room__code=table.code)
    assert stored.payload == action


# -- 8. Idempotency-Key -------------------------------------------------------------


def test_idempotency_keys_over_the_limit_are_refused_not_cut(table: Table) -> None:
    view = my_view(table)
    body = json.dumps({"version": view["version"], "action": legal_pass(view)})
    prefix = "k" * 100
    for key in (prefix + "A", prefix + "B", "x" * 5000, b"caf\xe9", "with space"):
        post_action(table, body, headers={"Idempotency-Key": key}, status=400, code="invalid", attr="Idempotency-Key")
    ok = table.clients[0].post(
        table.path("actions"), content=body, headers={"Content-Type": "application/json", "Idempotency-Key": prefix}
    )
    assert ok.status_code == 200, ok.text
    schema = httpx.get(table.url + "/api/schema/?format=json").json()
    params = schema["paths"]["/api/v1/rooms/{code}/actions"]["post"]["parameters"]
    key_schema = next(p for p in params if p["name"] == "Idempotency-Key")["schema"]
    assert key_schema["maxLength"] == 100


# -- 9. JSON answers for every path under /api/ -------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("GET", "/api/v1/nope", 404, "not_found"),
        ("POST", "/api/v1/nope/", 404, "not_found"),
        ("GET", "/api/v2/rooms/", 404, "not_found"),
        ("GET", "/api/", 404, "not_found"),
        ("GET", "/api/v1/rooms/ABCDEF/state/extra", 404, "not_found"),
        ("DELETE", "/api/v1/rooms/{code}/actions", 405, "method_not_allowed"),
        ("PUT", "/api/v1/games/", 405, "method_not_allowed"),
        ("PATCH", "/api/v1/rooms/{code}/state", 405, "method_not_allowed"),
    ],
)
def test_unknown_paths_and_wrong_methods(table: Table, method: str, path: str, status: int, code: str) -> None:
    res_error = refused(table, method, path.format(code=table.code), status=status, code=code)
    assert method not in res_error["detail"]


def test_wrong_methods_keep_the_allow_header(table: Table) -> None:
    res = table.clients[0].delete(table.path("actions"))
    assert res.status_code == 405 and "POST" in res.headers["Allow"]


@pytest.mark.parametrize(
    "content_type",
    [
        "multipart/form-data; boundary=xyz",
        "application/x-www-form-urlencoded",
        "text/plain",
        "application/xml",
    ],
)
def test_bodies_that_are_not_json_answer_415(table: Table, content_type: str) -> None:
    view = my_view(table)
    body = json.dumps({"version": view["version"], "action": legal_pass(view)})
    error = refused(
        table,
        "POST",
        table.path("actions"),
        content=body,
        headers={"Content-Type": content_type},
        status=415,
        code="unsupported_media_type",
    )
    assert content_type not in error["detail"]


def test_multipart_form_answers_415(table: Table) -> None:
    refused(
        table,
        "POST",
        table.path("actions"),
        data={"version": "1"},
        files={"action": ("a.json", b"{}")},
        status=415,
        code="unsupported_media_type",
    )


def test_over_long_uris_answer_414_where_the_app_sees_them(table: Table) -> None:
    refused(table, "GET", table.path("events"), params={"after": "1", "x": "y" * 3000}, status=414, code="uri_too_long")
    refused(table, "GET", "/api/v1/" + "a" * 3000, status=414, code="uri_too_long")


def test_the_web_client_pages_are_untouched(gunicorn_url: str, transactional_db: Any) -> None:
    # Only /api/ answers JSON errors; the pages keep Django's own.
    assert httpx.get(gunicorn_url + "/nope").headers["content-type"].startswith("text/html")


def test_the_happy_path_still_works(table: Table, make_user: Any) -> None:
    """After all of the above, a client that sends what the API defines is served."""
    view = my_view(table)
    res = table.clients[0].post(
        table.path("actions"),
        json={"version": view["version"], "action": legal_pass(view)},
        headers={"Idempotency-Key": "a" * 100},
    )
    assert res.status_code == 200, res.text
    other = token_client(table.url, make_user())
    assert other.get(table.path("events"), params={"after": "0"}).status_code == 200
    assert other.get(table.path("")).status_code == 200


def test_a_host_the_server_does_not_serve_answers_in_the_shape(table: Table) -> None:
    # Django's own 400 (DisallowedHost) is a page; under /api/ it is the error shape.
    refused(table, "GET", table.path("state"), headers={"Host": "elsewhere.example"}, status=400, code="bad_request")


@pytest.mark.parametrize(
    ("status", "code", "kind"),
    [
        (400, "bad_request", "client_error"),
        (403, "permission_denied", "client_error"),
        (500, "server_error", "server_error"),
    ],
)
def test_any_page_under_the_api_becomes_the_error_shape(rf: Any, status: int, code: str, kind: str) -> None:
    """Whatever layer answers with a page (Django's error views, a failing renderer),
    the client of /api/ reads JSON; the Allow and Retry-After headers survive."""
    from django.http import HttpResponse

    from api.middleware import ApiErrorsMiddleware

    def page(request: Any) -> HttpResponse:
        response = HttpResponse("<h1>Oops</h1>", status=status, content_type="text/html")
        response["Retry-After"] = "7"
        return response

    res = ApiErrorsMiddleware(page)(rf.get("/api/v1/games/"))
    assert (res.status_code, res["Content-Type"], res["Retry-After"]) == (status, "application/json", "7")
    body = json.loads(res.content)
    assert body["type"] == kind and [(e["code"], e["attr"]) for e in body["errors"]] == [(code, None)]
    # Pages outside the API are left alone.
    assert ApiErrorsMiddleware(page)(rf.get("/join/ABCDEF"))["Content-Type"] == "text/html"
