"""Profiles, players' matches and the leaderboard, as a client reads them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import RoomStatus
from games.services import lobby
from ratings.models import Rating

from .play import play_out, room_ready

pytestmark = pytest.mark.django_db


def _error(res):
    body = res.json()
    assert set(body) == {"type", "errors"}, body
    return body["errors"][0]


@pytest.fixture
def history(make_user):
    """Two finished matches (one rated between people, one unrated with computer
    players), and a room still playing."""
    a, b, c, d = (make_user(f"Player{i}") for i in range(4))
    rated = play_out(room_ready("moon", {"players": 4}, [a, b, c, d]), [a, b, c, d], seed=7)
    unrated = play_out(room_ready("moon", {"players": 3}, [a], bots=2), [a], seed=8)
    playing = room_ready("hearts", {}, [a, b, c, d])
    assert rated.status == unrated.status == RoomStatus.FINISHED
    return {"users": (a, b, c, d), "rated": rated, "unrated": unrated, "playing": playing}


def test_profile(api_client, history):
    a = history["users"][0]
    res = api_client(a).get("/api/v1/players/player0")  # names compare as sign-in does
    assert res.status_code == 200, res.content
    body = res.json()
    rating = Rating.objects.get(user=a, game="moon")
    assert body["username"] == "Player0" and body["display_name"] == a.shown_name
    assert body["ratings"] == {
        "moon": {"mu": rating.mu, "sigma": rating.sigma, "shown": rating.mu - 3 * rating.sigma, "matches": 1}
    }
    won = sum(1 for room in (history["rated"], history["unrated"]) if room.placings.get(user=a).won)
    assert body["matches"] == {"played": 2, "won": won, "abandoned": 0}


def test_unknown_player_is_not_found(api_client, make_user):
    client = api_client(make_user())
    for path in ("/api/v1/players/nobody", "/api/v1/players/nobody/matches"):
        res = client.get(path)
        assert res.status_code == 404
        assert _error(res)["code"] == "not_found"


def test_matches_newest_first_with_rating_changes(api_client, history):
    a = history["users"][0]
    res = api_client(a).get("/api/v1/players/Player0/matches")
    assert res.status_code == 200, res.content
    body = res.json()
    assert body["count"] == 2  # the match still playing is not there
    newest, oldest = body["results"]
    assert (newest["code"], oldest["code"]) == (history["unrated"].code, history["rated"].code)
    assert newest["rated"] is False and newest["rating_change"] is None
    assert [p["username"] for p in newest["players"]] == ["Player0", None, None]
    assert oldest["rated"] is True and oldest["game"] == "moon" and oldest["seat"] == 0
    change = history["rated"].rating_changes.get(user=a)
    assert oldest["rating_change"] == {
        "mu_before": change.mu_before,
        "mu_after": change.mu_after,
        "shown_before": change.mu_before - 3 * change.sigma_before,
        "shown_after": change.mu_after - 3 * change.sigma_after,
    }
    scores = history["rated"].scores
    assert [(p["seat"], p["score"]) for p in oldest["players"]] == list(enumerate(scores))
    # Partners share their side's place; the winners' side is first.
    assert oldest["place"] == (
        1 if oldest["seat"] in history["rated"].placings.filter(won=True).values_list("seat", flat=True) else 2
    )


def test_leaderboard(api_client, history, settings):
    settings.LEADERBOARD_MIN_MATCHES = 1
    users = history["users"]
    client = api_client(users[0])
    res = client.get("/api/v1/leaderboard", {"game": "moon"})
    assert res.status_code == 200, res.content
    rows = res.json()["results"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    assert [r["shown"] for r in rows] == sorted((r["shown"] for r in rows), reverse=True)
    assert {r["username"] for r in rows} == {u.username for u in users}
    assert all(r["matches"] == 1 and r["shown"] == r["mu"] - 3 * r["sigma"] for r in rows)
    # A banned account is left out; the others keep their order.
    banned = users[1]
    banned.banned_at = timezone.now()
    banned.save(update_fields=["banned_at"])
    after = client.get("/api/v1/leaderboard", {"game": "moon"}).json()["results"]
    assert [r["username"] for r in after] == [r["username"] for r in rows if r["username"] != banned.username]
    # Too few rated matches: not listed; a game nobody was rated in: empty.
    settings.LEADERBOARD_MIN_MATCHES = 2
    assert client.get("/api/v1/leaderboard", {"game": "moon"}).json()["results"] == []
    assert client.get("/api/v1/leaderboard", {"game": "hearts"}).json()["count"] == 0


@pytest.mark.parametrize("query", [{"game": "chess"}, {}, {"game": ""}])
def test_leaderboard_refuses_an_unknown_game(api_client, make_user, query):
    res = api_client(make_user()).get("/api/v1/leaderboard", query)
    assert res.status_code == 400
    error = _error(res)
    assert (error["code"], error["attr"]) in {("invalid", "game"), ("required", "game"), ("blank", "game")}


def test_profile_of_a_player_without_matches(api_client, make_user):
    user = make_user("loner")
    lobby.room_create(host=user, game="hearts", options={})
    body = api_client(user).get("/api/v1/players/loner").json()
    assert body["ratings"] == {} and body["matches"] == {"played": 0, "won": 0, "abandoned": 0}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(min_size=1, max_size=60).filter(lambda s: "/" not in s and "?" not in s and "#" not in s))
def test_any_name_is_a_player_or_not_found(api_client, make_user, name):
    from urllib.parse import quote

    client = api_client(make_user())
    res = client.get("/api/v1/players/" + quote(name, safe=""))
    assert res.status_code in (200, 404), (name, res.status_code)
    if res.status_code == 404:
        assert _error(res)["code"] == "not_found"


def test_matches_page_reads_in_a_fixed_number_of_queries(api_client, history, make_user, monkeypatch):
    from datetime import timedelta

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from accounts.services import sign_ins

    a, b, c, d = history["users"]
    client = api_client(a)
    # A sign-in's use is noted once a minute, a write of its own: noted now, and not again
    # during this test however long the match below takes.
    assert client.get("/api/v1/me").status_code == 200
    monkeypatch.setattr(sign_ins, "LAST_USED_RESOLUTION", timedelta(days=1))

    def queries() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get("/api/v1/players/Player0/matches").status_code == 200
        return len(ctx.captured_queries)

    before = queries()
    play_out(room_ready("hearts", {"target": 20}, [a, b, c, d]), [a, b, c, d], seed=9)
    assert queries() == before


@pytest.mark.parametrize("value", ["yes", 1, [True]])
def test_the_rated_option_takes_only_true_false_or_null(api_client, make_user, value):
    res = api_client(make_user()).post("/api/v1/rooms/", {"game": "hearts", "options": {"rated": value}}, format="json")
    assert res.status_code == 400
    assert (_error(res)["code"], _error(res)["attr"]) == ("invalid", "rated")


def moon_with_computers(client: Any, options: dict[str, Any], before: Callable[[dict[str, Any]], bool]) -> str:
    """A three-player Moon room of the client's person and two computers, started; `before`
    holds of the room's answer in the lobby."""
    code = client.post("/api/v1/rooms/", {"game": "moon", "options": options}, format="json").json()["code"]
    assert before(client.get(f"/api/v1/rooms/{code}/").json())
    for _ in range(2):
        assert client.post(f"/api/v1/rooms/{code}/bots", {}, format="json").status_code in (200, 201)
    assert client.post(f"/api/v1/rooms/{code}/start", {}, format="json").status_code == 200
    return code


