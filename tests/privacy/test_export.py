"""Download my data: asked for over the API, made by a task, mailed as a link that works
once; the archive holds what the person may see and validates against the schema the
repository ships."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone
from jsonschema import Draft202012Validator
from rest_framework.test import APIClient

import privacy.tasks  # noqa: F401  (registers the tasks, as the worker does)
from games import selectors
from games.models import Room
from privacy import exports
from privacy.models import DataExport
from tests.api.helpers import errors
from tests.notifications.conftest import BASE_URL, confirm_email
from tests.ratings.play import play_out, room_ready

pytestmark = pytest.mark.django_db

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "privacy" / "export.schema.json").read_text())
LINK = re.compile(re.escape(f"{BASE_URL}/api/v1/exports/") + r"(\S+)")


@pytest.fixture
def ana(make_user: Any, api_client: Any, settings: Any) -> Any:
    settings.PUBLIC_BASE_URL = BASE_URL
    user = make_user("ana")
    api_client(user).patch("/api/v1/me/notifications", {"email_address": "ana@example.org"}, format="json")
    confirm_email(user)
    mail.outbox.clear()
    return user


def test_the_archive_holds_what_the_person_may_see_and_the_link_works_once(
    ana, make_user, api_client, queued, django_capture_on_commit_callbacks
):
    bo, cy, di = make_user("bo"), make_user("cy"), make_user("di")
    finished = play_out(room_ready("hearts", {"target": 20}, [ana, bo, cy, di]), [ana, bo, cy, di], seed=3)
    running = room_ready("hearts", {}, [bo, ana, cy, di])
    client = api_client(ana)
    secret = client.post("/api/v1/me/tokens", {"name": "bot", "scopes": ["read"]}, format="json").json()["token"]
    client.patch("/api/v1/me", {"display_name": "Queen"}, format="json")
    client.post(f"/api/v1/rooms/{running.code}/chat", {"text": "my own line"}, format="json")
    api_client(bo).post(f"/api/v1/rooms/{running.code}/chat", {"text": "bo's line"}, format="json")
    client.post("/api/v1/me/blocks", {"username": "di"}, format="json")

    with django_capture_on_commit_callbacks(execute=True):
        asked = client.post("/api/v1/me/export")
    assert asked.status_code == 202
    (message,) = mail.outbox
    assert message.to == ["ana@example.org"]
    token = LINK.search(message.body).group(1)
    got = APIClient().get(f"/api/v1/exports/{token}")
    assert got.status_code == 200 and got["Content-Disposition"].startswith("attachment;")
    archive = got.json()
    Draft202012Validator(SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER).validate(archive)

    assert archive["account"]["username"] == "ana" and archive["account"]["display_name"] == "Queen"
    assert [n["after"] for n in archive["account"]["earlier_display_names"]] == ["Queen"]
    assert archive["notifications"]["email_address"] == "ana@example.org"
    assert [t["name"] for t in archive["access"]["personal_tokens"]] == ["bot"]
    text = json.dumps(archive)
    assert secret not in text and token not in text
    by_code = {m["code"]: m for m in archive["matches"]}
    assert set(by_code) == {finished.code, running.code}
    assert by_code[finished.code]["placing"] is not None and "replay" in by_code[finished.code]
    assert by_code[finished.code]["actions"]
    # The running match: exactly the events this seat may read, as GET events gives them.
    seen = api_client(ana).get(f"/api/v1/rooms/{running.code}/events").json()
    assert by_code[running.code]["events"] == selectors.events_for(room=Room.objects.get(pk=running.pk), seat=1)
    assert [e["seq"] for e in by_code[running.code]["events"]][: len(seen)] == [e["seq"] for e in seen]
    assert "replay" not in by_code[running.code]
    # What the person said, not what others said; whom they block.
    assert [(line["room"], line["text"]) for line in archive["talk"]["lines"]] == [(running.code, "my own line")]
    assert [b["username"] for b in archive["talk"]["blocks"]] == ["di"]

    # Once only.
    again = APIClient().get(f"/api/v1/exports/{token}")
    assert again.status_code == 404 and errors(again) == [("export_gone", None)]
    assert DataExport.objects.get(user=ana).archive is None


def test_an_archive_needs_a_confirmed_address_and_waits_between_requests(ana, make_user, api_client, queued):
    bo = make_user("bo")
    refused = api_client(bo).post("/api/v1/me/export")
    assert refused.status_code == 409 and errors(refused) == [("no_confirmed_address", None)]
    client = api_client(ana)
    assert client.post("/api/v1/me/export").status_code == 202
    soon = client.post("/api/v1/me/export")
    assert soon.status_code == 429 and errors(soon) == [("export_requested_recently", None)]
    assert int(soon["Retry-After"]) > 0
    for bad in ("x", "0" * 43, "a" * 101):
        assert APIClient().get(f"/api/v1/exports/{bad}").status_code == 404


def test_an_old_link_no_longer_works(ana, settings, queued):
    export = exports.export_request(user=ana, now=timezone.now())
    exports.export_build(export_id=export.pk, now=timezone.now() - timezone.timedelta(days=8))
    token = LINK.search(mail.outbox[-1].body).group(1)
    assert APIClient().get(f"/api/v1/exports/{token}").status_code == 404
    assert DataExport.objects.get(pk=export.pk).archive is None
