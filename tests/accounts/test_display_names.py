"""A display name changed in Settings or over the API: the sign-up's rules, at most once
a week, what others read at the table, and the earlier names kept for moderators."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from accounts.models import NameChange
from games.services import lobby
from tests.api.helpers import errors

pytestmark = pytest.mark.django_db


def test_a_name_changes_once_a_week_and_the_table_reads_the_new_one(api_client, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    room = lobby.room_create(host=ana, game="hearts", options={})
    lobby.room_join(code=room.code, user=bo)
    me = api_client(ana)
    assert me.get("/api/v1/me").json()["display_name_changeable_at"] is None
    changed = me.patch("/api/v1/me", {"display_name": "Queen of Hearts"}, format="json")
    assert changed.status_code == 200 and changed.json()["display_name"] == "Queen of Hearts"
    allowed_at = changed.json()["display_name_changeable_at"]
    assert allowed_at is not None
    seats = api_client(bo).get(f"/api/v1/rooms/{room.code}/").json()["seats"]
    assert "Queen of Hearts" in [s["display_name"] for s in seats]

    again = me.patch("/api/v1/me", {"display_name": "Knave", "auto_play_forced": True}, format="json")
    assert again.status_code == 409 and errors(again) == [("display_name_too_soon", None)]
    # Nothing of a refused change is applied.
    assert me.get("/api/v1/me").json()["auto_play_forced"] is False
    # The same name again is no change.
    assert me.patch("/api/v1/me", {"display_name": "Queen of Hearts"}, format="json").status_code == 200
    with time_machine.travel(timezone.now() + timedelta(days=7, minutes=1)):
        assert me.patch("/api/v1/me", {"display_name": "Knave"}, format="json").status_code == 200
    assert list(NameChange.objects.filter(user=ana).values_list("before", "after")) == [
        ("Queen of Hearts", "Knave"),
        ("Ana", "Queen of Hearts"),
    ]


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("", "blank"),
        ("x" * 41, "max_length"),
        ("Computer 2", "reserved_name"),
        ("evil\u202eman", "bidi_control"),
        ("B\u043e", "username_confusable"),  # a Cyrillic o: reads as the account "bo"
        ("bo", "username_confusable"),
    ],
)
def test_names_sign_up_refuses_are_refused(api_client, make_user, name, code):
    make_user("bo")
    ana = make_user("ana")
    answer = api_client(ana).patch("/api/v1/me", {"display_name": name}, format="json")
    assert answer.status_code == 400 and errors(answer) == [(code, "display_name")]
    assert not NameChange.objects.exists()


@pytest.mark.parametrize("superuser", [False, True], ids=["moderator", "superuser"])
def test_moderators_see_the_names_a_player_had(client, api_client, make_user, moderators_group, superuser):
    ana = make_user("ana")
    api_client(ana).patch("/api/v1/me", {"display_name": "Trouble"}, format="json")
    staff = make_user("mod", is_staff=True, is_superuser=superuser)
    staff.groups.add(moderators_group)
    client.force_login(staff)
    page = client.get(reverse("admin:accounts_user_change", args=[ana.pk])).content.decode()
    assert "Earlier display names" in page and "Ana → Trouble" in page
