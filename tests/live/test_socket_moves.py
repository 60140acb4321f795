"""Moves over the room's socket (api/socket_moves.py): an `action` frame is answered as
`POST rooms/{code}/actions` answers the same body, with the same state, log, views and
errors after it, whoever sends it and however it is wrong."""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import orjson
import pytest
from channels.db import database_sync_to_async
from django.conf import settings as django_settings
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games import rules, selectors, store
from games.models import Room
from games.services import lobby
from tests.api.helpers import concrete, without_claim
from tests.game_params import game_params, seats_for, short_match
from tests.live.asyncapi import Contract, load
from tests.live.rooms import hearts_of_four
from tests.sockets import room_socket, socket_client
from tests.strict_answers import check_component
from tests.tokens import new_token

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_thread_connections"),
]

# What differs between two rooms played alike: their codes, and what their own seeds
# and clocks say.
ROOM_OWN = ("code", "deadline", "abandon_deadline", "fairness")


WEEK = 7 * 24 * 3600
LONG_CLOCKS = {"turn_seconds": WEEK, "abandon_seconds": WEEK, "between_rounds_seconds": WEEK}


def alike(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ROOM_OWN}


def event_alike(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k != "at"}


@database_sync_to_async
def twin_rooms(make_user: Any, game: str, options: dict[str, Any]) -> tuple[list[str], list[Any], list[str]]:
    """Two rooms of `game` with the same people in the same seats, started, their hands
    in play dealt alike (the second's is the first's), at the same version."""
    people = [make_user() for _ in range(seats_for(rules.get(game), options))]
    codes = []
    for _ in range(2):
        room = lobby.room_create(host=people[0], game=game, options=options)
        for person in people[1:]:
            lobby.room_join(code=room.code, user=person)
        lobby.room_start(code=room.code, user=people[0])
        codes.append(room.code)
    state = selectors.table_of(code=codes[0]).round.state
    for code in codes:
        with store.locked(code) as table:
            table.round.state = state
            table.mark(table.round, ["state"])
            table.touch()
    seated = {s.user_id: s.index for s in selectors.table_of(code=codes[0]).seats}
    people.sort(key=lambda p: seated[p.pk])
    return codes, people, [new_token(p) for p in people]


@database_sync_to_async
def post(token: str, code: str, body: dict[str, Any], key: str | None = None) -> tuple[int, Any, str | None]:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    headers = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}
    response = client.post(f"/api/v1/rooms/{code}/actions", body, format="json", **headers)
    return response.status_code, response.json(), response.headers.get("Retry-After")


@database_sync_to_async
def read(code: str, people: list[Any]) -> tuple[list[dict[str, Any]], list[list[dict[str, Any]]]]:
    """Every seat's view and event log, and the spectators'."""
    room = Room.objects.get(code=code)
    views = [selectors.view_by_code(code=code, user=p) for p in people] + [selectors.view_by_code(code=code, user=None)]
    logs = [selectors.events_for(room=room, seat=i) for i in range(len(people))] + [
        selectors.events_for(room=room, seat=None)
    ]
    return views, logs


CONTRACT = Contract(load())


async def answer_of(ws: Any, ident: str | None) -> dict[str, Any]:
    """The socket's answer to the frame `ident`, past any view or notice pushed meanwhile;
    each message as the AsyncAPI document says, read strictly."""
    while True:
        message = await ws.receive_json_from(timeout=10)
        CONTRACT.validate("room", message)
        if message["type"] == "result":
            assert message["id"] == ident, message
            return message


async def over_socket(
    ws: Any, body: dict[str, Any], key: str | None = None, *, legal: bool = False
) -> tuple[int, Any, str | None]:
    """`body` sent as an action frame, and its answer: (status, view or error, retry_after).
    A `legal` move's frame is first read as the document says a client's is."""
    ident = uuid.uuid4().hex
    frame = {"type": "action", "id": ident, **body, **({} if key is None else {"idempotency_key": key})}
    if legal:
        CONTRACT.validate("room", frame, by_client=True)
    await ws.send_json_to(frame)
    answer = await answer_of(ws, ident)
    assert set(answer) <= {"type", "id", "status", "view", "error", "retry_after"}
    retry = answer.get("retry_after")
    return (
        answer["status"],
        answer["view"] if answer["status"] == 200 else answer["error"],
        (None if retry is None else str(retry)),
    )


