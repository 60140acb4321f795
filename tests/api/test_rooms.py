import pytest

from .helpers import error_code

pytestmark = pytest.mark.django_db


def create(client, **body):
    body.setdefault("game", "hearts")
    return client.post("/api/v1/rooms/", body, format="json")


def test_catalogue_lists_hearts_with_options_and_presets(api_client):
    res = api_client().get("/api/v1/games/")
    assert res.status_code == 200
    hearts = next(g for g in res.json() if g["key"] == "hearts")
    assert hearts["players"] == {"min": 4, "max": 4}
    assert hearts["options"]["target"]["default"] == 100
    assert hearts["options"]["fourth_hand"]["choices"] == ["hold", "funky"]
    assert hearts["presets"]["sweedo"]["jack_of_diamonds"] == -10


def test_create_room_seats_host_at_zero(api_client, make_user):
    host = make_user()
    res = create(api_client(host), name="Friday", options={"preset": "sweedo", "target": 70})
    assert res.status_code == 201
    room = res.json()
    assert room["status"] == "lobby" and room["host"] == host.username
    assert room["options"]["queen_breaks_hearts"] is True and room["options"]["target"] == 70
    assert [s["user"] for s in room["seats"]] == [host.username, None, None, None]
    assert room["invite_url"].endswith(f"/join/{room['code']}")
    assert room["version"] == 0


def test_a_null_preset_is_none_as_the_document_says(api_client, make_user):
    """`preset: null` is no preset, as when it is left out: the request and the answer
    are the document's, read strictly (a strict client's own check sends it so)."""
    from tests.strict_answers import check_django

    body = {"game": "hearts", "options": {"preset": None, "target": 20}}
    res = api_client(make_user()).post("/api/v1/rooms/", body, format="json")
    check_django(res, request_body=body)
    assert res.status_code == 201
    assert "preset" not in res.json()["options"] and res.json()["options"]["target"] == 20


@pytest.mark.parametrize(
    ("body", "attr"),
    [
        ({"game": "chess"}, "game"),
        ({"options": {"target": 5}}, "target"),
        ({"options": {"target": "100"}}, "target"),
        ({"options": {"fourth_hand": "sideways"}}, "fourth_hand"),
        ({"options": {"bogus": 1}}, "bogus"),
        ({"options": {"preset": "nope"}}, "preset"),
    ],
)
def test_create_room_rejects_bad_game_and_options(api_client, make_user, body, attr):
    res = create(api_client(make_user()), **body)
    assert res.status_code == 400
    assert error_code(res) == "invalid"
    assert res.json()["errors"][0]["attr"] == attr


def test_options_must_be_an_object(api_client, make_user):
    res = create(api_client(make_user()), options=[1, 2])
    assert res.status_code == 400 and res.json()["type"] == "validation_error"


def test_join_leave_full_and_started(api_client, make_user):
    host, *others = [make_user() for _ in range(6)]
    code = create(api_client(host)).json()["code"]
    for u in others[:3]:
        assert api_client(u).post(f"/api/v1/rooms/{code}/join", {}, format="json").status_code == 201
    again = api_client(others[0]).post(f"/api/v1/rooms/{code}/join", {}, format="json")
    assert again.status_code == 409 and error_code(again) == "already_seated"
    full = api_client(others[3]).post(f"/api/v1/rooms/{code}/join", {}, format="json")
    assert full.status_code == 409 and error_code(full) == "room_full"
    assert api_client(others[2]).post(f"/api/v1/rooms/{code}/leave").status_code == 204
    assert api_client(others[3]).post(f"/api/v1/rooms/{code}/join", {}, format="json").json()["seat"] == 3
    assert api_client(host).post(f"/api/v1/rooms/{code}/start").status_code == 200
    late = api_client(others[4]).post(f"/api/v1/rooms/{code}/join", {}, format="json")
    assert late.status_code == 409 and error_code(late) == "already_started"
    leave = api_client(others[0]).post(f"/api/v1/rooms/{code}/leave")
    assert leave.status_code == 409 and error_code(leave) == "already_started"


def test_host_leaving_hands_over_the_room(api_client, make_user):
    host, guest = make_user(), make_user()
    code = create(api_client(host)).json()["code"]
    api_client(guest).post(f"/api/v1/rooms/{code}/join", {}, format="json")
    api_client(host).post(f"/api/v1/rooms/{code}/leave")
    room = api_client(guest).get(f"/api/v1/rooms/{code}/").json()
    assert room["host"] == guest.username and room["status"] == "lobby"
    api_client(guest).post(f"/api/v1/rooms/{code}/leave")
    assert api_client(guest).get(f"/api/v1/rooms/{code}/").json()["status"] == "abandoned"


def test_only_host_adds_bots_and_starts(api_client, make_user):
    host, other = make_user(), make_user()
    code = create(api_client(host)).json()["code"]
    api_client(other).post(f"/api/v1/rooms/{code}/join", {}, format="json")
    res = api_client(other).post(f"/api/v1/rooms/{code}/bots", {}, format="json")
    assert res.status_code == 403 and error_code(res) == "not_host"
    res = api_client(other).post(f"/api/v1/rooms/{code}/start")
    assert res.status_code == 403 and error_code(res) == "not_host"
    res = api_client(host).post(f"/api/v1/rooms/{code}/start")
    assert res.status_code == 409 and error_code(res) == "seats_not_filled"
    bot = api_client(host).post(f"/api/v1/rooms/{code}/bots", {}, format="json")
    assert bot.status_code == 201 and bot.json()["is_bot"] is True and bot.json()["seat"] == 2


def test_listing_public_and_mine(api_client, make_user):
    alice, bob = make_user(), make_user()
    public = create(api_client(alice)).json()["code"]
    private = create(api_client(alice), public=False).json()["code"]
    listed = api_client(bob).get("/api/v1/rooms/").json()
    codes = [r["code"] for r in listed["results"]]
    assert public in codes and private not in codes
    mine = api_client(alice).get("/api/v1/rooms/?mine=1").json()["results"]
    assert {r["code"] for r in mine} == {public, private}
    assert api_client(bob).get("/api/v1/rooms/?mine=1").json()["results"] == []


def test_unknown_room_is_404(api_client, make_user):
    client = api_client(make_user())
    for path in ("", "state", "events", "rounds", "replay", "qr.svg"):
        res = client.get(f"/api/v1/rooms/NOPE42/{path}")
        assert res.status_code == 404, path
    assert error_code(client.post("/api/v1/rooms/NOPE42/join", {}, format="json")) == "not_found"


def test_qr_code_is_svg_of_invite(api_client, make_user):
    client = api_client(make_user())
    code = create(client).json()["code"]
    res = client.get(f"/api/v1/rooms/{code}/qr.svg")
    assert res.status_code == 200 and res["Content-Type"] == "image/svg+xml"
    assert res.content.startswith(b"<?xml") and b"<svg" in res.content
