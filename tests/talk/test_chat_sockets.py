"""Table talk on the room socket: a four-player table with two spectators, every socket
read. A spectator's line during a hand reaches no player's socket (nor their HTTP page);
each line reaches exactly those who read it over HTTP, blocks and shadow mutes
included; a line of the players reaches everyone."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from accounts.models import Block
from games import selectors
from games.models import Room
from games.services import lobby
from talk import selectors as talk
from talk import services
from talk.models import ShadowMute
from tests.live.asyncapi import Contract, load
from tests.sockets import room_socket
from tests.tokens import new_token

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_thread_connections"),
]

CONTRACT = Contract(load())


@database_sync_to_async
def table_with_watchers(make_user: Any) -> tuple[str, dict[str, Any], dict[str, str]]:
    host = make_user()
    room = lobby.room_create(host=host, game="hearts", options={})
    for _ in range(3):
        lobby.room_join(code=room.code, user=make_user())
    lobby.room_start(code=room.code, user=host)
    people = {f"p{seat.index}": seat.user for seat in selectors.table_of(code=room.code).seats}
    people |= {"w1": make_user(), "w2": make_user()}
    return room.code, people, {name: new_token(user) for name, user in people.items()}


@database_sync_to_async
def say(code: str, user: Any, **line: str) -> int:
    return services.line_say(room=Room.objects.get(code=code), user=user, now=timezone.now(), **line).pk


@database_sync_to_async
def http_page(code: str, user: Any) -> list[int]:
    room = Room.objects.get(code=code)
    return [line.pk for line in talk.lines_for(room=room, reader=talk.reader_of(room=room, user=user))]


@database_sync_to_async
def block(blocker: Any, blocked: Any) -> None:
    Block.objects.create(blocker=blocker, blocked=blocked)


@database_sync_to_async
def shadow_mute(user: Any) -> None:
    ShadowMute.objects.create(user=user, reason="trolling")


async def chat_heard(ws: Any, until: int) -> list[int]:
    """The ids of the `chat` messages the socket is sent up to the line `until`, which
    everyone reads: one process sends in order, so nothing said before it comes after
    (other messages, notices of the room, are passed over)."""
    heard: list[int] = []
    while until not in heard:
        message = await ws.receive_json_from(timeout=20)
        if message["type"] == "chat":
            CONTRACT.validate("room", message)  # as api/asyncapi.yaml documents it, strictly
            heard.append(message["line"]["id"])
    return heard[:-1]


async def test_every_socket_hears_what_its_person_reads_and_no_player_a_watcher_during_a_hand(make_user):
    code, people, tokens = await table_with_watchers(make_user)
    sockets = {name: room_socket(code, token, views=True) for name, token in tokens.items()}
    for ws in sockets.values():
        connected, _ = await ws.connect()
        assert connected

    await block(people["p2"], people["w2"])
    await shadow_mute(people["p3"])
    said = {
        "players": await say(code, people["p0"], phrase="good_luck"),
        "watcher": await say(code, people["w1"], text="p1 should lead spades"),
        "blocked watcher": await say(code, people["w2"], text="hello all"),
        "troll": await say(code, people["p3"], text="troll line"),
    }
    last = await say(code, people["p0"], phrase="thanks")
    heard = {name: await chat_heard(ws, until=last) for name, ws in sockets.items()}
    for ws in sockets.values():
        await ws.disconnect()

    watchers_lines = {said["watcher"], said["blocked watcher"]}
    for name in ("p0", "p1", "p2", "p3"):
        assert not watchers_lines & set(heard[name]), (name, heard[name])
        assert said["players"] in heard[name]
    assert said["troll"] in heard["p3"] and all(said["troll"] not in heard[n] for n in heard if n != "p3")
    assert heard["w1"] == [said["players"], said["watcher"], said["blocked watcher"]]
    assert heard["w2"] == [said["players"], said["watcher"], said["blocked watcher"]]
    # Each socket heard exactly the lines its person's HTTP page holds, in order.
    for name, person in people.items():
        assert [*heard[name], last] == await http_page(code, person), name
