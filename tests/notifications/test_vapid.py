"""The server's VAPID keys: the command that makes a pair, and the checks that hold the
environment to one."""

from __future__ import annotations

import base64
import io

from django.core.checks import run_checks
from django.core.management import call_command

from notifications import checks, vapid


def _pair() -> dict[str, str]:
    out = io.StringIO()
    call_command("vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().splitlines())
    assert set(lines) == {"VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY"}
    return lines


def test_the_command_prints_a_fresh_pair_the_checks_accept(settings):
    pair = _pair()
    assert pair != _pair()
    public = base64.urlsafe_b64decode(pair["VAPID_PUBLIC_KEY"] + "=")
    assert len(public) == 65 and public[0] == 4 and "=" not in pair["VAPID_PUBLIC_KEY"]
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = pair["VAPID_PUBLIC_KEY"], pair["VAPID_PRIVATE_KEY"]
    assert checks.vapid_keys(None) == []
    assert vapid.public_key() == pair["VAPID_PUBLIC_KEY"]


def test_the_checks_refuse_half_a_pair_a_bad_key_and_two_halves_of_different_pairs(settings):
    one, other = _pair(), _pair()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = one["VAPID_PUBLIC_KEY"], ""
    assert [m.id for m in checks.vapid_keys(None)] == ["notifications.E001"]
    settings.VAPID_PRIVATE_KEY = "not-a-key"
    assert [m.id for m in checks.vapid_keys(None)] == ["notifications.E002"]
    settings.VAPID_PRIVATE_KEY = other["VAPID_PRIVATE_KEY"]
    assert [m.id for m in checks.vapid_keys(None)] == ["notifications.E003"]
    assert "notifications.E003" in {m.id for m in run_checks()}
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    assert checks.vapid_keys(None) == [] and vapid.public_key() is None


def test_the_tests_push_setting_is_a_deploy_warning(settings):
    settings.PUSH_ALLOW_LOOPBACK = True
    assert [m.id for m in checks.loopback_push(None)] == ["notifications.W001"]
    assert "notifications.W001" in {m.id for m in run_checks(include_deployment_checks=True)}
    settings.PUSH_ALLOW_LOOPBACK = False
    assert checks.loopback_push(None) == []


def test_the_subject_push_services_read(settings):
    settings.VAPID_SUBJECT = ""
    settings.PUBLIC_BASE_URL = "https://games.example.org"
    assert vapid.subject() == "https://games.example.org"
    settings.PUBLIC_BASE_URL = "https://example.org/games"
    settings.DEFAULT_FROM_EMAIL = "games@example.org"
    assert vapid.subject() == "mailto:games@example.org"
    settings.VAPID_SUBJECT = "mailto:ops@example.org"
    assert vapid.subject() == "mailto:ops@example.org"
