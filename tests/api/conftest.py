from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def hearts_table(api_client, make_user) -> Any:
    """A started Hearts room with four human players: (code, {seat: client}, users)."""

    def make(options: dict[str, Any] | None = None, humans: int = 4) -> tuple[str, dict[int, Any], list[Any]]:
        users = [make_user() for _ in range(humans)]
        host = api_client(users[0])
        res = host.post("/api/v1/rooms/", {"game": "hearts", "options": options or {}}, format="json")
        assert res.status_code == 201, res.content
        code = res.json()["code"]
        clients = {0: host}
        for i, user in enumerate(users[1:], start=1):
            client = api_client(user)
            assert client.post(f"/api/v1/rooms/{code}/join", {}, format="json").json()["seat"] == i
            clients[i] = client
        for _ in range(4 - humans):
            assert host.post(f"/api/v1/rooms/{code}/bots", {}, format="json").status_code == 201
        res = host.post(f"/api/v1/rooms/{code}/start")
        assert res.status_code == 200, res.content
        return code, clients, users

    return make