def test_the_rated_option_is_fixed_by_the_seats_at_the_start(api_client, make_user):
    host = make_user()
    client = api_client(host)
    code = moon_with_computers(client, {"players": 3}, before=lambda room: room["options"]["rated"] is None)
    assert client.get(f"/api/v1/rooms/{code}/").json()["options"]["rated"] is False


def test_a_new_table_with_the_same_settings_leaves_rated_to_its_seats_again(api_client, make_user):
    host = make_user()
    client = api_client(host)
    code = moon_with_computers(client, {"players": 3}, before=lambda room: room["asked_options"]["rated"] is None)
    room = client.get(f"/api/v1/rooms/{code}/").json()
    assert (room["options"]["rated"], room["asked_options"]["rated"]) == (False, None)
    assert {k: v for k, v in room["asked_options"].items() if k != "rated"} == {
        k: v for k, v in room["options"].items() if k != "rated"
    }
    again = client.post("/api/v1/rooms/", {"game": "moon", "options": room["asked_options"]}, format="json")
    assert again.status_code == 201 and again.json()["options"]["rated"] is None


@pytest.mark.parametrize("rated", [True, False])
def test_a_rated_choice_the_host_made_is_asked_again(api_client, make_user, rated):
    client = api_client(make_user())
    options = {"players": 3, "rated": rated}
    code = moon_with_computers(client, options, before=lambda room: room["asked_options"]["rated"] is rated)
    assert client.get(f"/api/v1/rooms/{code}/").json()["asked_options"]["rated"] is rated
