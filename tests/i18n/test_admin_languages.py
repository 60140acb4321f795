"""The admin in the reader's language (their account's: accounts/middleware.py) beyond
the moderation app's own pages: rooms, players and groups name their models, columns,
fields, filters and every permission in it, not in English.

The labels are read from the Hindi catalogue (or, for a model's own names, through the
model under `translation.override`, checked to differ from the English), so that a label
the catalogue lacks fails here. And every field of every model the admin shows, and every
model of the project (the lists of permissions name them all), is given a name marked for
translation: a new one without fails."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polib
import pytest
from django.apps import apps
from django.conf import settings
from django.contrib import admin
from django.db import models
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.functional import Promise
from django.utils.html import escape
from django.utils.text import capfirst

from accounts.models import SignIn
from games.models import Room, Seat
from games.services import lobby
from moderation.admin.rooms import RoomAdmin

pytestmark = pytest.mark.django_db

HINDI = polib.pofile(str(settings.BASE_DIR / "locale" / "hi" / "LC_MESSAGES" / "django.po"))


def hindi(msgid: str, context: str | None = None) -> str:
    """The Hindi catalogue's translation of `msgid`, which it must have."""
    entry = HINDI.find(msgid, msgctxt=context) if context else HINDI.find(msgid)
    assert entry is not None and entry.msgstr and "fuzzy" not in entry.flags, msgid
    return str(entry.msgstr)


def said(text: Any, language: str) -> str:
    """A model's or a field's name as the admin writes it in `language`."""
    with translation.override(language):
        return escape(capfirst(str(text)))


def field_names(model: type[models.Model], names: list[str]) -> list[tuple[str, str]]:
    """(Hindi, English) of the named fields' labels, which must differ."""
    pairs = [
        (said(model._meta.get_field(n).verbose_name, "hi"), said(model._meta.get_field(n).verbose_name, "en"))
        for n in names
    ]
    for hi, en in pairs:
        assert hi != en, f"{en} has no Hindi"
    return pairs


def reading_hindi(user: Any) -> Client:
    user.language = "hi"
    user.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def room(make_user: Any) -> Room:
    host = make_user()
    room = lobby.room_create(host=host, game="hearts", options={})
    for _ in range(3):
        lobby.room_add_bot(code=room.code, user=host)
    lobby.room_start(code=room.code, user=host)
    return room


def test_a_moderator_reads_the_rooms_list_in_hindi(make_user, moderators_group, room):
    moderator = make_user("mod", is_staff=True)
    moderator.groups.add(moderators_group)
    page = reading_hindi(moderator).get(reverse("admin:games_room_changelist")).content.decode()
    columns = [n for n in RoomAdmin.list_display if n != "__str__"]
    for hi, en in field_names(Room, columns):
        assert f">{hi}</a>" in page and f">{en}</a>" not in page
    # The model's name, and the status's words in the column and its filter.
    assert said(Room._meta.verbose_name, "hi") in page and ">Rooms<" not in page
    playing = hindi("playing", "room status")
    assert page.count(f">{playing}<") >= 2 and ">Playing<" not in page


def test_a_moderator_reads_a_room_s_page_in_hindi(make_user, moderators_group, room):
    moderator = make_user("mod", is_staff=True)
    moderator.groups.add(moderators_group)
    page = reading_hindi(moderator).get(reverse("admin:games_room_change", args=[room.id])).content.decode()
    for hi, en in field_names(Room, ["code", "game", "public", "status", "status_reason", "host", "created_at"]):
        assert f"<label>{hi}" in page and f"<label>{en}" not in page
    # The seats' inline: its heading and its columns.
    assert said(Seat._meta.verbose_name_plural, "hi") in page and ">Seats<" not in page
    for hi, en in field_names(Seat, ["user", "is_bot", "team", "joined_at"]):
        assert f">{hi}" in page and f">{en}<" not in page
    assert capfirst(hindi("hands")) in page