def wrong_body(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A body HTTP refuses, of one of the ways a client gets it wrong."""
    how = rng.choice(["stale", "unknown type", "extra field", "no version", "not a dict", "claim"])
    action = concrete(rng.choice(legal), rng) if legal else {"type": "play"}
    if how == "stale":
        return {"version": view["version"] - 1, "action": action}
    if how == "unknown type":
        return {"version": view["version"], "action": {"type": "shout"}}
    if how == "extra field":
        return {"version": view["version"], "action": action, "please": True}
    if how == "no version":
        return {"action": action}
    if how == "not a dict":
        return {"version": view["version"], "action": ["play"]}
    return {"version": view["version"], "action": {"type": "claim"}}


@pytest.mark.parametrize("game", game_params())
@hypothesis_settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck), derandomize=False)
@given(seed=st.integers(0, 2**32), steps=st.integers(10, 40))
async def test_a_move_over_the_socket_is_the_move_over_http(make_user, game, seed, steps):
    # Every choice follows from `seed` (the rooms' deals are the server's own, fresh for
    # each example): a failure prints the seed and the number of steps that found it.
    # Clocks of a week: no turn runs out in one room and not in the other.
    options = {**short_match(rules.get(game)), **LONG_CLOCKS}
    (socket_room, http_room), people, tokens = await twin_rooms(make_user, game, options)
    sockets = [room_socket(socket_room, token, views=True) for token in tokens]
    for ws in sockets:
        assert (await ws.connect())[0]
    rng = random.Random(seed)
    answered: list[int] = []
    first_hand = None
    for _ in range(steps):
        views, _ = await read(socket_room, people)
        first_hand = first_hand or views[0]["round"]
        # The next hand is dealt by each room's own seed: the play-out ends with the first.
        if views[0]["status"] != "playing" or not views[0]["to_act"] or views[0]["round"] != first_hand:
            break
        # A seat to act, or sometimes one that is not; a legal move, or sometimes a wrong one.
        seat = rng.choice(views[0]["to_act"]) if rng.random() < 0.9 else rng.randrange(len(people))
        view = views[seat]
        legal = without_claim(view["you"]["legal_actions"])
        right = bool(legal) and rng.random() < 0.8
        if right:
            body = {"version": view["version"], "action": concrete(rng.choice(legal), rng)}
        else:
            body = wrong_body(view, legal, rng)
        by_socket = await over_socket(sockets[seat], body, legal=right)
        by_http = await post(tokens[seat], http_room, body)
        answered.append(by_http[0])
        assert by_socket[0] == by_http[0], (body, by_socket, by_http)
        if by_http[0] == 200 and by_http[1]["round"] != first_hand:
            break  # the move dealt the next hand, by each room's own seed
        if by_http[0] == 200:
            assert alike(by_socket[1]) == alike(by_http[1])
            check_component("GameView", by_socket[1])
        else:
            assert by_socket[1:] == by_http[1:], (body, by_socket, by_http)
        (socket_views, socket_logs), (http_views, http_logs) = (
            await read(socket_room, people),
            await read(http_room, people),
        )
        assert [alike(v) for v in socket_views] == [alike(v) for v in http_views]
        assert [[event_alike(e) for e in log] for log in socket_logs] == [
            [event_alike(e) for e in log] for log in http_logs
        ]
    # The play-out moved the table.
    assert answered.count(200) >= 5, answered
    for ws in sockets:
        await ws.disconnect()


async def hearts_at_four(make_user: Any) -> tuple[str, list[Any], list[str]]:
    """A started Hearts room of four people: its code, the people and their tokens by seat."""
    code, players, _, tokens, _ = await hearts_of_four(make_user)
    return code, [players[i] for i in range(4)], [tokens[i] for i in range(4)]


async def test_a_replayed_move_answers_its_first_answer_over_either(make_user):
    code, people, tokens = await hearts_at_four(make_user)
    views, _ = await read(code, people)
    # The pass: every seat acts at once.
    seat, other = views[0]["to_act"][:2]
    pass_ = concrete(views[seat]["you"]["legal_actions"][0], random.Random(3))
    body = {"version": views[seat]["version"], "action": pass_}
    ws = room_socket(code, tokens[seat], views=True)
    assert (await ws.connect())[0]
    first = await over_socket(ws, body, key="k-1", legal=True)
    assert first[0] == 200
    # The same key again, over the socket and over HTTP: the first answer, nothing moved.
    assert await over_socket(ws, body, key="k-1") == first
    status, again, _ = await post(tokens[seat], code, body, key="k-1")
    assert (status, again) == (200, first[1])
    # And the other way round: a key first used over HTTP answers its answer on the socket.
    views, _ = await read(code, people)
    body = {"version": views[other]["version"], "action": concrete(views[other]["you"]["legal_actions"][0])}
    by_http = await post(tokens[other], code, body, key="k-2")
    assert by_http[0] == 200
    ws_other = room_socket(code, tokens[other], views=True)
    assert (await ws_other.connect())[0]
    assert (await over_socket(ws_other, body, key="k-2"))[:2] == by_http[:2]
    await ws_other.disconnect()
    # A key reused for another body is refused alike over both.
    changed = {**body, "version": body["version"] + 100}
    assert (await over_socket(ws, changed, key="k-1"))[:2] == (await post(tokens[seat], code, changed, key="k-1"))[:2]
    assert (await over_socket(ws, changed, key="k-1"))[1]["errors"][0]["code"] == "idempotency_key_reused"
    await ws.disconnect()


async def test_a_spectator_a_bad_frame_and_a_revoked_token_are_answered_as_http_does(make_user):
    code, people, _ = await hearts_at_four(make_user)
    views, _ = await read(code, people)
    body = {"version": views[0]["version"], "action": {"type": "pass_cards", "cards": ["2C", "3C", "4C"]}}
    spectator = await database_sync_to_async(make_user)()
    spectator_token = await database_sync_to_async(new_token)(spectator)
    ws = room_socket(code, spectator_token, views=True)
    assert (await ws.connect())[0]
    by_socket = await over_socket(ws, body)
    assert by_socket == await post(spectator_token, code, body)
    assert by_socket[0] == 403 and by_socket[1]["errors"][0]["code"] == "not_seated"
    # The frame's own fields, wrong: refused with the API's error shape, naming the field.
    await ws.send_json_to({"type": "action", "id": 7, **body})
    answer = await answer_of(ws, None)
    assert answer["status"] == 400 and answer["error"]["errors"][0]["attr"] == "id"
    check_component("Error", answer["error"])
    await ws.send_json_to({"type": "action", "id": "x", "idempotency_key": ["k"], **body})
    answer = await answer_of(ws, "x")
    assert answer["status"] == 400 and answer["error"]["errors"][0]["attr"] == "idempotency_key"
    # Too long a body: 413 as the POST's.
    big = {**body, "action": {"type": "pass_cards", "cards": ["2C"] * django_settings.API_MAX_ACTION_BYTES}}
    assert (await over_socket(ws, big))[:2] == (await post(spectator_token, code, big))[:2]
    # The token revoked while the socket is open: the socket closes at once
    # (api/credential_ends.py), and HTTP refuses the token.
    await database_sync_to_async(_revoke)(spectator_token)
    await closed_for_its_credential(ws)
    assert (await post(spectator_token, code, body))[0] == 401


async def closed_for_its_credential(ws, *, before: int | None = None) -> None:
    """The socket's next output is its close for an ended credential; with `before`, a
    view of a change made before it ended (version `before` or earlier) may come first."""
    while (closing := await ws.receive_output(timeout=5))["type"] == "websocket.send" and before is not None:
        frame = json.loads(closing["text"])
        assert frame["type"] == "view" and frame["version"] <= before, frame
    assert closing["type"] == "websocket.close", closing
    assert (closing.get("code"), closing.get("reason")) == (4401, "credentials ended")


def _revoke(key: str) -> None:
    from accounts.models import SignIn

    SignIn.objects.filter(digest=SignIn.digest_of(key)).delete()


async def test_a_session_socket_moves_as_its_session_does(make_user, client):
    code, people, _ = await hearts_at_four(make_user)
    views, _ = await read(code, people)
    await database_sync_to_async(client.force_login)(people[0])
    session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    ws = socket_client(f"/ws/rooms/{code}/", origin="http://testserver", session=session)
    assert (await ws.connect())[0]
    assert (await ws.receive_json_from(timeout=5))["type"] == "changed"
    legal = views[0]["you"]["legal_actions"]
    body = {"version": views[0]["version"], "action": concrete(legal[0])}
    status, view, _ = await over_socket(ws, body)
    assert status == 200 and view["you"]["seat"] == 0
    # Signed out: the session's socket closes, and takes no move after.
    await database_sync_to_async(client.logout)()
    await closed_for_its_credential(ws, before=view["version"])
    after, _ = await read(code, people)
    assert after[0]["version"] == view["version"]


async def test_moves_as_fast_as_the_table_allows_are_never_closed_a_flood_is(make_user, settings):
    settings.WS_SOCKET_BURST, settings.WS_SOCKET_RATE = 2, 0
    code, people, tokens = await hearts_at_four(make_user)
    ws = room_socket(code, tokens[0], views=True)
    assert (await ws.connect())[0]
    # Ten moves (refused ones too), far past the socket's bucket of two frames: all answered.
    views, _ = await read(code, people)
    body = {"version": views[0]["version"] - 1, "action": {"type": "pass_cards", "cards": []}}
    for _ in range(10):
        status, error, _ = await over_socket(ws, body)
        assert (status, error["errors"][0]["code"]) == (409, "stale_version")
    # A flood of moves past the moves' own bucket is closed, as any flood.
    settings.WS_ACTION_BURST, settings.WS_ACTION_RATE = 3, 0
    flooder = room_socket(code, tokens[1], views=True)
    assert (await flooder.connect())[0]
    for i in range(6):
        await flooder.send_to(text_data=orjson.dumps({"type": "action", "id": str(i), **body}).decode())
    closed = None
    for _ in range(20):
        message = await flooder.receive_output(timeout=10)
        if message["type"] == "websocket.close":
            closed = message
            break
    assert closed is not None and closed["code"] == 4429
    await ws.disconnect()
