"""Every answer of whole matches over HTTP is one the served document allows, read strictly.

One match per game with computer players (they move within the request in tests), every
answer through `tests.strict_answers.check_django`: the room from its lobby to the end,
then every read endpoint on that room and on its players, and error answers (404, 400,
401, 403, 409). A negative control makes sure the checker cannot pass vacuously.
"""

from __future__ import annotations

import copy
import random
import zlib
from typing import Any
from urllib.parse import urlsplit

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from games import rules
from tests.game_params import short_match_params, variant_params
from tests.rules.support import without_claim
from tests.strict_answers import (
    RECORD_ENV,
    Failure,
    check_component,
    check_django,
    check_response,
    closed,
    component_failures,
    response_failures,
    served_document,
    validate_recorded,
)

from .helpers import concrete

API = "/api/v1"
# Enough for the longest match here; a loop that makes no progress fails instead of hanging.
MAX_ACTIONS = 3000


class Strict:
    """A DRF test client whose every answer is held to the document."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.answers = 0

    def _send(self, method: str, path: str, data: Any = None, **extra: Any) -> Any:
        if data is not None:
            extra["format"] = "json"
        res = getattr(self.client, method)(path, data, **extra)
        check_django(res, request_body=data)
        self.answers += 1
        return res

    def get(self, path: str, **extra: Any) -> Any:
        return self._send("get", path, **extra)

    def post(self, path: str, data: Any = None, **extra: Any) -> Any:
        return self._send("post", path, data, **extra)

    def put(self, path: str, data: Any = None, **extra: Any) -> Any:
        return self._send("put", path, data, **extra)


def ok(res: Any, *statuses: int) -> Any:
    """The answer's JSON (or the answer), once its status is one of `statuses` (200 by default)."""
    assert res.status_code in (statuses or (200,)), (res.status_code, res.content[:500])
    return res.json() if res.content and res["Content-Type"].startswith("application/json") else res


def pages(client: Strict, path: str) -> list[Any]:
    """Every page of a list read after a position, following `Link` to the end."""
    items: list[Any] = []
    for _ in range(1000):
        res = client.get(path)
        items.extend(ok(res))
        link = res.headers.get("Link")
        if not link:
            return items
        url = urlsplit(link.split(";")[0].strip("<> "))
        path = f"{url.path}?{url.query}"
    raise AssertionError("the pages never end")


