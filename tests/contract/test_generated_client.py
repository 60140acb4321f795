"""A client generated from the served OpenAPI document plays every game to the end.

The client is generated at test time by openapi-python-client (pinned in
requirements-dev.txt) from what `/api/schema/` serves, into a temporary folder, and is
the only thing that talks to the server: it signs up, creates the room, adds computer
players, starts, and then plays by choosing among the typed `legal_actions` of each view
it parses, until the match is over. Its requests reach Django in-process through
httpx's WSGI transport, so the test needs no network and no server to start; every
answer the client receives is held to the served document, read strictly
(tests/strict_answers.py).
"""

from __future__ import annotations

import importlib
import random
import re
import subprocess
import sys
import uuid
import zlib
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections

from tests.game_params import variant_params
from tests.strict_answers import StrictTransport

pytestmark = pytest.mark.django_db

PACKAGE = "gs_client"
PLAYED_THROUGH = {
    "POST /api/v1/auth/register",
    "POST /api/v1/rooms/",
    "POST /api/v1/rooms/{code}/bots",
    "POST /api/v1/rooms/{code}/start",
    "GET /api/v1/rooms/{code}/state",
    "POST /api/v1/rooms/{code}/actions",
}
# Enough for the longest match here (Kali Tidi to 500 with seven players); a loop that
# makes no progress fails instead of hanging.
MAX_STEPS = 5000


