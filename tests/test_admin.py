"""Rooms, seats, rounds and actions can be browsed by staff in the Django admin."""

import pytest
from django.urls import reverse

from games.models import Action, Round
from games.services import lobby

pytestmark = pytest.mark.django_db


def test_staff_browse_rooms_rounds_and_actions(client, make_user):
    host = make_user()
    room = lobby.room_create(host=host, game="hearts", options={})
    for _ in range(3):
        lobby.room_add_bot(code=room.code, user=host)
    lobby.room_start(code=room.code, user=host)
    admin = make_user("moderator", is_staff=True, is_superuser=True)
    client.force_login(admin)
    round_ = Round.objects.get(room=room)
    action = Action.objects.filter(round=round_).first()
    pages = [
        reverse("admin:games_room_changelist"),
        reverse("admin:games_room_change", args=[room.id]),
        reverse("admin:games_round_changelist"),
        reverse("admin:games_round_change", args=[round_.id]),
        reverse("admin:games_action_changelist"),
        reverse("admin:games_action_change", args=[action.id]),
        reverse("admin:games_event_changelist"),
        reverse("admin:accounts_user_changelist") + "?q=moder",
    ]
    for url in pages:
        res = client.get(url)
        assert res.status_code == 200, url
    listing = client.get(reverse("admin:games_room_changelist") + f"?q={room.code}").content.decode()
    assert room.code in listing


def test_non_staff_are_sent_to_login(client, make_user):
    client.force_login(make_user())
    res = client.get(reverse("admin:games_room_changelist"))
    assert res.status_code == 302 and "/admin/login/" in res["Location"]


def test_rooms_filter_live_and_play_by_move(client, make_user):
    host = make_user()
    live = lobby.room_create(host=host, game="hearts", options={"turn_seconds": 30})
    daily = lobby.room_create(host=host, game="hearts", options={"turn_seconds": 86400, "abandon_seconds": 604800})
    client.force_login(make_user("boss", is_staff=True, is_superuser=True))
    url = reverse("admin:games_room_changelist")
    live_page = client.get(url + "?pace=live").content.decode()
    daily_page = client.get(url + "?pace=by_move").content.decode()
    assert live.code in live_page and daily.code not in live_page
    assert daily.code in daily_page and live.code not in daily_page


def test_operators_see_the_outages_the_heartbeat_recorded_and_cannot_edit_them(client, make_user):
    from datetime import UTC, datetime, timedelta

    from uptime.models import Outage

    began = datetime(2031, 5, 1, 3, 0, 0, tzinfo=UTC)
    outage = Outage.objects.create(started_at=began, ended_at=began + timedelta(seconds=14, milliseconds=600))
    client.force_login(make_user("operator", is_staff=True, is_superuser=True))
    listing = client.get("/admin/uptime/outage/")
    assert listing.status_code == 200
    assert "14.6" in listing.content.decode()
    assert client.post(f"/admin/uptime/outage/{outage.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Outage.objects.filter(pk=outage.pk).exists()


def test_a_players_page_lists_their_last_actions_one_per_line(client, make_user):
    from games import selectors
    from games.services import play

    host = make_user("hana")
    room = lobby.room_create(host=host, game="hearts", options={})
    for _ in range(3):
        lobby.room_add_bot(code=room.code, user=host)
    lobby.room_start(code=room.code, user=host)
    view = selectors.view_by_code(code=room.code, user=host)
    cards = view["you"]["hand"][:3]
    passed = {"type": "pass_cards", "cards": cards}
    play.action_submit(code=room.code, user=host, version=view["version"], action=passed)
    admin = make_user("moderator", is_staff=True, is_superuser=True)
    client.force_login(admin)
    page = client.get(reverse("admin:accounts_user_change", args=[host.pk])).content.decode()
    assert f"{room.code} hand 1" in page
    # Lines of their own, not a literal tag between them.
    assert "&lt;br&gt;" not in page