# Every game's short match, rated although computers play, so that the rating answers
# (the leaderboard, a player's matches) carry a rating change to check.
MATCHES = short_match_params(rated=True)


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "options", "seats"), MATCHES)
def test_a_whole_match_and_every_read_answer_match_the_document(
    api_client, make_user, settings, game: str, options: dict[str, Any], seats: int
) -> None:
    settings.LEADERBOARD_MIN_MATCHES = 1
    rng = random.Random(zlib.crc32(game.encode()))
    host_user, watcher_user = make_user(), make_user()
    host, watcher, anonymous = Strict(api_client(host_user)), Strict(api_client(watcher_user)), Strict(api_client())

    # The lobby.
    code = ok(host.post(f"{API}/rooms/", {"game": game, "options": options}), 201)["code"]
    room = f"{API}/rooms/{code}"
    ok(host.get(f"{room}/"))
    ok(host.get(f"{room}/state"))
    held = watcher.get(f"{room}/state")
    ok(held)
    # A poll that holds the answer: 304, no body.
    ok(watcher.get(f"{room}/state", HTTP_IF_NONE_MATCH=held["ETag"]), 304)
    ok(host.put(f"{room}/client_seed", {"client_seed": "strict answers"}))
    for _ in range(seats - 1):
        ok(host.post(f"{room}/bots", {}), 201)
    ok(host.get(f"{room}/qr.svg"))
    ok(watcher.post(f"{room}/start"), 403, 409)  # only the host starts
    view = ok(host.post(f"{room}/start"))

    # Errors while the match is played.
    legal = without_claim(view["you"]["legal_actions"])
    assert legal, f"the host cannot act first in {game}"
    action = concrete(legal[0], rng)
    ok(host.post(f"{room}/actions", {"version": view["version"] + 1000, "action": action}), 409)
    ok(host.post(f"{room}/actions", {"version": view["version"], "action": {"type": "no_such_action"}}), 400)
    ok(host.post(f"{room}/actions", {"version": view["version"], "action": {**action, "pad": 1}}), 400)
    ok(host.post(f"{room}/actions", {"version": "seven", "action": action}), 400)
    ok(watcher.post(f"{room}/actions", {"version": view["version"], "action": action}), 403)
    ok(anonymous.post(f"{room}/actions", {"version": view["version"], "action": action}), 401)
    ok(anonymous.get(f"{API}/me"), 401)
    ok(host.get(f"{API}/rooms/ZZZZZZ/state"), 404)
    ok(host.get(f"{API}/rooms/ZZZZZZ/"), 404)
    ok(host.get(f"{API}/players/nobody-at-all"), 404)
    ok(host.get(f"{room}/replay"), 409)
    ok(host.get(f"{room}/events?after=minus-one"), 400)
    ok(host.get(f"{API}/leaderboard?game=no_such_game"), 400)
    ok(host.get(f"{API}/me/turns"))

    # The match, to its end: the host picks among its legal actions.
    for step in range(MAX_ACTIONS):
        if view["status"] != "playing":
            break
        if step % 40 == 0:
            ok(watcher.get(f"{room}/state"))
            ok(host.get(f"{room}/events?after={max(0, step * 3 - 20)}"))
        legal = without_claim(view["you"]["legal_actions"])
        assert legal, f"nothing to do in phase {view['phase']}, to act {view['to_act']}"
        view = ok(
            host.post(f"{room}/actions", {"version": view["version"], "action": concrete(rng.choice(legal), rng)})
        )
    else:
        raise AssertionError(f"the match did not end within {MAX_ACTIONS} actions")
    assert view["status"] == "finished" and view["phase"] == "match_over", view["status"]

    # Every read answer on the room and its players, after the match.
    ok(host.get(f"{room}/"))
    ok(host.get(f"{room}/state"))
    ok(watcher.get(f"{room}/state"))
    ok(anonymous.get(f"{room}/state"), 200, 401)
    events = pages(host, f"{room}/events?limit=100")
    assert events
    last = host.get(f"{room}/events?after={events[-1]['seq']}")
    ok(host.get(f"{room}/events?after={events[-1]['seq']}", HTTP_IF_NONE_MATCH=last["ETag"]), 304)
    watched = pages(watcher, f"{room}/events?limit=100")
    assert watched
    pages(host, f"{room}/events?after={events[len(events) // 2]['seq']}&limit=50")
    rounds = pages(host, f"{room}/rounds?limit=1")
    assert rounds
    pages(watcher, f"{room}/rounds")
    ok(host.get(f"{room}/replay"))
    ok(watcher.get(f"{room}/replay"))
    ok(host.get(f"{room}/qr.svg"))
    ok(host.get(f"{API}/games/"))
    ok(anonymous.get(f"{API}/games/"))
    ok(host.get(f"{API}/rooms/"))
    ok(host.get(f"{API}/rooms/?mine=1"))
    ok(host.get(f"{API}/rooms/?game={game}"))
    ok(host.get(f"{API}/me"))
    ok(host.get(f"{API}/me/turns"))
    ok(host.get(f"{API}/me/tokens"))
    ok(host.get(f"{API}/me/apps"))
    ok(host.get(f"{API}/me/notifications"))
    ok(host.get(f"{API}/push/key"))
    for user in (host_user, watcher_user):
        ok(host.get(f"{API}/players/{user.username}"))
        ok(watcher.get(f"{API}/players/{user.username}/matches"))
    ok(host.get(f"{API}/leaderboard?game={game}"))
    # The rematch: the host asks for one (then the view names who agreed, or the new room).
    ok(host.post(f"{room}/rematch"), 200, 409)
    ok(host.get(f"{room}/state"))
    ok(watcher.post(f"{room}/rematch"), 403, 409)
    assert host.answers + watcher.answers + anonymous.answers > 50


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "options", "seats"), variant_params())
def test_every_variant_answers_as_documented_from_its_lobby_to_its_first_moves(
    api_client, make_user, game: str, options: dict[str, Any], seats: int
) -> None:
    """Each of the game's match variants (teams picked in the lobby, drawn by the engine,
    or none) through its lobby and its first moves, every answer read strictly; the
    whole matches above play the short ones."""
    rng = random.Random(zlib.crc32(f"{game}{options}".encode()))
    host = Strict(api_client(make_user()))
    code = ok(host.post(f"{API}/rooms/", {"game": game, "options": options}), 201)["code"]
    room = f"{API}/rooms/{code}"
    sizes = rules.get(game).lobby_teams(rules.get(game).validate_options(options))
    # Where the lobby asks for teams, the host is on team 0 and the computers fill the rest.
    teams = [t for t, size in enumerate(sizes) for _ in range(size)][1:] if sizes else [None] * (seats - 1)
    for team in teams:
        ok(host.post(f"{room}/bots", {} if team is None else {"team": team}), 201)
    ok(host.get(f"{room}/"))
    ok(host.get(f"{room}/state"))
    view = ok(host.post(f"{room}/start"))
    for _ in range(12):
        if view["status"] != "playing":
            break
        legal = without_claim(view["you"]["legal_actions"])
        view = ok(
            host.post(f"{room}/actions", {"version": view["version"], "action": concrete(rng.choice(legal), rng)})
        )
    ok(host.get(f"{room}/"))
    ok(host.get(f"{room}/events?limit=100"))
    ok(host.get(f"{API}/rooms/?game={game}"))
    assert host.answers >= seats + 5


