"""`on_abandon: bot`: a player idle past abandon_seconds has a computer player take
their seat, the match goes on, and they alone may reclaim it (issue 17, part 2).

Time is moved by calling the due-time service the Celery task calls, with its clock."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from games.models import Room, Round, Seat
from games.services import due
from moderation.models import ModerationEntry

from .helpers import act, error_code, state

pytestmark = pytest.mark.django_db

AWAY = {"on_abandon": "bot", "turn_seconds": 60, "abandon_seconds": 150}


def run_until_handed_over(code: str) -> tuple[dict[str, Any], Any]:
    """Let the clock run, the server acting when due, until a seat goes to a computer
    player; the event and the time it happened."""
    room = Room.objects.get(code=code)
    t = room.started_at
    for _ in range(30):
        round_ = Round.objects.filter(room=room).order_by("-number").first()
        assert round_ is not None and round_.due_at is not None
        t = max(t, round_.due_at)
        due.due_actions_apply(code=code, now=t)
        handed = [e.data for e in room.events.order_by("seq") if e.data["type"] == "seat_to_bot"]
        if handed:
            return handed[0], t
    raise AssertionError("nobody was replaced")


def only_seat_0_sleeps(code: str, clients: dict[int, Any]) -> tuple[dict[str, Any], Any]:
    """Everyone but seat 0 passes their cards now; seat 0's turn is then aged past
    abandon_seconds (the one write made around the services: the clock cannot be
    moved for requests), so that seat 0 alone has waited that long."""
    for seat, client in clients.items():
        if seat != 0:
            mine = state(client, code)
            cards = mine["you"]["legal_actions"][0]["choices"][:3]
            res = act(client, code, mine["version"], {"type": "pass_cards", "cards": cards})
            assert res.status_code == 200, res.content
    now = timezone.now()
    Seat.objects.filter(room__code=code, index=0).update(turn_since=now - timedelta(hours=1))
    due.due_actions_apply(code=code, now=now)
    room = Room.objects.get(code=code)
    [handed] = [e.data for e in room.events.order_by("seq") if e.data["type"] == "seat_to_bot"]
    return handed, now


def seat_of(client: Any, code: str, index: int) -> dict[str, Any]:
    return next(s for s in client.get(f"/api/v1/rooms/{code}/").json()["seats"] if s["seat"] == index)


def test_the_option_is_documented_and_checked(api_client, make_user):
    client = api_client(make_user())
    hearts = next(g for g in client.get("/api/v1/games/").json() if g["key"] == "hearts")
    assert hearts["options"]["on_abandon"]["default"] == "end"
    assert hearts["options"]["on_abandon"]["choices"] == ["end", "bot"]
    res = client.post("/api/v1/rooms/", {"game": "hearts", "options": {"on_abandon": "robot"}}, format="json")
    assert res.status_code == 400 and error_code(res) == "invalid"
    assert res.json()["errors"][0]["attr"] == "on_abandon"


def test_an_idle_player_is_replaced_the_match_goes_on_and_they_reclaim_the_seat(
    hearts_table, api_client, make_user, client
):
    code, clients, users = hearts_table(AWAY)
    event, t = only_seat_0_sleeps(code, clients)
    away = event["seat"]
    assert away == 0
    assert event["idle"] is True and event["name"] == users[away].shown_name
    assert Room.objects.get(code=code).status == "playing"
    # Everyone reads the hand-over; the seat still names its person.
    others = [c for s, c in clients.items() if s != away]
    assert any(
        e["type"] == "seat_to_bot" and e["seat"] == away for e in others[0].get(f"/api/v1/rooms/{code}/events").json()
    )
    public = seat_of(others[0], code, away)
    assert public == {
        "seat": away,
        "user": users[away].username,
        "display_name": users[away].shown_name,
        "is_bot": True,
        "team": None,
        "client_seed": "",
    }
    # The away player still sees their seat, and may not act in it.
    mine = state(clients[away], code)
    assert mine["you"]["seat"] == away and mine["you"]["legal_actions"] == []
    res = act(clients[away], code, mine["version"], {"type": "next_round"})
    assert res.status_code == 409 and error_code(res) == "seat_held_by_computer"
    # The computer player plays the seat: nothing waits for it.
    assert away not in state(others[0], code)["to_act"]

    # Only the seat's person may reclaim it, and nobody is told whose it is.
    seated_other = others[0].post(f"/api/v1/rooms/{code}/reclaim")
    assert seated_other.status_code == 409 and error_code(seated_other) == "nothing_to_reclaim"
    stranger = api_client(make_user()).post(f"/api/v1/rooms/{code}/reclaim")
    assert stranger.status_code == 403 and error_code(stranger) == "not_seated"
    assert users[away].username not in stranger.content.decode()
    assert users[away].shown_name not in stranger.content.decode()

    res = clients[away].post(f"/api/v1/rooms/{code}/reclaim")
    assert res.status_code == 200, res.content
    view = res.json()
    assert seat_of(others[0], code, away)["is_bot"] is False
    assert view["you"]["seat"] == away
    if away in view["to_act"]:
        assert view["you"]["legal_actions"]
    events = others[0].get(f"/api/v1/rooms/{code}/events").json()
    assert events[-1] == {**events[-1], "type": "seat_reclaimed", "seat": away, "name": users[away].shown_name}
    again = clients[away].post(f"/api/v1/rooms/{code}/reclaim")
    assert again.status_code == 409 and error_code(again) == "nothing_to_reclaim"
    # Back in the seat, their idleness counts from their return: the same clock that
    # replaced them does not replace them again.
    due.due_actions_apply(code=code, now=t + timedelta(seconds=1))
    assert seat_of(others[0], code, away)["is_bot"] is False

    # The moderation log and the admin's room page show both hand-overs.
    entries = list(ModerationEntry.objects.filter(room__code=code).order_by("created_at", "id"))
    assert [(e.kind, e.moderator, e.target_user, e.shown_detail) for e in entries] == [
        ("seat_to_bot_idle", None, users[away], f"seat {away + 1}"),
        ("seat_reclaimed", None, users[away], f"seat {away + 1}"),
    ]
    client.force_login(make_user("boss", is_staff=True, is_superuser=True))
    log = client.get(reverse("admin:moderation_moderationentry_changelist")).content.decode()
    assert "the server (room rule)" in log and "Seat reclaimed" in log
    room = Room.objects.get(code=code)
    page = client.get(reverse("admin:games_room_change", args=[room.id])).content.decode()
    assert f"{users[away].shown_name} away, a computer player holds the seat for them" in page
    assert f"{users[away].shown_name} back, took the seat back" in page


def test_the_match_goes_on_at_the_computer_players_pace_with_a_delay(hearts_table):
    with override_settings(BOT_DELAY_SECONDS=2):
        code, clients, _users = hearts_table(AWAY)
        event, t = only_seat_0_sleeps(code, clients)
        away = event["seat"]
        round_ = Round.objects.filter(room__code=code).order_by("-number").first()
        # The computer player's pass is due after the delay, and made then.
        assert state(clients[1], code)["to_act"] == [away]
        assert round_.bots_due_at == t + timedelta(seconds=2)
        assert not due.due_actions_apply(code=code, now=t + timedelta(seconds=1))
        assert due.due_actions_apply(code=code, now=t + timedelta(seconds=2))
        assert state(clients[1], code)["phase"] == "play"
        assert Room.objects.get(code=code).status == "playing"


def test_when_every_seat_is_a_computer_players_the_match_is_abandoned(hearts_table):
    code, clients, _users = hearts_table(AWAY, humans=1)
    event, _ = run_until_handed_over(code)
    assert event["seat"] == 0
    room = Room.objects.get(code=code)
    assert room.status == "abandoned"
    assert room.status_reason == "Every seat is played by a computer player; the match was abandoned."
    res = clients[0].post(f"/api/v1/rooms/{code}/reclaim")
    assert res.status_code == 409 and error_code(res) == "room_closed"


def test_the_default_still_abandons_the_match(hearts_table):
    code, _clients, _ = hearts_table({"turn_seconds": 60, "abandon_seconds": 150})
    room = Room.objects.get(code=code)
    t = room.started_at
    for _ in range(30):
        round_ = Round.objects.filter(room=room).order_by("-number").first()
        t = max(t, round_.due_at)
        due.due_actions_apply(code=code, now=t)
        room.refresh_from_db()
        if room.status != "playing":
            break
    assert room.status == "abandoned"
    assert not room.events.filter(data__type="seat_to_bot").exists()
    assert not ModerationEntry.objects.exists()


def test_reclaim_is_refused_in_the_lobby(api_client, make_user):
    host = api_client(make_user())
    code = host.post("/api/v1/rooms/", {"game": "hearts", "options": AWAY}, format="json").json()["code"]
    res = host.post(f"/api/v1/rooms/{code}/reclaim")
    assert res.status_code == 409 and error_code(res) == "not_playing"
    assert api_client(make_user()).post(f"/api/v1/rooms/{code}/reclaim").status_code == 403
    assert api_client(make_user()).post("/api/v1/rooms/ZZZZZZ/reclaim").status_code == 404


def test_a_moderator_takes_an_away_players_seat_for_good(hearts_table, make_user):
    from moderation import services as moderation

    code, clients, _users = hearts_table(AWAY)
    event, _ = only_seat_0_sleeps(code, clients)
    away = event["seat"]
    room = Room.objects.get(code=code)
    moderation.seat_give_to_bot(moderator=make_user(is_staff=True), room=room, index=away, reason="gone for good")
    seat = room.seats.get(index=away)
    assert seat.is_bot and seat.user is None
    res = clients[away].post(f"/api/v1/rooms/{code}/reclaim")
    assert res.status_code == 403 and error_code(res) == "not_seated"


@pytest.mark.parametrize("delay", [0, 30])
def test_a_moderator_taking_the_last_persons_seat_abandons_the_match(api_client, make_user, settings, delay):
    # One person and three computer players: once the person's seat is a computer's too,
    # nobody is left to play for (inline computer players would play the match out).
    from moderation import services as moderation

    settings.BOT_DELAY_SECONDS = delay
    host = make_user()
    client = api_client(host)
    code = client.post("/api/v1/rooms/", {"game": "hearts", "options": {}}, format="json").json()["code"]
    for _ in range(3):
        assert client.post(f"/api/v1/rooms/{code}/bots", {}, format="json").status_code in (200, 201)
    assert client.post(f"/api/v1/rooms/{code}/start", {}, format="json").status_code == 200
    room = Room.objects.get(code=code)
    moderation.seat_give_to_bot(moderator=make_user(is_staff=True), room=room, index=0, reason="gone for good")
    room.refresh_from_db()
    assert (room.status, room.status_reason) == (
        "abandoned",
        "Every seat is played by a computer player; the match was abandoned.",
    )
    events = api_client(make_user()).get(f"/api/v1/rooms/{code}/events?after=0").json()
    # Nothing was played for nobody after the hand-over.
    assert [e["type"] for e in events][-2:] == ["seat_to_bot", "abandoned"]
