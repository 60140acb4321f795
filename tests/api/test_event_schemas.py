"""`Event`: every entry of a room's log is typed by its `type`, in the served document.

The engines' events are held to each game's `<Game>Event` in the conformance play-outs
(tests/rules/test_conformance.py), and every event any in-process test logs is held to
`Event` as it is written (tests/conftest.py). Here: the components are what the games and
services declare, a declaration cannot clash, and one run of rooms through every service
that logs (lobby, teams, moderation, idleness, reclaim, abandonment, rematch) reads back,
through the API and held strictly to the document, every type the services declare.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from django.utils import timezone

from api import event_schemas
from games import rules
from games.models import Room, Round
from games.service_events import SERVICE_EVENTS
from games.services import due, table_moderation
from tests.strict_answers import check_component, component_failures, served_document

from .test_strict_answers import Strict, ok, pages

API = "/api/v1"
REFS = "#/components/schemas/"


def _names(schema: dict[str, Any]) -> list[str]:
    return [alt["$ref"].removeprefix(REFS) for alt in schema["anyOf"]]


def _type_of(component: str) -> str:
    schema = served_document()["components"]["schemas"][component]
    if "anyOf" in schema:  # a type whose facts differ by game: its games' components
        kinds = {_type_of(name) for name in _names(schema)}
        assert len(kinds) == 1, (component, kinds)
        return kinds.pop()
    return str(schema["properties"]["type"].get("const", ""))


def _flat(names: list[str]) -> list[str]:
    schemas = served_document()["components"]["schemas"]
    return [leaf for name in names for leaf in (_flat(_names(schemas[name])) if "anyOf" in schemas[name] else [name])]


def test_each_union_of_events_is_told_apart_by_type() -> None:
    """Each event union has a discriminator on `type` whose mapping names, for each type,
    the one choice of that type (a fallback, `OtherEvent`, takes the types not listed)."""
    schemas = served_document()["components"]["schemas"]
    unions = ["Event", *(f"{''.join(p.capitalize() for p in g.key.split('_'))}Event" for g in rules.all_games())]
    for union in unions:
        names = _names(schemas[union])
        discriminator = schemas[union]["discriminator"]
        assert discriminator["propertyName"] == "type", union
        assert discriminator["mapping"] == {_type_of(name): REFS + name for name in names[:-1]}, union
    # A type whose facts differ by game is one choice of `Event`, its games' components in
    # it, the one with more facts first (readers that try choices in order take the first fit).
    trick_won = _names(schemas["TrickWonEvent"])
    assert trick_won[0] == "KaliTidiTrickWonEvent" and set(trick_won) == {
        "HeartsTrickWonEvent",
        "MoonTrickWonEvent",
        "KaliTidiTrickWonEvent",
    }
    required = [len(schemas[name]["required"]) for name in trick_won]
    assert required == sorted(required, reverse=True)
    for name, schema in schemas.items():
        if name.endswith("Event") and "properties" in schema:
            assert len(schema["required"]) == len(set(schema["required"])), name


def test_each_game_lists_its_engines_types_and_the_services_and_event_lists_them_all() -> None:
    schemas = served_document()["components"]["schemas"]
    every = _flat(_names(schemas["Event"]))
    assert every[-1] == "OtherEvent" and schemas["Event"]["x-open"] is True
    for game in rules.all_games():
        label = "".join(part.capitalize() for part in game.key.split("_"))
        names = _names(schemas[f"{label}Event"])
        assert names[-1] == "OtherEvent"
        types = sorted(_type_of(name) for name in names[:-1])
        assert types == sorted([*game.schema.events, "hand_scored", *SERVICE_EVENTS]), game.key
        assert set(names) <= set(every)
        hand_scored = schemas[f"{label}HandScoredEvent"]
        assert set(game.schema.result["required"]) <= set(hand_scored["required"])
        assert {"seq", "round", "version", "at", "type"} <= set(hand_scored["required"])
    # A play may say it was forced, in every game.
    for name in every:
        if _type_of(name) == "play":
            assert "forced" in schemas[name]["properties"], name


def test_an_event_outside_its_type_is_refused() -> None:
    envelope = {"seq": 3, "round": 1, "version": 2, "at": "2026-11-27T10:00:00Z"}
    check_component("HeartsEvent", {**envelope, "type": "play", "seat": 1, "card": "QS"})
    check_component("Event", {**envelope, "type": "joined", "seat": 1, "name": "Ann"})
    for bad in (
        {**envelope, "type": "play", "seat": 1, "tile": "6-4"},  # Moon's play in a Hearts room
        {**envelope, "type": "play", "seat": 1, "card": "QS", "hand": ["2C"]},  # a field never sent
        {**envelope, "type": "joined", "seat": 1},  # a field always sent, missing
        {**envelope, "type": "no_such_event"},  # only the open reading takes a new type
        {"type": "started"},  # no envelope
    ):
        assert component_failures("HeartsEvent", bad), bad


def test_a_game_may_not_declare_a_services_type(monkeypatch: pytest.MonkeyPatch) -> None:
    game = rules.all_games()[0]
    clashing = replace(game.schema, events={**game.schema.events, "joined": SERVICE_EVENTS["joined"]})
    monkeypatch.setattr(game, "schema", clashing)
    with pytest.raises(LookupError, match="joined"):
        event_schemas.components()


def _run_clock(code: str, until: Any) -> None:
    """Let the clock run, the server acting when due, until `until(room)` holds."""
    for _ in range(60):
        room = Room.objects.get(code=code)
        if until(room):
            return
        round_ = Round.objects.filter(room=room).order_by("-number").first()
        assert round_ is not None and round_.due_at is not None, room.status
        due.due_actions_apply(code=code, now=max(round_.due_at, timezone.now()))
    raise AssertionError("the clock never got there")


@pytest.mark.django_db
def test_every_service_event_reads_back_as_the_document_says(api_client, make_user) -> None:
    seen: set[str] = set()

    def read(client: Strict, code: str) -> None:
        for event in pages(client, f"{API}/rooms/{code}/events?limit=50"):
            seen.add(event["type"])

    # A lobby: seats taken, a team changed, seats left, the host's role passed on, a
    # seat taken by a moderator; left empty, the room is abandoned before it began.
    host_user, second_user, third_user = make_user(), make_user(), make_user()
    host, second, third = (Strict(api_client(u)) for u in (host_user, second_user, third_user))
    options = {"players": 4, "team_mode": "teams"}
    code = ok(host.post(f"{API}/rooms/", {"game": "kali_tidi", "options": options}), 201)["code"]
    ok(second.post(f"{API}/rooms/{code}/join", {"team": 0}), 200, 201)
    ok(second.post(f"{API}/rooms/{code}/join", {"team": 1}), 200, 201)
    ok(third.post(f"{API}/rooms/{code}/join", {}), 200, 201)
    ok(third.post(f"{API}/rooms/{code}/leave"), 200, 204)
    ok(host.post(f"{API}/rooms/{code}/leave"), 200, 204)
    table_moderation.seat_remove(code=code, user=second_user, reason="Spam in the name.", banned=True)
    assert Room.objects.get(code=code).status == "abandoned"
    read(second, code)

    # A match: a seed, the start, turns timed out until an idle player's seat goes to a
    # computer player, reclaimed; a seat given away by a moderator; the room closed.
    away = {"on_abandon": "bot", "turn_seconds": 60, "abandon_seconds": 150}
    players = [make_user() for _ in range(3)]
    clients = [Strict(api_client(u)) for u in players]
    code = ok(clients[0].post(f"{API}/rooms/", {"game": "hearts", "options": away}), 201)["code"]
    for client in clients[1:]:
        ok(client.post(f"{API}/rooms/{code}/join", {}), 200, 201)
    ok(clients[0].post(f"{API}/rooms/{code}/bots", {}), 201)
    ok(clients[1].put(f"{API}/rooms/{code}/client_seed", {"client_seed": "mine"}))
    ok(clients[0].post(f"{API}/rooms/{code}/start"))
    _run_clock(code, lambda room: room.events.filter(data__type="seat_to_bot").exists())
    idle = Room.objects.get(code=code).events.filter(data__type="seat_to_bot").first()
    assert idle is not None and idle.data["idle"] is True
    index = idle.data["seat"]
    ok(clients[index].post(f"{API}/rooms/{code}/reclaim"))
    table_moderation.seat_give_to_bot(code=code, index=(index + 1) % 3, reason="Cheating.", banned=True)
    table_moderation.room_close(code=code, reason="Closed by a moderator.")
    read(clients[index], code)

    # A match abandoned by an idle player, then a rematch its one person agrees to.
    person = Strict(api_client(make_user()))
    code = ok(person.post(f"{API}/rooms/", {"game": "moon", "options": {"players": 3}}), 201)["code"]
    for _ in range(2):
        ok(person.post(f"{API}/rooms/{code}/bots", {}), 201)
    ok(person.post(f"{API}/rooms/{code}/start"))
    _run_clock(code, lambda room: room.status == "abandoned")
    ok(person.post(f"{API}/rooms/{code}/rematch"))
    read(person, code)

    missing = set(SERVICE_EVENTS) - seen
    assert not missing, f"never logged here: {sorted(missing)}"


@pytest.mark.django_db
def test_an_event_carries_the_version_its_change_commits_with(api_client, make_user) -> None:
    """Whatever the order a service counts its change and logs it in, each event's
    `version` is the room's once that change committed: the first version whose view
    shows it (issue 26: `left` carried the version from before)."""
    host, guest = Strict(api_client(make_user())), Strict(api_client(make_user()))
    code = ok(host.post(f"{API}/rooms/", {"game": "hearts", "options": {}}), 201)["code"]
    room = f"{API}/rooms/{code}"
    steps = [
        lambda: guest.post(f"{room}/join", {}),
        lambda: guest.post(f"{room}/leave"),
        lambda: guest.post(f"{room}/join", {}),
        lambda: host.post(f"{room}/leave"),  # the host's role passes on
        lambda: host.post(f"{room}/join", {}),
        lambda: guest.post(f"{room}/bots", {}),
        lambda: guest.post(f"{room}/bots", {}),
        lambda: guest.put(f"{room}/client_seed", {"client_seed": "x"}),
        lambda: guest.post(f"{room}/start"),
    ]
    created = pages(host, f"{room}/events")
    assert [e["version"] for e in created] == [ok(host.get(f"{room}/state"))["version"]]
    seen = created[-1]["seq"]
    for step in steps:
        res = step()
        assert res.status_code < 300, res.content
        version = ok(host.get(f"{room}/state"))["version"]
        new = pages(host, f"{room}/events?after={seen}")
        assert new, "each step logs"
        assert {e["version"] for e in new} == {version}, (new, version)
        seen = new[-1]["seq"]
