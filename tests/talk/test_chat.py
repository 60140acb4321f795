"""Table talk over HTTP: who says what in which channel, who reads it (players never a
spectator's line said during a hand; blocks both ways; a shadow-muted author alone),
free text during a hand as the room's option says, timeouts, limits, and hostile lines
kept as the plain text they are."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import selectors
from games.models import Room, RoomStatus
from games.services import lobby
from talk.models import ChatMessage, ChatTimeout, ShadowMute
from tests.api.helpers import errors

pytestmark = pytest.mark.django_db


def table(make_user: Any, game: str = "hearts", **options: Any) -> tuple[str, list[Any]]:
    """A started room of people in every seat; its code and the people by seat."""
    host = make_user()
    room = lobby.room_create(host=host, game=game, options=options)
    for _ in range(len(selectors.table_of(code=room.code).seats) - 1):
        lobby.room_join(code=room.code, user=make_user())
    lobby.room_start(code=room.code, user=host)
    by_seat = {seat.index: seat.user for seat in selectors.table_of(code=room.code).seats}
    return room.code, [by_seat[i] for i in sorted(by_seat)]


def say(client: Any, code: str, **body: Any) -> Any:
    return client.post(f"/api/v1/rooms/{code}/chat", body, format="json")


def read(client: Any, code: str, **query: Any) -> Any:
    return client.get(f"/api/v1/rooms/{code}/chat", query)


def texts(answer: Any) -> list[str]:
    assert answer.status_code == 200, answer.content
    return [line["text"] for line in answer.json()]


def test_players_and_spectators_talk_in_their_channels(make_user, api_client):
    code, (ana, bo, *_) = table(make_user)
    watcher = make_user("watcher")
    said = say(api_client(ana), code, phrase="good_luck")
    assert said.status_code == 201, said.content
    line = said.json()
    assert line["channel"] == "players" and line["phrase"] == "good_luck" and line["text"] == "Good luck!"
    assert line["author"] == {"username": ana.username, "display_name": ana.display_name, "seat": 0}
    assert line["hand"] == 1 or line["hand"] is None
    watched = say(api_client(watcher), code, text="Nice lead")
    assert watched.status_code == 201 and watched.json()["channel"] == "spectators"
    assert watched.json()["hand"] == 1 and watched.json()["author"]["seat"] is None
    # During the hand the players read only their own channel; the watcher reads both.
    assert texts(read(api_client(bo), code)) == ["Good luck!"]
    assert texts(read(api_client(watcher), code)) == ["Good luck!", "Nice lead"]
    # A spectator's line outside a hand reaches the players.
    Room.objects.filter(code=code).update(status=RoomStatus.FINISHED)
    say(api_client(watcher), code, phrase="well_played")
    assert texts(read(api_client(bo), code)) == ["Good luck!", "Well played!"]


def test_free_text_during_a_hand_follows_the_rooms_option(make_user, api_client):
    code, (ana, *_) = table(make_user, chat_during_hand=False)
    quiet = say(api_client(ana), code, text="I have the queen")
    assert quiet.status_code == 409 and errors(quiet) == [("chat_off_during_hand", None)]
    assert say(api_client(ana), code, phrase="thanks").status_code == 201
    # Hidden partners (Kali Tidi's cards mode) keep it off unless the host says otherwise.
    code, (host, *_) = table(make_user, game="kali_tidi", players=4, team_mode="cards")
    assert say(api_client(host), code, text="partner?").status_code == 409
    code, (host, *_) = table(make_user, game="kali_tidi", players=4, team_mode="cards", chat_during_hand=True)
    assert say(api_client(host), code, text="partner?").status_code == 201


def test_blocks_hide_lines_both_ways_and_a_shadow_mute_from_all_but_the_author(make_user, api_client):
    code, (ana, bo, cy, _) = table(make_user)
    say(api_client(ana), code, text="from ana")
    say(api_client(bo), code, text="from bo")
    blocked = api_client(ana).post("/api/v1/me/blocks", {"username": bo.username}, format="json")
    assert blocked.status_code == 200 and blocked.json()["username"] == bo.username
    assert texts(read(api_client(ana), code)) == ["from ana"]
    assert texts(read(api_client(bo), code)) == ["from bo"]
    assert texts(read(api_client(cy), code)) == ["from ana", "from bo"]
    assert [b["username"] for b in api_client(ana).get("/api/v1/me/blocks").json()] == [bo.username]
    assert api_client(ana).delete(f"/api/v1/me/blocks/{bo.username}").status_code == 204
    assert api_client(ana).delete(f"/api/v1/me/blocks/{bo.username}").status_code == 404
    assert texts(read(api_client(ana), code)) == ["from ana", "from bo"]
    myself = api_client(ana).post("/api/v1/me/blocks", {"username": ana.username}, format="json")
    assert myself.status_code == 400 and errors(myself) == [("block_self", "username")]
    ShadowMute.objects.create(user=cy, reason="trolling")
    assert say(api_client(cy), code, text="troll line").status_code == 201
    assert texts(read(api_client(cy), code))[-1] == "troll line"
    assert "troll line" not in texts(read(api_client(ana), code))


def test_a_timeout_stops_talk_where_it_applies_until_it_ends(make_user, api_client):
    code, (ana, *_) = table(make_user)
    other, _ = table(make_user)
    now = timezone.now()
    ChatTimeout.objects.create(
        user=ana, room=Room.objects.get(code=code), until=now + timedelta(minutes=10), reason="x"
    )
    refused = say(api_client(ana), code, phrase="hello")
    assert refused.status_code == 403 and errors(refused) == [("chat_timed_out", None)]
    assert 590 <= int(refused["Retry-After"]) <= 600
    # Only in that room; an everywhere timeout reaches every room; a lifted one none.
    assert say(api_client(ana), other, phrase="hello").status_code == 201
    everywhere = ChatTimeout.objects.create(user=ana, room=None, until=now + timedelta(hours=1), reason="x")
    assert say(api_client(ana), other, phrase="hello").status_code == 403
    ChatTimeout.objects.filter(pk=everywhere.pk).update(lifted_at=now)
    assert say(api_client(ana), other, phrase="hello").status_code == 201
    ChatTimeout.objects.update(until=now - timedelta(seconds=1))
    assert say(api_client(ana), code, phrase="hello").status_code == 201


def test_shut_rooms_and_bad_lines_are_refused_with_nothing_kept(make_user, api_client):
    code, (ana, *_) = table(make_user)
    client = api_client(ana)
    for body, expected in (
        ({}, [("one_of_phrase_or_text", None)]),
        ({"phrase": "hello", "text": "hi"}, [("one_of_phrase_or_text", None)]),
        ({"phrase": "rude_word"}, [("invalid_choice", "phrase")]),
        ({"text": "   "}, [("empty_message", "text")]),
        ({"text": "x" * 281}, [("max_length", "text")]),
        ({"text": "x" * 10_000}, [("max_length", "text")]),
        ({"text": 5}, [("invalid", "text")]),
        ({"text": "evil\u202egnp.exe"}, [("bidi_control", "text")]),
        ({"text": "hi", "channel": "players"}, [("invalid", "channel")]),
    ):
        answer = say(client, code, **body)
        assert answer.status_code == 400 and errors(answer) == expected, (body, answer.content)
    Room.objects.filter(code=code).update(status=RoomStatus.CLOSED)
    shut = say(client, code, phrase="hello")
    assert shut.status_code == 409 and errors(shut) == [("chat_closed", None)]
    assert not ChatMessage.objects.exists()
    assert say(client, "ZZZZZZ", phrase="hello").status_code == 404


def test_markup_is_kept_as_the_text_it_is(make_user, api_client):
    code, (ana, bo, *_) = table(make_user)
    hostile = "<script>alert(1)</script><img src=x onerror=alert(2)> [link](javascript:alert(3))"
    assert say(api_client(ana), code, text=hostile).json()["text"] == hostile
    assert texts(read(api_client(bo), code)) == [hostile]


def test_pages_links_and_etags(make_user, api_client):
    code, (ana, bo, *_) = table(make_user)
    for n in range(5):
        say(api_client(ana), code, text=f"line {n}")
    client = api_client(bo)
    first = read(client, code, limit=2)
    assert texts(first) == ["line 0", "line 1"] and 'rel="next"' in first["Link"]
    after = first.json()[-1]["id"]
    assert texts(read(client, code, after=after, limit=10)) == ["line 2", "line 3", "line 4"]
    whole = read(client, code)
    again = client.get(f"/api/v1/rooms/{code}/chat", HTTP_IF_NONE_MATCH=whole["ETag"])
    assert again.status_code == 304
    say(api_client(ana), code, text="one more")
    changed = client.get(f"/api/v1/rooms/{code}/chat", HTTP_IF_NONE_MATCH=whole["ETag"])
    assert changed.status_code == 200 and texts(changed)[-1] == "one more"
    # A block changes the reader's page, so its tag.
    api_client(bo).post("/api/v1/me/blocks", {"username": ana.username}, format="json")
    assert client.get(f"/api/v1/rooms/{code}/chat", HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == 200


def test_talk_is_limited_per_person_and_per_table(make_user, api_client, monkeypatch):
    from django.core.cache import cache
    from rest_framework.throttling import SimpleRateThrottle

    cache.clear()
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "chat": "3/min", "chat_room": "5/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    code, (ana, bo, cy, _) = table(make_user)
    # One fixed window throughout, whatever the wall clock does.
    with time_machine.travel(timezone.now().replace(second=1), tick=False):
        for _ in range(3):
            assert say(api_client(ana), code, phrase="hello").status_code == 201
        flood = say(api_client(ana), code, phrase="hello")
        assert flood.status_code == 429 and errors(flood) == [("throttled", None)]
        assert say(api_client(bo), code, phrase="hello").status_code == 201
        assert say(api_client(cy), code, phrase="hello").status_code == 201
        assert say(api_client(cy), code, phrase="hello").status_code == 429  # the table's five
        # Reading is not saying.
        assert read(api_client(ana), code).status_code == 200
    assert ChatMessage.objects.count() == 5
    cache.clear()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(min_size=1, max_size=300))
def test_any_text_is_kept_as_sent_or_refused_with_a_code(make_user, api_client, text):
    if not Room.objects.exists():
        table(make_user)
    room = Room.objects.get()
    ana = selectors.table_of(code=room.code).seats[0].user
    before = ChatMessage.objects.count()
    answer = say(api_client(ana), room.code, text=text)
    if answer.status_code == 201:
        assert answer.json()["text"].strip() == answer.json()["text"] and answer.json()["text"]
        assert ChatMessage.objects.count() == before + 1
    else:
        assert answer.status_code in (400, 429), answer.content
        assert ChatMessage.objects.count() == before


def test_people_who_blocked_one_another_do_not_sit_at_one_table(make_user, api_client):
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    room = lobby.room_create(host=ana, game="hearts", options={})
    api_client(bo).post("/api/v1/me/blocks", {"username": "ana"}, format="json")
    refused = api_client(bo).post(f"/api/v1/rooms/{room.code}/join", {}, format="json")
    assert refused.status_code == 409 and errors(refused) == [("blocked_at_table", None)]
    # Either way round: Ana cannot join a table where Bo sits.
    other = lobby.room_create(host=bo, game="hearts", options={})
    assert api_client(ana).post(f"/api/v1/rooms/{other.code}/join", {}, format="json").status_code == 409
    assert api_client(cy).post(f"/api/v1/rooms/{room.code}/join", {}, format="json").status_code == 201
    api_client(bo).delete("/api/v1/me/blocks/ana")
    assert api_client(bo).post(f"/api/v1/rooms/{room.code}/join", {}, format="json").status_code == 201
