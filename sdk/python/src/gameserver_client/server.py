"""`GameServer`: the calls a player's program makes, over the generated client.

Every call goes through the generated operation of its operation id; an answer outside
the statuses the call expects raises `ApiError`. Requests go through
`RetryAfterTransport` (gameserver_client.retries), and `play` sends every move with an
`Idempotency-Key`, so that a move retried after a 429, a 503 or a dropped connection is
applied once. `client` is the generated client itself, for every other operation."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

import httpx

from gameserver_client.actions import _Serialisable, as_dict
from gameserver_client.errors import ApiError
from gameserver_client.generated import AuthenticatedClient, Client
from gameserver_client.generated.types import Response
from gameserver_client.operations import body, operation
from gameserver_client.retries import RetryAfterTransport
from gameserver_client.room_feed import RoomFeed

# Sent by apps and scripts: the server names the sign-in's device after it.
USER_AGENT = "gameserver-client (Python)"


def _expect(answer: Response[Any], *statuses: int) -> Any:
    if answer.status_code not in statuses:
        raise ApiError.from_response(
            httpx.Response(int(answer.status_code), headers=dict(answer.headers), content=answer.content)
        )
    return answer.parsed


class GameServer:
    """A session with one server: `GameServer("https://…")`, then `sign_in(…)` (or
    `register`, `sign_in_as_guest`), or `GameServer("https://…", token=…)` with a token
    you hold (your own, an OAuth access token, a personal access token)."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        transport: httpx.BaseTransport | None = None,
        attempts: int = 5,
        longest_wait: float = 60.0,
        timeout: float = 30.0,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._transport = RetryAfterTransport(transport, attempts=attempts, longest_wait=longest_wait)
        self._timeout = httpx.Timeout(timeout)
        self.token: str | None = None
        self._anonymous = Client(
            base_url=self.base_url,
            headers={"User-Agent": USER_AGENT},
            timeout=self._timeout,
            httpx_args={"transport": self._transport},
        )
        self._client: AuthenticatedClient | None = None
        if token is not None:
            self.use_token(token)

    # Signing in and out.

    def use_token(self, token: str) -> None:
        self.token = token
        self._client = AuthenticatedClient(
            base_url=self.base_url,
            token=token,
            # The document's `tokenAuth` is a bearer token; `Token <token>` works too.
            prefix="Bearer",
            headers={"User-Agent": USER_AGENT},
            timeout=self._timeout,
            httpx_args={"transport": self._transport},
        )

    @property
    def client(self) -> AuthenticatedClient:
        """The generated client, signed in: for any operation of the document."""
        if self._client is None:
            raise RuntimeError("not signed in: call sign_in, register or sign_in_as_guest first")
        return self._client

    def register(self, username: str, password: str, display_name: str | None = None) -> str:
        module = operation("auth", "auth_register_create")
        data = {"username": username, "password": password}
        if display_name is not None:
            data["display_name"] = display_name
        answer = _expect(module.sync_detailed(client=self._anonymous, body=body(module, data)), 201)
        token = str(answer.token)
        self.use_token(token)
        return token

    def sign_in(self, username: str, password: str, *, code: str | None = None) -> str:
        """With the password (and, for an account with two-step sign-in, `code`: the
        authenticator's 6 digits or a recovery code). Each sign-in is a device of its own."""
        module = operation("auth", "auth_token_create")
        data = {"username": username, "password": password}
        if code is not None:
            data["code"] = code
        answer = _expect(module.sync_detailed(client=self._anonymous, body=body(module, data)), 200)
        token = str(answer.token)
        self.use_token(token)
        return token

    def sign_in_as_guest(self, display_name: str) -> str:
        module = operation("auth", "auth_guest_create")
        answer = _expect(
            module.sync_detailed(client=self._anonymous, body=body(module, {"display_name": display_name})), 201
        )
        token = str(answer.token)
        self.use_token(token)
        return token

    def sign_out(self) -> None:
        """Ends this sign-in: its token answers 401 from now on."""
        _expect(operation("auth", "auth_logout_create").sync_detailed(client=self.client), 204)
        self.token, self._client = None, None

    # Rooms and play.

    def create_room(self, game: str, options: Mapping[str, Any] | None = None, *, public: bool = False) -> str:
        """A new room of `game` with you in its first seat; its code."""
        module = operation("rooms", "rooms_create")
        data = {"game": game, "options": dict(options or {}), "public": public}
        return str(_expect(module.sync_detailed(client=self.client, body=body(module, data)), 201).code)

    def add_computer(self, code: str, team: int | None = None) -> Any:
        module = operation("rooms", "rooms_bots_create")
        data = {} if team is None else {"team": team}
        return _expect(module.sync_detailed(code, client=self.client, body=body(module, data)), 201)

    def join(self, code: str) -> Any:
        return _expect(operation("rooms", "rooms_join_create").sync_detailed(code, client=self.client), 200, 201)

    def start(self, code: str) -> Any:
        """Deals the first hand; your view."""
        return _expect(operation("rooms", "rooms_start_create").sync_detailed(code, client=self.client), 200)

    def state(self, code: str) -> Any:
        """Your view of the room: the lobby's before the first deal, then its game's."""
        return _expect(operation("rooms", "rooms_state_retrieve").sync_detailed(code, client=self.client), 200)

    def play(
        self,
        code: str,
        version: int,
        action: Mapping[str, Any] | _Serialisable,
        *,
        idempotency_key: str | None = None,
    ) -> Any:
        """Sends `action` (an action body: gameserver_client.actions.body_of makes one of
        a legal action) as of the view at `version`; your new view. A new key is made
        for each move unless you give one: give the same key to send the same move again
        yourself, and the server answers its first answer instead of playing it twice."""
        module = operation("rooms", "rooms_actions_create")
        data = {"version": version, "action": as_dict(action)}
        key = idempotency_key or str(uuid.uuid4())
        answer = module.sync_detailed(code, client=self.client, body=body(module, data), idempotency_key=key)
        return _expect(answer, 200)

    def events(self, code: str, after: int = 0) -> list[dict[str, Any]]:
        """The room's log as you may read it, after the event numbered `after`, every page
        (as the `Link` header leads), in JSON: what a later v1 adds is kept as it is."""
        http = self.client.get_httpx_client()
        url: str | None = f"/api/v1/rooms/{code}/events?after={after}"
        events: list[dict[str, Any]] = []
        while url is not None:
            res = http.get(url)
            if res.status_code != 200:
                raise ApiError.from_response(res)
            events.extend(res.json())
            url = res.links.get("next", {}).get("url")
        return events

    def feed(self, code: str, *, last_seq: int = 0, views: bool = True) -> RoomFeed:
        """The room's socket as you, with catch-up from `last_seq` (gameserver_client.room_feed)."""
        if self.token is None:
            raise RuntimeError("not signed in: the room socket needs a token")
        return RoomFeed(self.base_url, self.token, code, last_seq=last_seq, views=views)

    def close(self) -> None:
        for client in (self._anonymous, self._client):
            if client is not None:
                client.get_httpx_client().close()

    def __enter__(self) -> GameServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
