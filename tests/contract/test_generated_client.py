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
        body = self.models.RoomCreateRequest(
            game=self.models.GameEnum(game),
            options=self.models.RoomCreateRequestOptions.from_dict(options),
            public=False,
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


MATCHES = [
    pytest.param("hearts", {}, 4, id="hearts-standard"),
    pytest.param("hearts", {"preset": "sweedo", "fourth_hand": "funky"}, 4, id="hearts-sweedo"),
    pytest.param("moon", {"players": 3}, 3, id="moon-3"),
    pytest.param("moon", {"players": 4}, 4, id="moon-4"),
    pytest.param("kali_tidi", {"players": 4, "team_mode": "teams"}, 4, id="kali-teams-1deck"),
    pytest.param("kali_tidi", {"players": 6, "team_mode": "teams", "decks": 2}, 6, id="kali-teams-2decks"),
    pytest.param("kali_tidi", {"players": 3, "team_mode": "random"}, 3, id="kali-random-1deck"),
    pytest.param("kali_tidi", {"players": 5, "team_mode": "random", "decks": 2}, 5, id="kali-random-2decks"),
    pytest.param("kali_tidi", {"players": 4, "team_mode": "cards"}, 4, id="kali-cards-1deck"),
    pytest.param("kali_tidi", {"players": 7, "team_mode": "cards", "decks": 2}, 7, id="kali-cards-2decks"),
]


@pytest.mark.parametrize(("game", "options", "seats"), MATCHES)
def test_a_generated_client_plays_a_whole_match(
    client_package: ModuleType, transport: httpx.BaseTransport, game: str, options: dict, seats: int
) -> None:
    player = Player(client_package, transport, seed=zlib.crc32(f"{game}{options}".encode()))
    code = player.create_room(game, options)
    for _ in range(seats - 1):
        player.call("rooms_bots_create", 201, code=code, body=player.models.TeamRequest())
    view_class = getattr(player.models, "".join(w.capitalize() for w in f"{game}_view".split("_")))
    # Before the first deal the view is the lobby's, the same for every game.
    lobby = player.call("rooms_state_retrieve", 200, code=code)
    assert isinstance(lobby, player.models.LobbyView) and lobby.phase == "lobby" and str(lobby.game) == game
    started = player.call("rooms_start_create", 200, code=code)
    assert isinstance(started, view_class)
    final = player.play_to_the_end(code, view_class)
    assert final.status.value == "finished"
    # An open value: a known one parses as the document's enum, a string like any other.
    assert str(final.phase) == "match_over"
    assert final.last_round is not None and final.last_round.match_over is True
    assert final.last_round.winners, "a finished match has winners"


def _parse(package: ModuleType, operation: str, status: int, body: Any) -> Any:
    """What the generated client makes of an answer, without a server: its own parser."""
    module = importlib.import_module(f"{package.__name__}.api.rooms.{operation}")
    client = package.AuthenticatedClient(base_url="http://testserver", token="unused")
    return module._parse_response(client=client, response=httpx.Response(status, json=body))


def test_values_a_later_v1_adds_still_parse(client_package: ModuleType) -> None:
    """The README lets v1 add error codes, event types, games, phases and action types:
    the generated client takes answers holding ones it does not know, and keeps them."""
    models = importlib.import_module(f"{client_package.__name__}.models")
    room = {
        "code": "ABCDEF",
        "version": 3,
        "status": "playing",
        "status_reason": "",
        "deadline": None,
        "abandon_deadline": None,
        "rematch": None,
        "fairness": None,
    }
    # A game this client does not know: the view every game has.
    view = _parse(client_package, "rooms_state_retrieve", 200, {**room, "game": "skat", "phase": "reizen"})
    assert isinstance(view, models.OtherGameView) and (view.game, view.phase) == ("skat", "reizen")
    # A phase Hearts does not have yet, with a legal action of a type it does not know.
    hearts = {
        **room,
        "game": "hearts",
        "phase": "auction",
        "round": 1,
        "dealer": 0,
        "to_act": [0],
        "seats": [
            {
                "seat": s,
                "user": None,
                "display_name": "Bot",
                "is_bot": True,
                "team": None,
                "client_seed": "",
                "cards_left": 13,
                "tricks_taken": 0,
                "points_taken": 0,
                "passed": False,
                "ready": False,
            }
            for s in range(4)
        ],
        "trick": [],
        "trump": None,
        "bid": None,
        "scores": [0, 0, 0, 0],
        "last_round": None,
        "pass_direction": None,
        "led_suit": None,
        "tricks_played": 0,
        "last_trick": None,
        "hearts_broken": False,
        "moon_shooter": None,
        "you": {
            "seat": 0,
            "hand": ["2C"],
            "legal_actions": [{"type": "bid", "value": 3}, {"type": "play", "card": "2C"}],
            "pass_chosen": None,
            "received": None,
        },
    }
    view = _parse(client_package, "rooms_state_retrieve", 200, hearts)
    assert isinstance(view, models.HeartsView) and str(view.phase) == "auction"
    unknown, play = view.you.legal_actions
    assert isinstance(unknown, models.OtherLegalAction) and unknown.type_ == "bid" and unknown["value"] == 3
    assert isinstance(play, models.HeartsPlayAction) and play.card == "2C"
    # An error code added later: handled by its status.
    error = {"type": "client_error", "errors": [{"code": "some_new_code", "detail": "New.", "attr": None}]}
    answer = _parse(client_package, "rooms_actions_create", 409, error)
    assert answer.errors[0].code == "some_new_code"
    # An event type added later, beside a known one.
    envelope = {"seq": 1, "round": 1, "version": 2, "at": "2026-11-27T12:00:00Z"}
    events = _parse(
        client_package,
        "rooms_events_list",
        200,
        [{**envelope, "type": "auction_won", "seat": 2}, {**envelope, "seq": 2, "type": "started"}],
    )
    assert [event.type_ for event in events] == ["auction_won", "started"]


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
