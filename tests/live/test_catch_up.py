"""Catching up after a drop, as api/asyncapi.yaml tells a client to: follow a match on
the room socket, lose the connection while moves go on, reconnect, and read
`events?after=<last seq read>` page by page until no `Link` is left. The client ends
with exactly the events it missed: none twice, none missing."""

from __future__ import annotations

import random
import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from games import selectors
from games.services import lobby, play
from tests.api.helpers import concrete
from tests.rules.support import without_claim
from tests.sockets import room_socket
from tests.tokens import new_token

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("close_thread_connections"),
]

PAGE = 3
NEXT = re.compile(r'<(?P<url>[^>]+)>; rel="next"')


@database_sync_to_async
def hearts_room(make_user) -> tuple[str, dict[int, Any], dict[str, Any]]:
    """A started Hearts room of two people and two computer players: its code, the
    people by seat, and the host's and a spectator's tokens."""
    host, guest, spectator = make_user(), make_user(), make_user()
    room = lobby.room_create(host=host, game="hearts", options={})
    lobby.room_join(code=room.code, user=guest)
    for _ in range(2):
        lobby.room_add_bot(code=room.code, user=host)
    lobby.room_start(code=room.code, user=host)
    people = {seat.index: seat.user for seat in selectors.table_of(code=room.code).seats if not seat.is_bot}
    tokens = {who: new_token(user) for who, user in (("host", host), ("spectator", spectator))}
    return room.code, people, tokens


@database_sync_to_async
def moves(code: str, people: dict[int, Any], count: int, rng: random.Random) -> None:
    """`count` moves by the people (the computer players answer in the same requests)."""
    for _ in range(count):
        view = selectors.view_by_code(code=code, user=people[0])
        seat = next(s for s in view["to_act"] if s in people)
        mine = selectors.view_by_code(code=code, user=people[seat])
        action = concrete(rng.choice(without_claim(mine["you"]["legal_actions"])), rng)
        play.action_submit(code=code, user=people[seat], version=mine["version"], action=action, idempotency_key=None)


class Follower:
    """A client of the room: the events it has read, and the pages it took."""

    def __init__(self, code: str, token: str) -> None:
        self.code, self.token = code, token
        self.http = APIClient()
        self.http.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        self.events: list[dict[str, Any]] = []
        self.pages = 0

    @property
    def last_seq(self) -> int:
        return self.events[-1]["seq"] if self.events else 0

    @database_sync_to_async
    def get(self, url: str) -> Any:
        res = self.http.get(url)
        assert res.status_code == 200, res.content
        return res

    async def catch_up(self) -> list[dict[str, Any]]:
        """Every event after the last one read, page by page; the ones read now."""
        read: list[dict[str, Any]] = []
        url: str | None = f"/api/v1/rooms/{self.code}/events?after={self.last_seq}&limit={PAGE}"
        while url is not None:
            res = await self.get(url)
            read += res.json()
            self.pages += 1
            link = NEXT.fullmatch(res.headers["Link"]) if "Link" in res.headers else None
            url = None if link is None else (lambda u: f"{u.path}?{u.query}")(urlsplit(link["url"]))
        self.events += read
        return read

    async def whole_log(self) -> list[dict[str, Any]]:
        return (await self.get(f"/api/v1/rooms/{self.code}/events?limit=1000")).json()

    async def on_notice(self, notice: dict[str, Any]) -> None:
        assert notice["type"] in ("changed", "pong"), notice
        if notice["seq"] > self.last_seq:
            await self.catch_up()


@pytest.mark.parametrize("who", ["host", "spectator"])
async def test_a_client_that_drops_catches_up_with_exactly_the_events_it_missed(make_user, who):
    code, people, tokens = await hearts_room(make_user)
    client, rng = Follower(code, tokens[who]), random.Random(5)

    ws = room_socket(code, tokens[who])
    assert (await ws.connect())[0]
    await client.on_notice(await ws.receive_json_from(timeout=3))
    assert client.events and client.pages > 1
    # Following live: a notice that names a newer seq is caught up at once. (One move:
    # the host's pass.)
    await moves(code, people, 1, rng)
    await client.on_notice(await ws.receive_json_from(timeout=3))
    await ws.disconnect()
    before_drop = list(client.events)

    # Moves while the client is gone: the other pass, the exchange (private to each giver
    # and receiver) and the first tricks.
    await moves(code, people, 8, rng)

    ws = room_socket(code, tokens[who])
    assert (await ws.connect())[0]
    opened = await ws.receive_json_from(timeout=3)
    assert opened["type"] == "changed" and opened["seq"] > client.last_seq
    pages_before = client.pages
    missed = await client.catch_up()
    await ws.disconnect()

    log = await client.whole_log()
    assert missed == [event for event in log if event["seq"] > before_drop[-1]["seq"]]
    assert len(missed) > PAGE and client.pages - pages_before > 1, "the catch-up took more than one page"
    seqs = [event["seq"] for event in client.events]
    assert seqs == sorted(set(seqs)), "an event was read twice"
    assert client.events == log, "an event was missed"
    # The notice's seq is the room's last event: the client's last is that one or, for a
    # spectator, the last public one before it.
    assert client.last_seq <= opened["seq"]
    assert all(event["seq"] <= opened["seq"] for event in log)
    if who == "spectator":
        assert not any(event["type"] in ("pass_chosen", "cards_passed") for event in client.events)
    else:
        assert any(event["type"] == "cards_passed" for event in missed)
