"""Changes made by another process that cannot announce them, like a Celery worker on
the embedded defaults (its channel layer is its own memory): whoever listens hears of
them only through the version watch or their own checks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def add_bot_elsewhere(database_url: str, code: str, username: str) -> None:
    """`room_add_bot` for `username` in room `code`, from a process of its own."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "CHANNELS_REDIS_URL": "",
        "REDIS_URL": "",
        "DJANGO_SETTINGS_MODULE": "config.test_settings",
    }
    script = (
        "import django; django.setup()\n"
        "from accounts.models import User\n"
        "from games.services import lobby\n"
        f"lobby.room_add_bot(code={code!r}, user=User.objects.get(username={username!r}))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
