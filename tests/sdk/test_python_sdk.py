"""The Python SDK (sdk/python), as a team installs it: its wheel, built by
scripts/build_sdk.sh, against daphne. With the SDK's own calls alone it signs up,
creates a room of each game, fills it with computer players and plays the match to its
end by choosing among the view's `legal_actions`, every answer held to the document
read strictly; follows a room on its socket through a
drop; retries a move whose answer was lost, honouring `Retry-After`, without playing it
twice; and signs in and out."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
import zlib
from types import ModuleType
from typing import Any

import httpx
import pytest

from tests.game_params import short_match_params
from tests.strict_answers import StrictTransport

# Every game's short match (its profile's SHORT_MATCH), computers in the other seats.
MATCHES = short_match_params()
MAX_STEPS = 3000


def _signed_up(sdk: ModuleType, url: str, transport: httpx.BaseTransport | None = None) -> Any:
    server = sdk.GameServer(url, transport=transport)
    server.register(f"sdk-{uuid.uuid4().hex[:12]}", "a-long-secret-9")
    return server


def _room(server: Any, game: str, options: dict[str, Any], seats: int) -> str:
    code = server.create_room(game, options)
    for _ in range(seats - 1):
        server.add_computer(code)
    return code


def _move(sdk: ModuleType, view: Any, rng: random.Random) -> dict[str, Any]:
    """One of the view's legal actions at random, as its body (a claim at random is
    mostly refused: played on instead)."""
    legal = rng.choice([a for a in view.you.legal_actions if a.type_ != "claim"])
    return sdk.body_of(legal, lambda choices, count: rng.sample(choices, count))


@pytest.mark.parametrize(("game", "options", "seats"), MATCHES)
def test_the_python_sdk_plays_a_whole_match(
    sdk: ModuleType, sdk_server: str, transactional_db: Any, game: str, options: dict, seats: int
) -> None:
    rng = random.Random(zlib.crc32(game.encode()))
    # Every answer the SDK reads is held to the document, read strictly, on its way in.
    strict = StrictTransport(httpx.HTTPTransport())
    with _signed_up(sdk, sdk_server, strict) as server:
        code = _room(server, game, options, seats)
        lobby = server.state(code)
        assert (str(lobby.game), str(lobby.phase)) == (game, "lobby")
        view = server.start(code)
        for _ in range(MAX_STEPS):
            if str(view.status) != "playing":
                break
            view = server.play(code, view.version, _move(sdk, view, rng))
        else:
            raise AssertionError(f"the match did not end within {MAX_STEPS} moves")
        final = server.state(code)
        assert (str(final.status), str(final.phase)) == ("finished", "match_over")
        assert final.last_round.match_over is True and final.last_round.winners
        log = server.events(code)
        assert [e["seq"] for e in log] == sorted({e["seq"] for e in log})
        assert log[-1]["type"] == "match_over"
    assert strict.answers > 10


class LosesOneAnswer(httpx.HTTPTransport):
    """The network losing the answer to the first move after the server applied it: in
    its place a 503 asking to retry after a second."""

    def __init__(self) -> None:
        super().__init__()
        self.moves_sent = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        if request.url.path.endswith("/actions"):
            self.moves_sent += 1
            if self.moves_sent == 1:
                response.read()
                response.close()
                error = {"type": "server_error", "errors": [{"code": "unavailable", "detail": "Lost.", "attr": None}]}
                return httpx.Response(503, headers={"Retry-After": "1"}, json=error)
        return response


def test_a_move_whose_answer_was_lost_is_retried_after_retry_after_and_played_once(
    sdk: ModuleType, sdk_server: str, transactional_db: Any
) -> None:
    lossy = LosesOneAnswer()
    server = sdk.GameServer(sdk_server, transport=lossy)
    server.register(f"sdk-{uuid.uuid4().hex[:12]}", "a-long-secret-9")
    code = _room(server, "hearts", {}, 4)
    view = server.start(code)
    before = len(server.events(code))
    started = time.monotonic()
    played = server.play(code, view.version, _move(sdk, view, random.Random(1)), idempotency_key="move-1")
    waited = time.monotonic() - started
    # Sent twice; the second time the server answered the first answer (had it played the
    # move again, its version would be stale: 409).
    assert lossy.moves_sent == 2
    assert waited >= 1.0, f"retried after {waited:.2f} s, before Retry-After's second"
    # The version moved by the move and the computer players' answers to it, once.
    assert played.version == server.state(code).version > view.version
    again = server.play(code, view.version, _move(sdk, view, random.Random(1)), idempotency_key="move-1")
    assert again.to_dict() == played.to_dict()
    # The move's events, all of one version: a move applied twice would log two.
    mine = [e for e in server.events(code)[before:] if e.get("seat") == view.you.seat]
    assert mine and len({e["version"] for e in mine}) == 1, mine
    # A key reused for another move is refused, by its stable code.
    other = next(a for a in played.you.legal_actions if a.type_ != "claim") if played.you.legal_actions else None
    if other is not None:
        with pytest.raises(sdk.ApiError) as refused:
            server.play(code, played.version, sdk.body_of(other), idempotency_key="move-1")
        assert refused.value.status == 422 and refused.value.codes == ["idempotency_key_reused"]


@pytest.mark.asyncio
async def test_the_room_feed_catches_up_after_a_drop(sdk: ModuleType, sdk_server: str, transactional_db: Any) -> None:
    """The feed follows a match; its connection is cut mid-match while moves go on; it
    reconnects and ends with exactly the room's log: no event twice, none missing."""
    rng = random.Random(7)
    server = await asyncio.to_thread(_signed_up, sdk, sdk_server)
    code = await asyncio.to_thread(_room, server, "hearts", {}, 4)
    view = await asyncio.to_thread(server.start, code)
    feed = server.feed(code)
    seen: list[dict[str, Any]] = []

    async def follow() -> None:
        async for update in feed:
            seen.extend(update.events)

    following = asyncio.create_task(follow())
    try:
        for step in range(24):
            if step == 8:
                await asyncio.sleep(0.5)
                feed.drop()
            view = await asyncio.to_thread(server.play, code, view.version, _move(sdk, view, rng))
        log = await asyncio.to_thread(server.events, code)
        deadline = time.monotonic() + 30
        while [e["seq"] for e in seen] != [e["seq"] for e in log] and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert [e["seq"] for e in seen] == [e["seq"] for e in log]
        assert seen == log
        assert feed.connections >= 2, "the feed never reconnected"
    finally:
        following.cancel()
        await feed.aclose()


