"""What the hostile-input tests share: a table of four players over HTTP, and the checks
made after every refused request."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx


@dataclass
class Table:
    """A started Hearts room of four humans, each with an HTTP client of their own."""

    url: str
    code: str
    clients: list[httpx.Client]
    users: list[Any]

    def path(self, tail: str) -> str:
        return f"/api/v1/rooms/{self.code}/{tail}"


def token_client(url: str, user: Any) -> httpx.Client:
    from tests.tokens import account_token

    return httpx.Client(base_url=url, headers={"Authorization": f"Token {account_token(user)}"}, timeout=30)


def snapshot(code: str) -> dict[str, Any]:
    """Everything a refused request must leave as it was, read from the database."""
    from accounts.models import User
    from games.models import Action, Event, IdempotentRequest, Room, Round

    room = Room.objects.get(code=code)
    return {
        "room": (room.version, room.event_seq, room.status, room.scores),
        "rounds": list(Round.objects.filter(room=room).values_list("number", "version", "state")),
        "actions": list(Action.objects.filter(round__room=room).order_by("id").values_list("seq", "payload")),
        "events": list(Event.objects.filter(room=room).order_by("seq").values_list("seq", "data")),
        "idempotent": IdempotentRequest.objects.count(),
        "rooms": Room.objects.count(),
        "users": User.objects.count(),
    }


def assert_error_shape(res: httpx.Response) -> dict[str, Any]:
    """The one error shape, in JSON, and the first error."""
    assert res.headers["content-type"].startswith("application/json"), (res.status_code, res.text[:200])
    body = res.json()
    assert set(body) == {"type", "errors"}, body
    assert body["type"] in {"client_error", "validation_error"}, body
    assert body["errors"], body
    for error in body["errors"]:
        assert set(error) == {"code", "detail", "attr"}, error
        assert isinstance(error["code"], str) and isinstance(error["detail"], str), error
    return body["errors"][0]
