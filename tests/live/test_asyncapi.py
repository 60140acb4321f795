"""api/asyncapi.yaml is the sockets' contract: the document holds together, the official
AsyncAPI parser reads it without an error, it is what /api/asyncapi.yaml serves, and the
live sockets keep to it — every message they send during a whole match (and every answer
to a ping) is one of the document's messages, read strictly, its `view` typed by the
OpenAPI components the document carries, and the server closes sockets only as the
document's close table says (api/socket_closes.py; tests/live/test_close_reasons.py reads
the reasons from real servers)."""

from __future__ import annotations

import ast
import asyncio
import difflib
import json
import random
import re
import shutil
import subprocess
import warnings
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from channels.db import database_sync_to_async

from api import socket_closes
from api.asyncapi_document import SOURCE
from games import selectors
from games.models import Room
from games.services import lobby
from tests.api.helpers import move_by_whoever_acts
from tests.sockets import refused_with, room_socket, socket_client, user_socket
from tests.strict_answers import check_component
from tests.tokens import new_token
from tests.yaml_text import read_yaml

from .asyncapi import DOCUMENT_PATH, REPOSITORY, SPECIFICATION_SCHEMA, Contract, load

FOREIGN = "https://elsewhere.example"

DOCUMENT = load()
CONTRACT = Contract(DOCUMENT)


def refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return found + [ref for value in node.values() for ref in refs(value)]
    if isinstance(node, list):
        return [ref for value in node for ref in refs(value)]
    return []


def test_the_document_is_valid_asyncapi_3():
    assert SPECIFICATION_SCHEMA.exists(), "no AsyncAPI specification schema: run `npm ci` (make test does)"
    specification = json.loads(SPECIFICATION_SCHEMA.read_text())
    problems = [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in jsonschema.Draft7Validator(specification).iter_errors(DOCUMENT)
    ]
    assert not problems, problems


def test_the_document_holds_together():
    # What the specification's schema cannot check: references, names and coverage.
    assert DOCUMENT["asyncapi"] == "3.0.0"
    assert DOCUMENT["info"]["title"] and DOCUMENT["info"]["version"]
    assert DOCUMENT["defaultContentType"] == "application/json"
    for ref in refs(DOCUMENT):
        CONTRACT.resolve(ref)  # every reference names something in the document
    for name, server in DOCUMENT["servers"].items():
        assert server["protocol"] in ("ws", "wss"), name
        assert set(re.findall(r"{(\w+)}", server["host"])) <= set(server.get("variables", {})), name
        for scheme in server["security"]:
            assert CONTRACT.resolve(scheme["$ref"])["type"] == "httpApiKey"
    for name, channel in DOCUMENT["channels"].items():
        assert set(re.findall(r"{(\w+)}", channel["address"])) == set(channel.get("parameters", {})), name
        assert channel["x-close-codes"], f"{name} documents no close code"
    carried: set[tuple[str, str]] = set()
    for name, operation in DOCUMENT["operations"].items():
        assert operation["action"] in ("send", "receive"), name
        channel = operation["channel"]["$ref"].removeprefix("#/channels/")
        # A message of an operation (or its reply) is one of its channel's, as AsyncAPI 3 requires.
        for part in (operation, operation.get("reply", {})):
            for message in part.get("messages", []):
                assert message["$ref"].startswith(f"#/channels/{channel}/messages/"), (name, message)
                carried.add((channel, message["$ref"].rsplit("/", 1)[1]))
    # Every message of a channel travels in some operation: none is documented and never sent.
    declared = {(c, m) for c, channel in DOCUMENT["channels"].items() for m in channel.get("messages", {})}
    assert carried == declared
    for name, schema in DOCUMENT["components"]["schemas"].items():
        jsonschema.Draft7Validator.check_schema(schema)
        assert {"type", "oneOf", "anyOf", "allOf", "const", "enum"} & schema.keys(), name
    for name, message in DOCUMENT["components"]["messages"].items():
        # Every message says what it is in `type`, which is how a client tells them apart.
        payload = CONTRACT.resolve(message["payload"]["$ref"])
        assert payload["required"][0] == "type" and "const" in payload["properties"]["type"], name


def test_every_example_is_a_valid_message():
    for channel, spec in DOCUMENT["channels"].items():
        for name, ref in spec.get("messages", {}).items():
            for example in CONTRACT.resolve(ref["$ref"]).get("examples", []):
                by_client = name in CONTRACT.operation_messages(channel, "receive", replies=False)
                assert CONTRACT.validate(channel, example["payload"], by_client=by_client) == name


