"""A private room's record is its players' (and moderators'): its replay at any time,
and once it is over its hands' summaries, its event log, and the room itself (its page,
its QR code, its state, its socket). Anyone else is answered exactly as for a room that
does not exist, so the answer says nothing of whether it does; and a player's profile
lists a private room's match (whose code opens its replay) only to those who played in
it and to moderators. A player whose seat went to a computer player played in it still.
Public rooms' stay public."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.models import Action, Room, RoomStatus
from games.services import table_moderation

from .helpers import play_one, play_to_end

pytestmark = pytest.mark.django_db

NOWHERE = "ZZZZZZ"  # a room code no room has
RECORD = ("replay", "rounds", "events", "chat", "", "qr.svg", "state")


def finished_room(api_client: Any, make_user: Any, *, public: bool) -> tuple[str, list[Any], list[Any]]:
    """A Hearts match of two people and two computer players, played to its end."""
    users = [make_user(), make_user()]
    host, guest = (api_client(u) for u in users)
    res = host.post(
        "/api/v1/rooms/",
        {"game": "hearts", "options": {"target": 30}, "public": public, "name": "Us"},
        format="json",
    )
    assert res.status_code == 201, res.content
    code = res.json()["code"]
    assert guest.post(f"/api/v1/rooms/{code}/join", {}, format="json").status_code == 201
    for _ in range(2):
        assert host.post(f"/api/v1/rooms/{code}/bots", {}, format="json").status_code == 201
    assert host.post(f"/api/v1/rooms/{code}/start").status_code == 200
    final = play_to_end({0: host, 1: guest}, code, seed=11)
    assert final["status"] == "finished"
    return code, [host, guest], users


def as_nowhere(client: Any, code: str, tail: str) -> None:
    """`client` reads rooms/{code}/{tail} exactly as it reads a room that does not exist."""
    res = client.get(f"/api/v1/rooms/{code}/{tail}")
    nowhere = client.get(f"/api/v1/rooms/{NOWHERE}/{tail}")
    assert nowhere.status_code == 404
    assert (res.status_code, res.json()) == (nowhere.status_code, nowhere.json()), (tail, res.content)
    assert "ETag" not in res.headers and "Link" not in res.headers


def test_a_private_rooms_record_is_its_players_and_moderators(api_client, make_user):
    code, players, _ = finished_room(api_client, make_user, public=False)
    stranger = api_client(make_user())
    moderator = api_client(make_user(is_staff=True))
    for tail in RECORD:
        as_nowhere(stranger, code, tail)
        for reader in (*players, moderator):
            res = reader.get(f"/api/v1/rooms/{code}/{tail}")
            assert res.status_code == 200, (tail, res.content)
    replay = players[1].get(f"/api/v1/rooms/{code}/replay").json()
    assert replay["code"] == code and replay["hands"]


def test_a_player_whose_seat_went_to_a_computer_player_still_reads_the_record(api_client, make_user):
    users = [make_user(), make_user()]
    host, guest = (api_client(u) for u in users)
    code = host.post("/api/v1/rooms/", {"game": "hearts", "options": {"target": 30}, "public": False}, format="json")
    code = code.json()["code"]
    assert guest.post(f"/api/v1/rooms/{code}/join", {}, format="json").status_code == 201
    for _ in range(2):
        assert host.post(f"/api/v1/rooms/{code}/bots", {}, format="json").status_code == 201
    assert host.post(f"/api/v1/rooms/{code}/start").status_code == 200
    # The guest passes their cards, then their seat goes to a computer player.
    rng = random.Random(11)
    while not Action.objects.filter(round__room__code=code, user=users[1]).exists():
        play_one({0: host, 1: guest}, code, rng)
    table_moderation.seat_give_to_bot(code=code, index=1, reason="gone")
    final = play_to_end({0: host}, code, seed=11)
    assert final["status"] == "finished"
    for tail in RECORD:
        assert guest.get(f"/api/v1/rooms/{code}/{tail}").status_code == 200, tail
    as_nowhere(api_client(make_user()), code, "replay")


def test_a_public_rooms_record_stays_public(api_client, make_user):
    code, _, _ = finished_room(api_client, make_user, public=True)
    stranger = api_client(make_user())
    for tail in RECORD:
        assert stranger.get(f"/api/v1/rooms/{code}/{tail}").status_code == 200, tail


def test_a_private_replay_says_nothing_before_the_end_either(api_client, make_user):
    host, stranger = api_client(make_user()), api_client(make_user())
    res = host.post("/api/v1/rooms/", {"game": "hearts", "options": {}, "public": False}, format="json")
    code = res.json()["code"]
    # Its player is told the match is not over; anyone else, that there is no such room.
    res = host.get(f"/api/v1/rooms/{code}/replay")
    assert res.status_code == 409 and res.json()["errors"][0]["code"] == "match_not_over"
    as_nowhere(stranger, code, "replay")


def test_an_abandoned_private_rooms_log_is_its_players(api_client, make_user):
    host, stranger = api_client(make_user()), api_client(make_user())
    res = host.post("/api/v1/rooms/", {"game": "hearts", "options": {}, "public": False}, format="json")
    code = res.json()["code"]
    # While it is open, whoever holds the invitation reads its log, as before.
    assert stranger.get(f"/api/v1/rooms/{code}/events").status_code == 200
    Room.objects.filter(code=code).update(status=RoomStatus.ABANDONED)
    for tail in ("rounds", "events", "chat"):
        as_nowhere(stranger, code, tail)
        assert host.get(f"/api/v1/rooms/{code}/{tail}").status_code == 200
    res = host.get(f"/api/v1/rooms/{code}/replay")
    assert res.status_code == 409 and res.json()["errors"][0]["code"] == "room_closed"


def test_a_profile_lists_a_private_match_only_to_its_players_and_moderators(api_client, make_user):
    private, players, users = finished_room(api_client, make_user, public=False)
    public, _, public_users = finished_room(api_client, make_user, public=True)
    stranger = api_client(make_user())
    moderator = api_client(make_user(is_staff=True))

    def listed(client: Any, user: Any) -> set[str]:
        res = client.get(f"/api/v1/players/{user.username}/matches")
        assert res.status_code == 200, res.content
        return {row["code"] for row in res.json()["results"]}

    for user in users:
        assert listed(stranger, user) == set()
        for reader in (*players, moderator):
            assert listed(reader, user) == {private}
    # The counts are the player's record, and count it still.
    profile = stranger.get(f"/api/v1/players/{users[0].username}").json()
    assert profile["matches"]["played"] == 1
    assert listed(stranger, public_users[0]) == {public}
