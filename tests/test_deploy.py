"""Production settings: `check --deploy` is clean with DEBUG off and a real secret."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_check_deploy_passes_with_production_settings():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "SECRET_KEY": "a-production-secret-" + "k" * 40 + "-with-enough-entropy-1234567890",
        "ALLOWED_HOSTS": "games.example.org",
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/postgres",
    }
    for name in ("SECURE_SSL_REDIRECT", "SECURE_COOKIES", "SECURE_HSTS_SECONDS", "OAUTH_REDIRECT_SCHEMES"):
        env.pop(name, None)
    res = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stdout + res.stderr


def test_settings_refuse_to_start_without_secret_when_not_debug():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "0", "SECRET_KEY": ""}
    res = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert res.returncode != 0
    assert "SECRET_KEY must be set" in res.stderr
