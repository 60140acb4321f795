"""Django on the embedded defaults (SQLite, no Redis) for the scripts that tests run in
processes of their own (sqlite_play.py, sqlite_writers.py): the test session's own
settings are PostgreSQL's."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def django_on_sqlite(db_path: str, **env: str) -> None:
    """Set Django up on the SQLite file `db_path`, with `env` over the embedded defaults."""
    sys.path.insert(0, str(ROOT))
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"sqlite:///{db_path}",
        GAME_TASKS_ENABLED="0",
        DEBUG="1",
        ALLOWED_HOSTS="testserver",
        REDIS_URL="",
        CHANNELS_REDIS_URL="",
        **env,
    )
    import django

    django.setup()