# -- the checker cannot pass vacuously ----------------------------------------------------------


UNEXPECTED = ("unevaluatedProperties", "additionalProperties")


def _refused(failures: list[Failure], pointer: str, keywords: tuple[str, ...]) -> None:
    assert any(f.pointer == pointer and f.keyword in keywords for f in failures), [f.line() for f in failures]


@pytest.mark.django_db
def test_the_checker_refuses_what_the_document_does_not_allow(api_client, make_user, monkeypatch) -> None:
    """An extra property, a missing required one and a value outside a closed enum each
    fail, in a component, in an answer and in recorded answers."""
    # Raised, never recorded: even under scripts/strict_report.py these are no findings.
    monkeypatch.delenv(RECORD_ENV, raising=False)
    check_component("HeartsPlayAction", {"type": "play", "card": "2C"})
    for bad, pointer, keyword in (
        ({"type": "play", "card": "2C", "pad": 1}, "/pad", UNEXPECTED),
        ({"type": "play"}, "/card", ("required",)),
        ({"type": "no_such_type", "card": "2C"}, "/type", ("const", "enum")),
    ):
        with pytest.raises(AssertionError):
            check_component("HeartsPlayAction", bad)
        _refused(component_failures("HeartsPlayAction", bad), pointer, keyword)

    client = api_client(make_user())
    code = client.post(f"{API}/rooms/", {"game": "hearts", "options": {}}, format="json").json()["code"]
    view = client.get(f"{API}/rooms/{code}/state").json()
    view["seats"][0]["pad"] = 1
    with pytest.raises(AssertionError):
        check_component("GameView", view)
    _refused(component_failures("GameView", view), "/seats/0/pad", UNEXPECTED)

    path = f"{API}/rooms/ZZZZZZ/state"
    res = client.get(path)
    assert res.status_code == 404
    body, headers = res.json(), dict(res.headers)
    extra, missing, outside = copy.deepcopy(body), copy.deepcopy(body), copy.deepcopy(body)
    extra["errors"][0]["pad"] = 1
    del missing["errors"][0]["detail"]
    outside["errors"][0]["code"] = "no_such_code"
    for bad, pointer, keyword in (
        (extra, "/errors/0/pad", UNEXPECTED),
        (missing, "/errors/0/detail", ("required",)),
        (outside, "/errors/0/code", ("enum",)),
    ):
        with pytest.raises(AssertionError):
            check_response("GET", path, 404, headers, bad)
        _refused(response_failures("GET", path, 404, headers, bad), pointer, keyword)
    with pytest.raises(AssertionError, match="'pad' is not in the document"):
        record = {"method": "GET", "path": path, "status": 404, "content_type": "application/json", "body": extra}
        validate_recorded([record])
    with pytest.raises(AssertionError, match="status 418 is not documented"):
        check_response("GET", path, 418, headers, body)
    with pytest.raises(AssertionError, match="content type 'text/html'"):
        check_response("GET", path, 404, {"Content-Type": "text/html"}, "<p>Not found</p>")
    with pytest.raises(AssertionError, match="no such operation"):
        check_response("GET", f"{API}/no/such/path", 200, headers, {})


