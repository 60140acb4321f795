"""Moderation through the admin's own views: bans, closing rooms, seats to computer
players, the replay check, the read-only log, and who may do any of it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from rest_framework.authtoken.models import Token

from games import selectors, services
from games.models import Round
from moderation.models import ModerationEntry

pytestmark = pytest.mark.django_db

MODERATOR_PERMS = [
    "moderation.ban_user",
    "moderation.moderate_room",
    "moderation.view_moderationentry",
    "games.view_room",
    "games.view_round",
    "games.view_action",
    "accounts.view_user",
    "accounts.change_user",
]


def grant(user, perms):
    for perm in perms:
        app, codename = perm.split(".")
        user.user_permissions.add(Permission.objects.get(content_type__app_label=app, codename=codename))


@pytest.fixture
def moderator(make_user):
    user = make_user("mod", is_staff=True)
    grant(user, MODERATOR_PERMS)
    return user


@pytest.fixture
def table(make_user):
    users = [make_user() for _ in range(4)]
    room = services.room_create(host=users[0], game="hearts", options={})
    for user in users[1:]:
        services.room_join(code=room.code, user=user)
    services.room_start(code=room.code, user=users[0])
    room.refresh_from_db()
    return room, users


def test_ban_takes_effect_on_the_api_at_once_and_unban_restores(client, api_client, moderator, make_user):
    player = make_user("cheater")
    api = api_client(player)
    assert api.get("/api/v1/me").status_code == 200
    client.force_login(moderator)
    page = client.get(reverse("admin:accounts_user_ban", args=[player.pk]))
    assert page.status_code == 200 and b"reason" in page.content
    res = client.post(reverse("admin:accounts_user_ban", args=[player.pk]), {"reason": "abusive chat"})
    assert res.status_code == 302
    player.refresh_from_db()
    assert not player.is_active and player.ban_reason == "abusive chat"
    assert not Token.objects.filter(user=player).exists()
    assert api.get("/api/v1/me").status_code == 401
    login = api_client().post(
        "/api/v1/auth/token", {"username": "cheater", "password": "correct-horse-9"}, format="json"
    )
    assert login.status_code == 401
    entry = ModerationEntry.objects.get(kind="ban")
    assert (entry.moderator, entry.target_user, entry.reason) == (moderator, player, "abusive chat")
    client.post(reverse("admin:accounts_user_unban", args=[player.pk]), {"reason": "appeal accepted"})
    login = api_client().post(
        "/api/v1/auth/token", {"username": "cheater", "password": "correct-horse-9"}, format="json"
    )
    assert login.status_code == 200
    assert list(ModerationEntry.objects.values_list("kind", flat=True)) == ["unban", "ban"]


def test_a_reason_is_required(client, moderator, make_user):
    player = make_user()
    client.force_login(moderator)
    res = client.post(reverse("admin:accounts_user_ban", args=[player.pk]), {"reason": ""})
    assert res.status_code == 200  # the form again, with its error
    player.refresh_from_db()
    assert player.is_active and not ModerationEntry.objects.exists()


def test_close_room_tells_everyone_why(client, api_client, moderator, table):
    room, users = table
    client.force_login(moderator)
    res = client.post(reverse("admin:games_room_close", args=[room.id]), {"reason": "collusion"})
    assert res.status_code == 302
    view = api_client(users[1]).get(f"/api/v1/rooms/{room.code}/state").json()
    assert view["status"] == "closed" and "collusion" in view["status_reason"]
    assert view["you"]["legal_actions"] == []
    events = api_client(users[2]).get(f"/api/v1/rooms/{room.code}/events").json()
    assert events[-1]["type"] == "closed" and "collusion" in events[-1]["reason"]
    res = api_client(users[0]).post(
        f"/api/v1/rooms/{room.code}/actions",
        {"version": view["version"], "action": {"type": "next_round"}},
        format="json",
    )
    assert res.status_code == 409 and res.json()["errors"][0]["code"] == "room_closed"
    assert ModerationEntry.objects.get(kind="close_room").room_id == room.id


def test_seat_given_to_a_computer_player_plays_on(client, api_client, moderator, table):
    room, users = table
    client.force_login(moderator)
    res = client.post(reverse("admin:games_room_seat_to_bot", args=[room.id, 2]), {"reason": "left the table"})
    assert res.status_code == 302
    seat = room.seats.get(index=2)
    assert seat.is_bot and seat.user is None
    round_ = selectors.current_round(room=room)
    assert round_.state["passes"][2] is not None  # the computer passed at once
    view = api_client(users[2]).get(f"/api/v1/rooms/{room.code}/state").json()
    assert "you" not in view
    res = api_client(users[2]).post(
        f"/api/v1/rooms/{room.code}/actions",
        {"version": view["version"], "action": {"type": "next_round"}},
        format="json",
    )
    assert res.status_code == 403 and res.json()["errors"][0]["code"] == "not_seated"
    entry = ModerationEntry.objects.get(kind="seat_to_bot")
    assert entry.target_user == users[2] and entry.detail == "seat 2"


def test_replay_check_reports_consistency_and_tampering(client, moderator, table):
    room, users = table
    for user in users:
        view = selectors.room_view(room=room, user=user)
        room.refresh_from_db()
        template = view["you"]["legal_actions"][0]
        services.action_submit(
            code=room.code,
            user=user,
            version=room.version,
            action={"type": "pass_cards", "cards": template["choices"][:3]},
        )
    round_ = Round.objects.get(room=room)
    client.force_login(moderator)
    page = client.get(reverse("admin:games_round_replay", args=[round_.id])).content.decode()
    assert "Consistent:" in page and "4 actions" in page
    hands = round_.state["hands"]
    hands[0], hands[1] = hands[1], hands[0]
    Round.objects.filter(id=round_.id).update(state=round_.state)
    page = client.get(reverse("admin:games_round_replay", args=[round_.id])).content.decode()
    assert "Inconsistent:" in page and "hands" in page
    assert ModerationEntry.objects.filter(kind="replay_check").count() == 2


def test_moderators_see_hidden_cards_on_the_room_page(client, moderator, table):
    room, _ = table
    client.force_login(moderator)
    round_ = Round.objects.get(room=room)
    page = client.get(reverse("admin:games_room_change", args=[room.id])).content.decode()
    assert "Give seat 1 to a computer" in page and "Close the room" in page
    page = client.get(reverse("admin:games_round_change", args=[round_.id])).content.decode()
    assert all(card in page for card in round_.state["hands"][3])


def test_the_moderation_log_is_read_only(client, moderator, make_user):
    superuser = make_user("root", is_staff=True, is_superuser=True)
    ModerationEntry.objects.create(moderator=moderator, kind="ban", reason="x", target_user=moderator)
    entry = ModerationEntry.objects.get()
    for user in (moderator, superuser):
        client.force_login(user)
        assert client.get(reverse("admin:moderation_moderationentry_changelist")).status_code == 200
        assert client.get(reverse("admin:moderation_moderationentry_add")).status_code == 403
        assert client.post(reverse("admin:moderation_moderationentry_delete", args=[entry.id])).status_code == 403
        page = client.get(reverse("admin:moderation_moderationentry_change", args=[entry.id])).content.decode()
        assert 'name="_save"' not in page and "x" in page


def test_staff_without_the_permissions_are_refused(client, make_user, table):
    room, users = table
    staff = make_user("helper", is_staff=True)
    grant(staff, ["games.view_room", "accounts.view_user"])
    client.force_login(staff)
    for url in (
        reverse("admin:accounts_user_ban", args=[users[1].pk]),
        reverse("admin:games_room_close", args=[room.id]),
        reverse("admin:games_room_seat_to_bot", args=[room.id, 1]),
        reverse("admin:games_round_replay", args=[Round.objects.get(room=room).id]),
    ):
        assert client.get(url).status_code == 403, url
        assert client.post(url, {"reason": "x"}).status_code == 403, url
    assert client.get(reverse("admin:moderation_moderationentry_changelist")).status_code == 403
    room.refresh_from_db()
    assert room.status == "playing"


def test_normal_users_are_refused_everywhere_in_the_admin(client, table):
    room, users = table
    client.force_login(users[0])
    for url in (
        reverse("admin:index"),
        reverse("admin:games_room_changelist"),
        reverse("admin:games_room_change", args=[room.id]),
        reverse("admin:games_room_close", args=[room.id]),
        reverse("admin:accounts_user_ban", args=[users[1].pk]),
        reverse("admin:moderation_moderationentry_changelist"),
    ):
        res = client.get(url)
        assert res.status_code == 302 and "/admin/login/" in res["Location"], url