def test_a_superuser_reads_a_player_s_page_and_its_permissions_in_hindi(make_user):
    player = make_user("ana")
    boss = make_user("boss", is_staff=True, is_superuser=True)
    page = reading_hindi(boss).get(reverse("admin:accounts_user_change", args=[player.pk])).content.decode()
    for hi, en in field_names(player.__class__, ["display_name", "is_guest", "banned_at", "ban_reason"]):
        assert f">{hi}" in page and f">{en}" not in page
    # Each permission is an option of the user's permissions, named in Hindi: Django's
    # default ones from the model's name, the project's own from their stored name.
    change_room = " | ".join([hindi("Games"), hindi("room"), hindi("Can change %(model)s") % {"model": hindi("room")}])
    assert f">{escape(change_room)}</option>" in page
    ban = " | ".join([hindi("Moderation"), hindi("moderation log entry"), hindi("Can ban and unban users")])
    assert f">{escape(ban)}</option>" in page
    assert "Can change room" not in page and "Can ban and unban users" not in page


def test_a_superuser_reads_a_group_s_permissions_in_hindi(make_user, moderators_group):
    boss = make_user("boss", is_staff=True, is_superuser=True)
    url = reverse("admin:auth_group_change", args=[moderators_group.pk])
    page = reading_hindi(boss).get(url).content.decode()
    rooms = " | ".join([hindi("Games"), hindi("room"), hindi("Can view %(model)s") % {"model": hindi("room")}])
    queue = hindi("Can work the reports' queue: dismiss, warn, time out, shadow-mute")
    assert f">{escape(rooms)}</option>" in page and escape(queue) in page
    assert "Can view room" not in page and "Can work the reports" not in page


def test_a_permission_is_named_in_each_reader_s_language(make_user):
    boss = make_user("boss", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(boss)
    page = client.get(reverse("admin:accounts_user_change", args=[boss.pk])).content.decode()
    # English readers read Django's own words, and the model's name as the code gives it.
    assert ">Games | room | Can change room</option>" in page
    assert ">Moderation | moderation log entry | Can change moderation log entry</option>" in page


def _project_app(model: type[models.Model]) -> bool:
    """A model of the project's own apps, the folders at the repository's root."""
    return Path(model._meta.app_config.path).parent == Path(settings.BASE_DIR)


def unmarked_fields(model: type[models.Model]) -> list[str]:
    """The fields of `model` whose label is not marked for translation. A primary key
    the database numbers is never shown, and keeps Django's "ID"."""
    return [
        field.name
        for field in [*model._meta.fields, *model._meta.many_to_many]
        if not isinstance(field.verbose_name, Promise)
        and not (field.primary_key and isinstance(field, models.AutoField))
    ]


def unmarked_names(model: type[models.Model]) -> list[str]:
    """The model's names not declared, marked for translation, in its Meta: a plural
    Django makes by adding an "s" would say "कमराs"."""
    return [
        name
        for name in ("verbose_name", "verbose_name_plural")
        if not isinstance(model._meta.original_attrs.get(name), Promise)
    ]


def _shown_models() -> set[type[models.Model]]:
    shown = set()
    for model, model_admin in admin.site._registry.items():
        shown.add(model)
        shown |= {inline.model for inline in model_admin.inlines}
    return {m for m in shown if not m._meta.app_config.name.startswith("django.")}


def test_the_checks_catch_a_name_left_unmarked():
    # Sign-ins are not in the admin, and their fields keep the names Django gives them.
    assert "device" in unmarked_fields(SignIn)
    from oauth2_provider.models import get_application_model

    # The OAuth toolkit names its models by their class, never translated.
    assert unmarked_names(get_application_model()) == ["verbose_name", "verbose_name_plural"]
    assert unmarked_fields(Room) == [] and unmarked_names(Room) == []


def test_every_field_the_admin_shows_is_named_for_translation():
    shown = _shown_models()
    assert Room in shown and Seat in shown and apps.get_model("accounts", "User") in shown
    assert {m._meta.label: unmarked_fields(m) for m in shown if unmarked_fields(m)} == {}


def test_every_model_of_the_project_is_named_for_translation():
    # All of them: the lists of permissions on a user's and a group's page name each.
    project = [m for m in apps.get_models() if _project_app(m)]
    assert len(project) > 20
    assert {m._meta.label: unmarked_names(m) for m in project if unmarked_names(m)} == {}