def test_the_close_codes_are_the_servers_table():
    for name, channel in DOCUMENT["channels"].items():
        assert [(c["code"], c["reason"], c["description"]) for c in channel["x-close-codes"]] == [
            (close.code, close.reason, close.description) for close in socket_closes.CHANNEL_CLOSES[name]
        ], name
    for close in socket_closes.ALL:
        # A close frame holds at most 123 bytes of reason (RFC 6455, 5.5); an application
        # closes with 1000, 1011, 1013 (IANA's "try again later") or a code of its own
        # (4000-4999).
        assert 0 < len(close.reason.encode()) <= 123, close
        assert close.code in (1000, 1011, 1013) or 4000 <= close.code <= 4999, close
    assert len({(close.code, close.reason) for close in socket_closes.ALL}) == len(socket_closes.ALL)


API = REPOSITORY / "api"


def _function_of(tree: ast.Module) -> dict[ast.AST, str]:
    """Each node of `tree` mapped to the name of the function it is in."""
    owner: dict[ast.AST, str] = {}
    # Outer functions come first in the walk: an inner function's name then wins.
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(function):
                owner[node] = function.name
    return owner


def test_the_server_closes_sockets_only_as_the_table_says():
    # A close with a code written out anywhere but `close_as` (which takes a row of the
    # table), or an ASGI close message made anywhere but the table, would be a close the
    # document does not list.
    raw_closes, close_messages, closed_as = [], [], []
    for path in sorted(API.glob("*.py")):
        tree = ast.parse(path.read_text())
        owner = _function_of(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                if node.func.attr == "close" and (node.args or node.keywords):
                    raw_closes.append((path.name, owner.get(node)))
                if node.func.attr in ("refuse", "close_as") and node.args:
                    closed_as.append((path.name, ast.unparse(node.args[0])))
            if isinstance(node, ast.Dict) and any(
                isinstance(k, ast.Constant)
                and k.value == "type"
                and isinstance(v, ast.Constant)
                and v.value == "websocket.close"
                for k, v in zip(node.keys, node.values, strict=True)
            ):
                close_messages.append(path.name)
    assert set(raw_closes) == {("consumers.py", "close_as")}
    assert set(close_messages) == {"socket_closes.py"}
    table = {f"socket_closes.{name}" for name, value in vars(socket_closes).items() if value in socket_closes.ALL}
    assert closed_as and {arg for _, arg in closed_as} <= table | {"close", "self.refusal"}, closed_as


CHECK = REPOSITORY / "tools" / "asyncapi_check.mjs"


def official_parser(path: Path) -> tuple[int, list[dict[str, str]]]:
    """The exit status of tools/asyncapi_check.mjs on `path` (@asyncapi/parser with its
    default rules), and its diagnostics."""
    node = shutil.which("node")
    assert node, "no Node.js: the AsyncAPI parser is read with it (make test needs Node 20 and npm)"
    assert (REPOSITORY / "node_modules" / "@asyncapi" / "parser").exists(), "no @asyncapi/parser: run `npm ci`"
    done = subprocess.run([node, str(CHECK), str(path)], cwd=REPOSITORY, capture_output=True, text=True, timeout=300)
    diagnostics = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, diagnostics


def test_the_official_parser_finds_no_error_in_the_document():
    status, diagnostics = official_parser(DOCUMENT_PATH)
    errors = [d for d in diagnostics if d["severity"] == "error"]
    assert status == 0 and not errors, errors
    for diagnostic in diagnostics:
        if diagnostic["severity"] == "warning":
            warnings.warn(f"AsyncAPI parser: {diagnostic}", stacklevel=1)


def test_the_official_parser_refuses_a_document_that_does_not_stand_alone():
    # The hand-written source names OpenAPI components it does not hold: only the document
    # made from it, with them copied in, is whole. The check can fail.
    status, diagnostics = official_parser(SOURCE)
    assert status == 1
    assert any(d["severity"] == "error" and "GameView" in d["message"] + d["path"] for d in diagnostics), diagnostics


@pytest.mark.django_db
def test_the_view_is_typed_by_the_openapi_components_the_document_carries(client):
    view = CONTRACT.payload("room", "view")
    assert view["properties"]["view"]["$ref"] == "#/components/schemas/GameView"
    assert view["properties"]["events"]["items"]["$ref"] == "#/components/schemas/Event"
    chat = CONTRACT.payload("room", "chat")
    assert chat["properties"]["line"]["$ref"] == "#/components/schemas/ChatLine"
    # A move's frame is the POST's body, and its result the POST's answer.
    frame, result = CONTRACT.payload("room", "action"), CONTRACT.payload("room", "result")
    assert frame["properties"]["action"]["$ref"] == "#/components/schemas/ActionRequest/properties/action"
    assert result["properties"]["view"]["$ref"] == "#/components/schemas/GameView"
    assert result["properties"]["error"]["$ref"] == "#/components/schemas/Error"
    # Those came with every component they reach in the OpenAPI document served, and
    # nothing else of it: each game's views, events and actions, whatever they are called.
    openapi = read_yaml(client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi").content)
    components = openapi["components"]["schemas"]
    reached, todo = set(), ["GameView", "Event", "ChatLine", "ActionRequest", "Error"]
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo += [ref.rsplit("/", 1)[1] for ref in refs(components[name])]
    own = set(read_yaml(SOURCE.read_text())["components"]["schemas"])
    schemas = DOCUMENT["components"]["schemas"]
    assert set(schemas) - own == reached
    assert {ref.rsplit("/", 1)[1] for ref in refs(components["GameView"])} <= set(schemas)


@pytest.mark.django_db
def test_the_document_is_served_beside_the_openapi_one(client):
    res = client.get("/api/asyncapi.yaml")
    assert res.status_code == 200
    assert res["Content-Type"].startswith("application/yaml")
    served, on_file = res.content.decode(), DOCUMENT_PATH.read_text()
    if read_yaml(served) != read_yaml(on_file):
        diff = "".join(
            list(
                difflib.unified_diff(
                    on_file.splitlines(True), served.splitlines(True), "api/asyncapi.yaml", "served", n=2
                )
            )[:200]
        )
        pytest.fail(f"api/asyncapi.yaml is not what the server serves: run `make schema` and commit it.\n{diff}")
    assert client.post("/api/asyncapi.yaml").status_code == 405


# The live sockets.


def live(test):
    """A test of the sockets in this process, on the Redis channel layer."""
    marks = (
        pytest.mark.django_db(transaction=True),
        pytest.mark.asyncio,
        pytest.mark.usefixtures("close_thread_connections"),
    )
    for mark in marks:
        test = mark(test)
    return test


@database_sync_to_async
def short_match(make_user) -> tuple[str, dict[int, Any], str, list[str]]:
    """A Kali Tidi room of two people to 5 points (one hand), started: its code, the
    players by seat, a spectator's token and the players' tokens."""
    host, guest, spectator = make_user(), make_user(), make_user()
    room = lobby.room_create(host=host, game="kali_tidi", options={"players": 2, "target": 5})
    lobby.room_join(code=room.code, user=guest)
    lobby.room_start(code=room.code, user=host)
    players = {seat.index: seat.user for seat in selectors.table_of(code=room.code).seats}
    tokens = [new_token(user) for user in (host, guest)]
    return room.code, players, new_token(spectator), tokens


# One move by whoever is to act; False once the match is over.
play_a_move = database_sync_to_async(move_by_whoever_acts)


async def hear(ws, heard: list[dict[str, Any]], until=None) -> None:
    """Add to `heard` what `ws` has been sent so far, and with `until`, wait for a message
    it accepts if none has come yet (notices cross the Redis layer from the announcing
    thread, so they may come a little after the commit)."""
    while not await ws.receive_nothing(timeout=0.02):
        heard.append(await ws.receive_json_from())
    while until is not None and not any(until(m) for m in heard):
        heard.append(await ws.receive_json_from(timeout=5))


@database_sync_to_async
def room_position(code: str) -> selectors.RoomPosition:
    return selectors.room_positions(codes=[code])[code]


async def pinged(ws) -> dict[str, Any]:
    ping = {"type": "ping"}
    await ws.send_json_to(ping)
    return await ws.receive_json_from(timeout=3)


@live
async def test_every_message_of_a_whole_match_is_a_documented_one(make_user):
    code, players, spectator_token, tokens = await short_match(make_user)
    room_ws, spectator_ws = room_socket(code, tokens[0], views=True), room_socket(code, spectator_token, views=True)
    me_ws = [user_socket(token) for token in tokens]
    for ws in (room_ws, spectator_ws, *me_ws):
        assert (await ws.connect())[0]
    CONTRACT.validate("room", {"type": "ping"}, by_client=True)
    rooms, mine = (room_ws, spectator_ws), me_ws
    heard: dict[Any, list[dict[str, Any]]] = {ws: [] for ws in (*rooms, *mine)}
    for ws in rooms:
        await hear(ws, heard[ws], until=lambda m: m["type"] == "changed")
    for ws in (*rooms, *mine):
        heard[ws].append(await pinged(ws))
    rng, moves = random.Random(3), 0
    while await play_a_move(code, players, rng):
        moves += 1
        # Read as a client does, move by move: a socket that falls a hundred notices
        # behind loses some (channels' capacity), which no client is meant to do.
        for ws in heard:
            await hear(ws, heard[ws])
    assert moves > 10
    final = await room_position(code)
    for ws in rooms:
        await hear(ws, heard[ws], until=lambda m: m.get("version") == final.version)
        # The last change came with its view, which stands for its notice.
        assert heard[ws][-1]["type"] == "view"
        assert (heard[ws][-1]["version"], heard[ws][-1]["seq"]) == tuple(final)
    for ws in mine:
        await hear(ws, heard[ws], until=lambda m: m == {"type": "match_over", "room": code})
    for ws in heard:
        heard[ws].append(await pinged(ws))
        await ws.disconnect()
    sent = {"room": [m for ws in rooms for m in heard[ws]], "me": [m for ws in mine for m in heard[ws]]}

    kinds = {
        channel: [CONTRACT.validate(channel, message) for message in messages] for channel, messages in sent.items()
    }
    # Each kind of message the document names was heard: the match exercised them all.
    assert set(kinds["room"]) == {"view", "changed", "roomPong"}
    # Each view above was held to the typed payload (GameView, Event, as the document
    # carries them); the OpenAPI document read strictly, every open choice closed, says
    # the same of them: the server sent no game, phase or event type the document lacks.
    assert sum(kind == "view" for kind in kinds["room"]) > 10
    for message in sent["room"]:
        if message["type"] == "view":
            check_component("GameView", message["view"])
            for event in message["events"]:
                check_component("Event", event)
    assert set(kinds["me"]) == {"yourTurn", "matchOver", "mePong"}
    assert heard[room_ws][-1] == {"type": "pong", **final._asdict()}


def test_a_strict_reading_refuses_what_the_document_does_not_name():
    view = DOCUMENT["components"]["messages"]["view"]["examples"][0]["payload"]
    assert CONTRACT.validate("room", view) == "view"
    for channel, message in (
        ("room", {"type": "changed", "version": 1}),
        ("room", {"type": "changed", "version": 1, "seq": 2, "extra": True}),
        ("room", {"type": "pong", "version": -1, "seq": 0}),
        ("me", {"type": "your_turn", "room": "nope", "version": 1, "deadline": None}),
        ("me", {"type": "match_over", "room": "QX7K2M", "version": 3}),
        # A view's `view` and `events` are typed: an empty object is no room's view, an
        # event without its fields is no event, and a lobby has no hand.
        ("room", {**view, "view": {}}),
        ("room", {**view, "events": [{"type": "joined"}]}),
        ("room", {**view, "view": {**view["view"], "you": {**view["view"]["you"], "hand": ["QS"]}}}),
    ):
        with pytest.raises(jsonschema.ValidationError):
            CONTRACT.validate(channel, message)


@live
async def test_every_refusal_is_a_documented_close_of_its_channel(make_user, settings):
    code, _, token, _ = await short_match(make_user)
    cases = [
        ("room", f"/ws/rooms/{code}/", {}),
        ("room", f"/ws/rooms/{code}/", {"token": "not-a-token"}),
        ("room", f"/ws/rooms/{code}/", {"origin": FOREIGN}),
        ("room", "/ws/rooms/NOPE99/", {"token": token}),
        ("me", "/ws/me/", {}),
        ("me", "/ws/me", {"token": "not-a-token"}),
        ("me", "/ws/me/", {"origin": FOREIGN}),
        ("unknown", "/ws/nothing/here", {"token": token}),
        ("unknown", "/ws/nothing/here", {"origin": FOREIGN}),
    ]
    seen = set()
    for channel, path, sent in cases:
        ws = socket_client(path, **sent)
        closed = await refused_with(ws)
        await ws.wait()
        assert closed in CONTRACT.close_codes(channel), (path, sent, closed)
        seen.add((channel, closed))
    # An open socket of an account being banned: both channels close it, as documented.
    banned_token = await spectator_banned_later(make_user)
    sockets = {"room": room_socket(code, banned_token), "me": user_socket(banned_token)}
    for ws in sockets.values():
        assert (await ws.connect())[0]
    await ban_the_token_holder(banned_token, make_user)
    seen |= await documented_closes(sockets)
    # An open socket whose sign-in ended (signed out elsewhere): both channels close it.
    ended_token = await spectator_banned_later(make_user)
    sockets = {"room": room_socket(code, ended_token), "me": user_socket(ended_token)}
    for ws in sockets.values():
        assert (await ws.connect())[0]
    await sign_in_end(ended_token)
    seen |= await documented_closes(sockets)
    # A socket sending more than its limit (here two frames, and no refill), from an app
    # that sends no Origin: both channels close it.
    settings.WS_SOCKET_BURST, settings.WS_SOCKET_RATE = 2, 0
    for channel, path in (("room", f"/ws/rooms/{code}/"), ("me", "/ws/me/")):
        ws = socket_client(path, token=token)
        assert (await ws.connect())[0]
        for _ in range(3):
            await ws.send_json_to({"type": "ping"})
        while (message := await ws.receive_output(timeout=3))["type"] != "websocket.close":
            pass
        closed = (message["code"], message.get("reason", ""))
        assert closed in CONTRACT.close_codes(channel), (channel, closed)
        seen.add((channel, closed))
    settings.WS_SOCKET_BURST, settings.WS_SOCKET_RATE = 10, 1
    # Refused for the load (no handshake may wait here: 1013) and for the account's
    # sockets (none may be open: 4409); tests/socket_load meets both through daphne.
    for setting, channels in (
        ("WS_HANDSHAKES_WAITING_MAX", ("room", "me", "unknown")),
        ("WS_ACCOUNT_SOCKETS_MAX", ("room", "me")),
    ):
        original = getattr(settings, setting)
        setattr(settings, setting, 0)
        paths = {"room": f"/ws/rooms/{code}/", "me": "/ws/me/", "unknown": "/ws/nothing/here"}
        for channel in channels:
            ws = socket_client(paths[channel], token=token)
            closed = await refused_with(ws)
            await ws.wait()
            assert closed in CONTRACT.close_codes(channel), (channel, closed)
            seen.add((channel, closed))
        setattr(settings, setting, original)
    # And every close a channel documents is one a client can meet; a server error (1011),
    # the database out of reach, is met against a real server in test_close_reasons.py
    # (on a path but a room's, a failure before the socket is served, which the gate of
    # the handshakes closes so: api/socket_limits.py).
    server_error = (socket_closes.SERVER_ERROR.code, socket_closes.SERVER_ERROR.reason)
    documented = {(channel, close) for channel in DOCUMENT["channels"] for close in CONTRACT.close_codes(channel)}
    assert seen == documented - {(channel, server_error) for channel in ("room", "me", "unknown")}


async def documented_closes(sockets: dict[str, Any]) -> set[tuple[str, tuple[int, str]]]:
    """Each socket's close (channel, (code, reason)), held to its channel's documented closes."""
    seen = set()
    for channel, ws in sockets.items():
        while (message := await ws.receive_output(timeout=3))["type"] != "websocket.close":
            pass
        closed = (message["code"], message.get("reason", ""))
        assert closed in CONTRACT.close_codes(channel), (channel, closed)
        seen.add((channel, closed))
    return seen


@database_sync_to_async
def spectator_banned_later(make_user) -> str:
    return new_token(make_user())


@database_sync_to_async
def sign_in_end(token: str) -> None:
    from accounts.models import SignIn

    SignIn.objects.filter(digest=SignIn.digest_of(token)).delete()


@database_sync_to_async
def ban_the_token_holder(token: str, make_user) -> None:
    from accounts.models import SignIn
    from moderation.services import user_ban

    holder = SignIn.objects.get(digest=SignIn.digest_of(token)).user
    user_ban(moderator=make_user(is_staff=True, is_superuser=True), user=holder, reason="Abuse")


@database_sync_to_async
def delete_room(code: str) -> None:
    Room.objects.filter(code=code).delete()


@live
async def test_a_room_deleted_under_an_open_socket_is_closed_as_documented(make_user, settings):
    # The first ping once the process's record of the room is older than this reads it.
    settings.LIVE_PING_FRESH_SECONDS = 0.1
    code, _, token, _ = await short_match(make_user)
    ws = room_socket(code, token)
    assert (await ws.connect())[0]
    await ws.receive_json_from(timeout=3)
    await delete_room(code)
    await asyncio.sleep(0.2)
    await ws.send_json_to({"type": "ping"})
    message = await ws.receive_output(timeout=3)
    assert message["type"] == "websocket.close"
    assert (message["code"], message["reason"]) in CONTRACT.close_codes("room")
