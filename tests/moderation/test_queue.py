"""The reports' queue: people report over the API (from a table, a line, a profile);
reports on one person add up into one entry; a moderator (staff in the Moderators
group, not a superuser) claims it in the admin, sees the evidence as text, and closes
it with one action, which the log keeps, the person is told of, and each reporter hears
was handled (never how). Hostile input: markup in notes and lines, reports of oneself,
of a moderator, of a line one cannot read."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

import notifications.tasks  # noqa: F401  (registers the tasks, as the worker does)
from accounts.models import User
from games import selectors
from games.services import lobby
from moderation import services
from moderation.models import Case, ModerationEntry, Report, Warning
from notifications.services import preferences
from talk.models import ChatTimeout, ShadowMute
from tests.api.helpers import errors
from tests.notifications.conftest import BASE_URL, confirm_email

pytestmark = pytest.mark.django_db

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'


@pytest.fixture
def moderator(make_user: Any, moderators_group: Any) -> Any:
    user = make_user("mod", is_staff=True)
    user.groups.add(moderators_group)
    return user


@pytest.fixture
def admin_client(moderator: Any) -> Client:
    client = Client()
    client.force_login(moderator)
    return client


def table(make_user: Any) -> tuple[str, list[Any]]:
    host = make_user()
    room = lobby.room_create(host=host, game="hearts", options={})
    for _ in range(3):
        lobby.room_join(code=room.code, user=make_user())
    lobby.room_start(code=room.code, user=host)
    by_seat = {s.index: s.user for s in selectors.table_of(code=room.code).seats}
    return room.code, [by_seat[i] for i in sorted(by_seat)]


def report(client: Any, **body: Any) -> Any:
    return client.post("/api/v1/reports", body, format="json")


def with_confirmed_address(user: Any, address: str) -> Any:
    preferences.preferences_update(user=user, changes={"email_address": address})
    confirm_email(user)
    return user


def test_reports_add_up_into_one_entry_and_a_moderator_warns(
    make_user, api_client, admin_client, moderator, queued, settings, django_capture_on_commit_callbacks
):
    settings.PUBLIC_BASE_URL = BASE_URL
    code, (ana, bo, cy, _) = table(make_user)
    with_confirmed_address(ana, "ana@example.org")
    with_confirmed_address(bo, "bo@example.org")
    line = api_client(ana).post(f"/api/v1/rooms/{code}/chat", {"text": HOSTILE}, format="json").json()
    made = report(api_client(bo), line=line["id"], reason="offensive_language", note=HOSTILE)
    assert made.status_code == 201, made.content
    assert made.json()["username"] == ana.username and made.json()["room"] == code and not made.json()["handled"]
    assert report(api_client(cy), username=ana.username, reason="stalling", room=code).status_code == 201
    (case,) = Case.objects.all()
    assert case.target_user == ana and case.reports_count == 2 and case.status == "open"

    # The queue lists it; its page shows the evidence as text, never markup.
    listing = admin_client.get(reverse("admin:moderation_case_changelist"))
    assert listing.status_code == 200 and ana.username in listing.content.decode()
    page = admin_client.get(reverse("admin:moderation_case_change", args=[case.pk])).content.decode()
    assert HOSTILE not in page and "&lt;script&gt;" in page
    assert "Claim" in page and "Warn…" in page
    # Claim posts through the page's own form: this part of the page lies inside it.
    assert f'formaction="{reverse("admin:moderation_case_claim", args=[case.pk])}"' in page

    claimed = admin_client.post(reverse("admin:moderation_case_claim", args=[case.pk]))
    assert claimed.status_code == 302 and Case.objects.get().claimed_by == moderator
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        warned = admin_client.post(
            reverse("admin:moderation_case_warn", args=[case.pk]), {"canned": "offensive_language", "text": ""}
        )
    assert warned.status_code == 302
    case.refresh_from_db()
    assert case.status == "closed" and case.outcome == "warned" and case.closed_by == moderator
    assert ModerationEntry.objects.get(kind="warn").target_user == ana
    assert Report.objects.filter(handled_at__isnull=True).count() == 0
    # Ana is told by mail; Bo hears it was handled, not how; Cy has no address.
    to_ana = [m for m in mail.outbox if m.to == ["ana@example.org"]]
    assert [m.subject for m in to_ana] == ["A moderator's warning"] and "friendly" in to_ana[0].body
    to_bo = [m for m in mail.outbox if m.to == ["bo@example.org"]]
    assert [m.subject for m in to_bo] == ["Your report was handled"] and "warn" not in to_bo[0].body.lower()
    assert api_client(bo).get("/api/v1/reports").json()[0]["handled"] is True

    # Ana reads the warning before her next table.
    sanctions = api_client(ana).get("/api/v1/me/sanctions").json()
    (warning,) = sanctions["warnings"]
    assert warning["read_at"] is None and "friendly" in warning["text"]
    other = lobby.room_create(host=make_user(), game="hearts", options={})
    held = api_client(ana).post(f"/api/v1/rooms/{other.code}/join", {}, format="json")
    assert held.status_code == 409 and errors(held) == [("unread_warning", None)]
    assert api_client(ana).post("/api/v1/rooms/", {"game": "hearts"}, format="json").status_code == 409
    read = api_client(ana).post(f"/api/v1/me/warnings/{warning['id']}/read")
    assert read.status_code == 200 and read.json()["read_at"] is not None
    assert api_client(ana).post(f"/api/v1/rooms/{other.code}/join", {}, format="json").status_code == 201
    # A new report opens a new entry.
    report(api_client(bo), username=ana.username, reason="other")
    assert Case.objects.filter(status="open").count() == 1 and Case.objects.count() == 2


def test_a_chat_timeout_from_the_queue_holds_in_its_room_and_ends_on_time(
    make_user, api_client, admin_client, queued, django_capture_on_commit_callbacks
):
    code, (ana, bo, *_) = table(make_user)
    report(api_client(bo), username=ana.username, reason="offensive_language", room=code)
    case = Case.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        done = admin_client.post(
            reverse("admin:moderation_case_timeout", args=[case.pk]),
            {"length": "10m", "room": code.lower(), "reason": "Insults at the table", "canned": "offensive_language"},
        )
    assert done.status_code == 302
    (timeout,) = ChatTimeout.objects.all()
    assert timeout.room is not None and timeout.room.code == code
    assert timedelta(minutes=9) < timeout.until - timezone.now() <= timedelta(minutes=10)
    said = api_client(ana).post(f"/api/v1/rooms/{code}/chat", {"phrase": "sorry"}, format="json")
    assert said.status_code == 403 and errors(said) == [("chat_timed_out", None)]
    assert api_client(ana).get("/api/v1/me/sanctions").json()["chat_timeouts"][0]["room"] == code
    import time_machine

    with time_machine.travel(timeout.until + timedelta(seconds=1)):
        assert api_client(ana).post(f"/api/v1/rooms/{code}/chat", {"phrase": "sorry"}, format="json").status_code == 201
    entry = ModerationEntry.objects.get(kind="chat_timeout")
    assert entry.facts == [{"what": "chat_timeout", "length": "10m", "room": code}]
    assert entry.shown_detail == f"10 minutes in {code}"
    # The canned warning came with it, to be read before the next table.
    (warning,) = api_client(ana).get("/api/v1/me/sanctions").json()["warnings"]
    assert "friendly" in warning["text"] and warning["read_at"] is None


def test_shadow_mute_and_dismiss(make_user, api_client, admin_client):
    _code, (ana, bo, cy, _) = table(make_user)
    report(api_client(bo), username=ana.username, reason="offensive_language")
    case = Case.objects.get()
    admin_client.post(reverse("admin:moderation_case_shadow_mute", args=[case.pk]), {"reason": "troll"})
    assert ShadowMute.objects.filter(user=ana).exists()
    report(api_client(bo), username=cy.username, reason="other", note="just testing")
    other = Case.objects.get(target_user=cy)
    admin_client.post(reverse("admin:moderation_case_dismiss", args=[other.pk]), {"reason": "Nothing wrong"})
    other.refresh_from_db()
    assert other.outcome == "dismissed" and not Warning.objects.filter(user=cy).exists()


def test_a_temporary_ban_ends_on_time_and_a_lifted_one_at_once(make_user, api_client, admin_client, moderator):
    _code, (ana, bo, *_) = table(make_user)
    report(api_client(bo), username=ana.username, reason="cheating")
    case = Case.objects.get()
    admin_client.post(reverse("admin:moderation_case_ban", args=[case.pk]), {"reason": "Collusion", "hours": 2})
    ana.refresh_from_db()
    assert ana.banned_at is not None and ana.ban_ends_at is not None
    assert ModerationEntry.objects.get(kind="temp_ban").shown_detail.startswith("until ")
    signed = api_client().post(
        "/api/v1/auth/token", {"username": ana.username, "password": "correct-horse-9"}, format="json"
    )
    assert signed.status_code == 401 and errors(signed)[0][0] == "banned"
    # Not a moment early; at its end, the sweep (or its own task) lifts it.
    assert services.bans_ended_lift(now=ana.ban_ends_at - timedelta(seconds=1)) == 0
    assert services.bans_ended_lift(now=ana.ban_ends_at) == 1
    ana.refresh_from_db()
    assert ana.banned_at is None and ana.is_active
    assert ModerationEntry.objects.filter(kind="ban_ended", target_user=ana, moderator=None).exists()
    again = api_client().post(
        "/api/v1/auth/token", {"username": ana.username, "password": "correct-horse-9"}, format="json"
    )
    assert again.status_code == 200
    # A moderator lifting a ban early: at once.
    services.user_ban(moderator=moderator, user=bo, reason="x", until=timezone.now() + timedelta(days=3))
    services.user_unban(moderator=moderator, user=bo, reason="appeal")
    assert User.objects.get(pk=bo.pk).is_active and User.objects.get(pk=bo.pk).ban_ends_at is None


def test_hostile_reports(make_user, api_client, moderator, admin_client):
    code, (ana, bo, *_) = table(make_user)
    myself = report(api_client(ana), username=ana.username, reason="other")
    assert myself.status_code == 400 and errors(myself) == [("report_self", "username")]
    nobody = report(api_client(ana), reason="other")
    assert nobody.status_code == 400 and errors(nobody) == [("required", "username")]
    bad = report(api_client(ana), username=bo.username, reason="ugly")
    assert bad.status_code == 400 and errors(bad) == [("invalid_choice", "reason")]
    long_note = report(api_client(ana), username=bo.username, reason="other", note="x" * 501)
    assert long_note.status_code == 400 and errors(long_note) == [("max_length", "note")]
    # A line of a room's spectators during a hand is no player's to report; nor a missing one.
    watcher = make_user("watcher")
    line = api_client(watcher).post(f"/api/v1/rooms/{code}/chat", {"text": "psst"}, format="json").json()
    unseen = report(api_client(ana), line=line["id"], reason="offensive_language")
    assert unseen.status_code == 404 and errors(unseen) == [("not_found", None)]
    assert report(api_client(ana), line=10**9, reason="other").status_code == 404
    assert not Case.objects.exists()
    # Reporting a moderator lands in the queue; they cannot work their own entry.
    assert report(api_client(ana), username=moderator.username, reason="other").status_code == 201
    case = Case.objects.get(target_user=moderator)
    refused = admin_client.post(reverse("admin:moderation_case_claim", args=[case.pk]))
    assert refused.status_code == 302 and Case.objects.get(pk=case.pk).claimed_by is None
    # A player without the permission reaches none of it.
    player = Client()
    player.force_login(bo)
    assert player.get(reverse("admin:moderation_case_changelist")).status_code == 302


def test_two_moderators_do_not_work_one_entry(make_user, api_client, admin_client, moderators_group):
    _code, (ana, bo, *_) = table(make_user)
    report(api_client(bo), username=ana.username, reason="other")
    case = Case.objects.get()
    admin_client.post(reverse("admin:moderation_case_claim", args=[case.pk]))
    second = make_user("mod2", is_staff=True)
    second.groups.add(moderators_group)
    other = Client()
    other.force_login(second)
    page = other.get(reverse("admin:moderation_case_change", args=[case.pk])).content.decode()
    assert "works this entry" in page and "Warn…" not in page
    other.post(reverse("admin:moderation_case_dismiss", args=[case.pk]), {"reason": "mine now"})
    assert Case.objects.get().status == "open"