@pytest.fixture(scope="module")
def client_package(tmp_path_factory: pytest.TempPathFactory, django_db_blocker: Any) -> ModuleType:
    """The generated client, imported from a temporary folder."""
    from django.test import Client

    with django_db_blocker.unblock():
        res = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert res.status_code == 200
    root = tmp_path_factory.mktemp("generated-client")
    document = root / "openapi.json"
    document.write_bytes(res.content)
    config = root / "config.yaml"
    # No formatting hooks: the generated code is imported, never read or committed.
    config.write_text(f"package_name_override: {PACKAGE}\npost_hooks: []\n")
    generator = Path(sys.executable).parent / "openapi-python-client"
    command = ["generate", "--path", str(document), "--config", str(config), "--meta", "none"]
    out = subprocess.run(
        [str(generator), *command, "--output-path", str(root / PACKAGE)],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=600,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    # The generator leaves out what it cannot express, with a warning naming the
    # operation: none of those the game is played through may be left out.
    skipped = set(re.findall(r"WARNING parsing (\w+ \S+)", out.stdout))
    assert not skipped & PLAYED_THROUGH, out.stdout
    sys.path.insert(0, str(root))
    try:
        package = importlib.import_module(PACKAGE)
        importlib.import_module(f"{PACKAGE}.models")
    finally:
        sys.path.remove(str(root))
    return package


@pytest.fixture
def transport() -> Any:
    """httpx to Django in-process, every answer checked against the document. Like
    Django's test client, it leaves the connection open after each request: it holds the
    test's transaction."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield StrictTransport(httpx.WSGITransport(app=get_wsgi_application()))
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


class Player:
    """One person at the table, through the generated client only."""

    def __init__(self, package: ModuleType, transport: httpx.BaseTransport, seed: int) -> None:
        self.models = importlib.import_module(f"{package.__name__}.models")
        self.api = {
            name: importlib.import_module(f"{package.__name__}.api.{group}.{name}")
            for group, names in {
                "auth": ["auth_register_create"],
                "rooms": [
                    "rooms_create",
                    "rooms_bots_create",
                    "rooms_start_create",
                    "rooms_state_retrieve",
                    "rooms_actions_create",
                ],
            }.items()
            for name in names
        }
        self.transport = transport
        self.rng = random.Random(seed)
        anonymous = package.Client(base_url="http://testserver", httpx_args={"transport": self.transport})
        body = self.models.RegisterRequest(username=f"client-{uuid.uuid4().hex[:12]}", password="a-long-secret")
        answer = self.api["auth_register_create"].sync_detailed(client=anonymous, body=body)
        assert answer.status_code == 201, answer.content
        self.client = package.AuthenticatedClient(
            base_url="http://testserver",
            # The generator's own prefix (`Bearer`): the document declares the token a bearer one.
            token=answer.parsed.token,
            httpx_args={"transport": self.transport},
            raise_on_unexpected_status=True,
        )

    def call(self, name: str, status: int, **kwargs: Any) -> Any:
        answer = self.api[name].sync_detailed(client=self.client, **kwargs)
        assert answer.status_code == status, (name, answer.status_code, answer.content)
        return answer.parsed

    def create_room(self, game: str, options: dict[str, Any]) -> str:
        # Each game's request is a type of its own, its options typed by the game.
        kind = "".join(w.capitalize() for w in game.split("_"))
        body = getattr(self.models, f"{kind}RoomCreateRequest").from_dict(
            {"game": game, "options": options, "public": False}
        )
        return self.call("rooms_create", 201, body=body).code

    def choose(self, view: Any) -> Any:
        """An action body built from one of the view's typed legal actions, by the
        document's one rule: a whole action is sent as it is; a template is sent with
        `cards`, `count` of its `choices`, in place of those two."""
        game = view.game
        # A claim at random is mostly refused: play on instead.
        legal = self.rng.choice([a for a in view.you.legal_actions if a.type_ != "claim"])
        action = legal.to_dict()
        if "choices" in action:
            action["cards"] = self.rng.sample(action.pop("choices"), action.pop("count"))
        model = getattr(self.models, "".join(w.capitalize() for w in f"{game}_{action['type']}_action".split("_")))
        return self.models.ActionRequest(version=view.version, action=model.from_dict(action))

    def play_to_the_end(self, code: str, view_class: type) -> Any:
        view = self.call("rooms_state_retrieve", 200, code=code)
        for _ in range(MAX_STEPS):
            assert isinstance(view, view_class), type(view)
            if view.status.value != "playing":
                return view
            assert view.you.legal_actions, f"nothing to do in phase {view.phase}, to act {view.to_act}"
            view = self.call("rooms_actions_create", 200, code=code, body=self.choose(view))
        raise AssertionError(f"the match did not end within {MAX_STEPS} actions")


# Every variant of every game (its profile's MATCH_VARIANTS), computers in the other seats.
MATCHES = variant_params()


@pytest.mark.parametrize(("game", "options", "seats"), MATCHES)
def test_a_generated_client_plays_a_whole_match(
    client_package: ModuleType, transport: httpx.BaseTransport, game: str, options: dict, seats: int
) -> None:
    player = Player(client_package, transport, seed=zlib.crc32(f"{game}{options}".encode()))
    code = player.create_room(game, options)
    for _ in range(seats - 1):
        player.call("rooms_bots_create", 201, code=code, body=player.models.TeamRequest())
    view_class = getattr(player.models, "".join(w.capitalize() for w in f"{game}_view".split("_")))
    # Before the first deal the view is the game's lobby.
    lobby = player.call("rooms_state_retrieve", 200, code=code)
    lobby_class = getattr(player.models, view_class.__name__.replace("View", "LobbyView"))
    assert isinstance(lobby, lobby_class) and lobby.phase == "lobby" and str(lobby.game) == game
    started = player.call("rooms_start_create", 200, code=code)
    assert isinstance(started, view_class)
    final = player.play_to_the_end(code, view_class)
    assert final.status.value == "finished"
    # An open value: a known one parses as the document's enum, a string like any other.
    assert str(final.phase) == "match_over"
    assert final.last_round is not None and final.last_round.match_over is True
    assert final.last_round.winners, "a finished match has winners"


def test_a_generated_client_reads_and_saves_the_notification_settings(
    client_package: ModuleType, transport: httpx.BaseTransport
) -> None:
    """Beyond play: the settings a phone app shows, `email_available` among them (whether
    this server mails anyone at all), read and saved through the generated client."""
    player = Player(client_package, transport, seed=1)
    me = importlib.import_module(f"{client_package.__name__}.api.me")
    read = importlib.import_module(f"{me.__name__}.me_notifications_retrieve")
    save = importlib.import_module(f"{me.__name__}.me_notifications_partial_update")
    settings = read.sync_detailed(client=player.client)
    assert settings.status_code == 200, settings.content
    assert isinstance(settings.parsed.email_available, bool)
    assert settings.parsed.email_available is settings.parsed.to_dict()["email_available"]
    body = player.models.PatchedNotificationSettingsChangeRequest(push=not settings.parsed.push)
    saved = save.sync_detailed(client=player.client, body=body)
    assert saved.status_code == 200, saved.content
    assert saved.parsed.push is not settings.parsed.push
    assert saved.parsed.email_available is settings.parsed.email_available