# -- the closed reading --------------------------------------------------------------------------


def _validator(document: dict[str, Any], name: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": document["components"]})


TOY: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "toy", "version": "1"},
    "paths": {},
    "components": {
        "schemas": {
            "Kind": {"x-open": True, "anyOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "string"}]},
            "Base": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]},
            "Thing": {
                "type": "object",
                "properties": {
                    "kind": {"$ref": "#/components/schemas/Kind"},
                    "note": {"type": "string", "nullable": True},
                    "free": {"type": "object", "additionalProperties": True},
                },
            },
            "Extended": {
                "allOf": [{"$ref": "#/components/schemas/Base"}, {"properties": {"more": {"type": "string"}}}]
            },
        }
    },
}


def test_the_closed_reading() -> None:
    document = closed(TOY)
    assert document["openapi"] == "3.1.0"
    assert TOY["components"]["schemas"]["Thing"].get("unevaluatedProperties") is None, "the original is untouched"
    thing = _validator(document, "Thing")
    assert thing.is_valid({"kind": "a", "note": None, "free": {"anything": 1}})
    assert not thing.is_valid({"kind": "a", "pad": 1}), "no property the document does not name"
    assert not thing.is_valid({"kind": "c"}), "an open composition lists every value"
    assert _validator(closed({**TOY, "openapi": "3.1.0"}), "Kind").is_valid("a")
    extended = _validator(document, "Extended")
    assert extended.is_valid({"id": 1, "more": "x"}), "allOf's parts let each other's properties by"
    assert not extended.is_valid({"id": 1, "pad": 1})
    assert not _validator(document, "Base").is_valid({"id": 1, "more": "x"}), "the part alone is closed"


def test_the_served_document_is_read_closed_as_3_1() -> None:
    """Every object schema of the served document, read closed, says whether it allows
    more properties; nothing of 3.0 (`nullable`) is left."""
    document = closed(served_document())
    assert str(document["openapi"]).startswith(("3.1", "3.2"))
    left_open: list[str] = []

    def walk(node: Any, at: str) -> None:
        if isinstance(node, dict):
            # (A property may be named `nullable`: OptionDescription's is.)
            assert "nullable" not in node or at.endswith("/properties"), at
            typed = node.get("type") == "object" or "properties" in node
            if typed and not {"additionalProperties", "unevaluatedProperties"} & set(node) and ".open" not in at:
                left_open.append(at)
            for key, value in node.items():
                walk(value, f"{at}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{at}/{i}")

    walk(document["components"]["schemas"], "#/components/schemas")
    walk(document["paths"], "#/paths")
    assert not left_open, left_open[:20]