def test_signing_in_and_out(sdk: ModuleType, sdk_server: str, transactional_db: Any) -> None:
    name = f"sdk-{uuid.uuid4().hex[:12]}"
    with sdk.GameServer(sdk_server) as first:
        first.register(name, "a-long-secret-9")
    with sdk.GameServer(sdk_server) as server:
        token = server.sign_in(name, "a-long-secret-9")
        server.create_room("hearts")
        server.sign_out()
        with sdk.GameServer(sdk_server, token=token) as stale, pytest.raises(sdk.ApiError) as ended:
            stale.create_room("hearts")
        assert ended.value.status == 401
        with pytest.raises(sdk.ApiError) as wrong:
            server.sign_in(name, "not-the-password")
        assert wrong.value.status == 401 and wrong.value.codes
    with sdk.GameServer(sdk_server) as guest:
        guest.sign_in_as_guest("Guest player")
        assert guest.create_room("moon", {"players": 3})


def test_the_package_is_versioned_with_the_api(sdk: ModuleType, built_sdk: Any) -> None:
    from tests.sdk.conftest import DOCUMENT
    from tests.yaml_text import read_yaml

    version = read_yaml(DOCUMENT.read_text())["info"]["version"]
    assert sdk.__version__ == version
    assert built_sdk.wheel.name == f"gameserver_client-{version}-py3-none-any.whl"
    assert built_sdk.tarball.name == f"gameserver-client-{version}.tgz"
