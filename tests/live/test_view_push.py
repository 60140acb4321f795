"""Each viewer's view on the room socket (games/view_push.py): after every change, a
seated person's sockets are sent their own view and the events they may read, everyone
else's the spectators', each the very view and events HTTP answers that person at that
version — and nothing else: no socket message of any viewer carries a card the same
viewer could not read."""

from __future__ import annotations

import random
import re
import uuid
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games import live, selectors
from games.live import EXCEPT_GROUPS
from games.models import Room
from games.services import lobby
from tests.api.helpers import move_by_whoever_acts
from tests.live.rooms import hearts_of_four
from tests.sockets import room_socket
from tests.strict_answers import check_component
from tests.tokens import new_token

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_thread_connections"),
]

CARD = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b")


@database_sync_to_async
def room_position(code: str) -> selectors.RoomPosition:
    return selectors.room_positions(codes=[code])[code]


@database_sync_to_async
def read_over_http(code: str, user: Any, after: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """What `GET state` and `GET events?after=` answer `user` now."""
    room = Room.objects.get(code=code)
    seat = selectors.seat_index_of(room=room, user=user)
    return selectors.view_by_code(code=code, user=user), selectors.events_for(room=room, seat=seat, after=after)


async def heard_of_a_change(ws) -> list[dict[str, Any]]:
    """What the socket is sent of the next change: its view, or its `changed` alone; and
    nothing more of it."""
    heard = [await ws.receive_json_from(timeout=5)]
    assert heard[0]["type"] in ("view", "changed"), heard
    assert await ws.receive_nothing(timeout=0.05)
    return heard


def cards_in(value: Any) -> set[str]:
    return set(CARD.findall(repr(value)))


async def test_each_viewer_is_pushed_what_http_answers_them_and_nothing_more(make_user):
    code, players, spectator, tokens, spectator_token = await hearts_of_four(make_user)
    viewers: dict[Any, Any] = {seat: players[seat] for seat in players} | {"spectator": spectator}
    sockets = {seat: room_socket(code, token, views=True) for seat, token in tokens.items()}
    sockets["spectator"] = room_socket(code, spectator_token, views=True)
    for ws in sockets.values():
        assert (await ws.connect())[0]
        # The first message is where the room stands: no view comes before a change.
        assert (await ws.receive_json_from(timeout=5))["type"] == "changed"
    rng, moves, pushed = random.Random(7), 0, 0
    while moves < 60 and await database_sync_to_async(move_by_whoever_acts)(code, players, rng):
        moves += 1
        heard = {who: await heard_of_a_change(ws) for who, ws in sockets.items()}
        public_cards: set[str] = set()
        for who, messages in heard.items():
            # One view per change, which stands for its notice.
            assert [m["type"] for m in messages] == ["view"], messages
            (view,) = messages
            assert (view["version"], view["seq"]) == tuple(await room_position(code))
            assert view["after"] < view["seq"]
            state, events = await read_over_http(code, viewers[who], view["after"])
            assert view["view"] == state
            assert view["events"] == events
            check_component("GameView", view["view"])
            for event in view["events"]:
                check_component("Event", event)
            pushed += 1
            if who == "spectator":
                assert "you" not in view["view"]
                public_cards = cards_in(view)
        for seat in players:
            (view,) = [m for m in heard[seat] if m["type"] == "view"]
            own = set(view["view"]["you"]["hand"]) | cards_in(view["view"]["you"])
            private = cards_in([e for e in view["events"] if e.get("visible_to") or "cards" in e])
            # Every card a seat's message carries is its own, public, or in an event it may read.
            assert cards_in(view) <= own | public_cards | private, (seat, cards_in(view) - own - public_cards)
            # And none of another seat's hand that the engine keeps hidden.
            others = set().union(*(await _hands_of_others(code, players, seat)))
            assert not (cards_in(view["view"]) - cards_in(view["view"]["you"])) & others - public_cards
    assert moves == 60 and pushed == 60 * 5
    for ws in sockets.values():
        await ws.disconnect()


@database_sync_to_async
def _hands_of_others(code: str, players: dict[int, Any], seat: int) -> list[set[str]]:
    return [
        set(selectors.view_by_code(code=code, user=user)["you"]["hand"])
        for other, user in players.items()
        if other != seat
    ]


async def test_a_socket_that_asks_for_notices_alone_is_sent_no_view(make_user):
    code, players, _, tokens, _ = await hearts_of_four(make_user)
    ws = room_socket(code, tokens[0], views=False)
    assert (await ws.connect())[0]
    assert (await ws.receive_json_from(timeout=5))["type"] == "changed"
    assert await database_sync_to_async(move_by_whoever_acts)(code, players, random.Random(1))
    assert (await ws.receive_json_from(timeout=5))["type"] == "changed"
    assert await ws.receive_nothing(timeout=0.5)
    await ws.disconnect()


async def test_a_person_who_takes_a_seat_is_pushed_their_own_view_from_then_on(make_user):
    host, guest = await database_sync_to_async(make_user)(), await database_sync_to_async(make_user)()
    room = await database_sync_to_async(lobby.room_create)(host=host, game="hearts", options={})
    token = await database_sync_to_async(lambda: new_token(guest))()
    ws = room_socket(room.code, token, views=True)
    assert (await ws.connect())[0]
    await ws.receive_json_from(timeout=5)
    # Not seated: the spectators' view.
    await database_sync_to_async(lobby.room_add_bot)(code=room.code, user=host)
    (view,) = await heard_of_a_change(ws)
    assert "you" not in view["view"]
    # Seated: their own, and only that (the spectators' view is not theirs any more).
    await database_sync_to_async(lobby.room_join)(code=room.code, user=guest)
    (view,) = await heard_of_a_change(ws)
    assert view["view"]["you"]["seat"] == 2
    # Gone again: the spectators' view once more.
    await database_sync_to_async(lobby.room_leave)(code=room.code, user=guest)
    (view,) = await heard_of_a_change(ws)
    assert "you" not in view["view"]
    await ws.disconnect()


async def test_a_changes_notices_go_out_in_order_and_past_capacity_are_dropped_and_counted(caplog):
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    channel, other = await layer.new_channel(), await layer.new_channel()
    # Groups of this run alone: a group's members outlive a test in Redis.
    a, b = (f"order.{uuid.uuid4().hex}" for _ in range(2))
    await layer.group_add(a, channel)
    await layer.group_add(b, channel)
    await layer.group_add(b, other)
    # A change's notices (one Redis message for this process), then the next change's at
    # once: each channel hears its own, in the order sent, across batches.
    await layer.group_send_many([(a, {"type": "n", "i": 0}), (b, {"type": "n", "i": 1}), (a, {"type": "n", "i": 2})])
    # One Redis message for the first change, one for the second.
    assert await layer.connection(0).zcard(layer.prefix + layer.non_local_name(channel)) == 1
    await layer.group_send_many([(b, {"type": "n", "i": 3})])
    assert await layer.connection(0).zcard(layer.prefix + layer.non_local_name(channel)) == 2
    assert [(await layer.receive(channel))["i"] for _ in range(4)] == [0, 1, 2, 3]
    assert [(await layer.receive(other))["i"] for _ in range(2)] == [1, 3]
    # A message that skips a group's members (the spectators' view, skipping the seated).
    await layer.group_send_many([(b, {"type": "n", "i": 4, EXCEPT_GROUPS: [a]}), (a, {"type": "n", "i": 5})])
    assert await layer.receive(other) == {"type": "n", "i": 4}
    assert (await layer.receive(channel))["i"] == 5
    # A process's Redis queue holds `capacity` messages: the five beyond are dropped, and said so.
    with caplog.at_level("INFO", logger="channels_redis.core"):
        for i in range(layer.capacity + 5):
            await layer.group_send_many([(a, {"type": "n", "i": i})])
    assert [(await layer.receive(channel))["i"] for _ in range(layer.capacity)] == list(range(layer.capacity))
    dropped = [r for r in caplog.records if "over capacity" in r.getMessage()]
    assert sum(int(r.args[0]) for r in dropped) == 5 and {r.levelname for r in dropped} == {"WARNING"}
    for group, name in ((a, channel), (b, channel), (b, other)):
        await layer.group_discard(group, name)


@database_sync_to_async
def hearts_against_computers(make_user, options) -> tuple[str, Any, str]:
    person = make_user()
    room = lobby.room_create(host=person, game="hearts", options=options)
    for _ in range(3):
        lobby.room_add_bot(code=room.code, user=person)
    lobby.room_start(code=room.code, user=person)
    return room.code, person, new_token(person)


async def test_a_funky_pass_made_in_memory_is_pushed_as_http_writes_it(make_user):
    # A hand played through to the fourth, the funky pass (a map of seat to card), each
    # view pushed as the move made it in memory equal to the view read back from the database.
    code, person, token = await hearts_against_computers(make_user, {"fourth_hand": "funky", "target": 500})
    ws = room_socket(code, token, views=True)
    assert (await ws.connect())[0]
    await ws.receive_json_from(timeout=5)
    rng = random.Random(5)
    funky = None
    while funky is None:
        assert await database_sync_to_async(move_by_whoever_acts)(code, {0: person}, rng)
        heard = await heard_of_a_change(ws)
        view = heard[0]
        assert view["type"] == "view"
        state, events = await read_over_http(code, person, view["after"])
        assert view["view"] == state and view["events"] == events
        if any(e["type"] == "pass_chosen" and "to" in e for e in view["events"]):
            funky = view
    assert funky["view"]["round"] == 4
    await ws.disconnect()


@database_sync_to_async
def views_made_now(code: str) -> list[tuple[str, str]]:
    """The views a change of the room would make now: (group, kind) of each."""
    from games import store, view_push

    with store.locked(code) as table:
        return [(group, message["type"]) for group, message in view_push.views_to_push(Room, table)]


async def test_a_change_makes_the_views_of_those_listening_and_no_other(make_user):
    code, players, _, tokens, spectator_token = await hearts_of_four(make_user)
    # Nobody listens: no view is made.
    assert await views_made_now(code) == []
    # One seat listens: its view alone.
    ws = room_socket(code, tokens[2], views=True)
    assert (await ws.connect())[0]
    own = live.viewer_group_name(code, players[2].pk)
    assert await views_made_now(code) == [(own, "seat.view")]
    # A spectator: the spectators' view too.
    watching = room_socket(code, spectator_token, views=True)
    assert (await watching.connect())[0]
    assert await views_made_now(code) == [(own, "seat.view"), (live.group_name(code), "room.view")]
    # Gone again: only what is still listened to.
    await ws.disconnect()
    assert await views_made_now(code) == [(live.group_name(code), "room.view")]
    await watching.disconnect()
    assert await views_made_now(code) == []
    # And a move with one seat listening sends that one view, and the room's notice.
    ws = room_socket(code, tokens[0], views=True)
    assert (await ws.connect())[0]
    await ws.receive_json_from(timeout=5)
    assert await database_sync_to_async(move_by_whoever_acts)(code, players, random.Random(5))
    (view,) = await heard_of_a_change(ws)
    assert view["type"] == "view" and view["view"]["you"]["seat"] == 0
    await ws.disconnect()
