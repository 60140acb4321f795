"""The one-process start runs on SQLite: the hot paths written for PostgreSQL must fall
back to portable queries there."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from games import rules

SCRIPT = Path(__file__).resolve().parent / "sqlite_play.py"


def test_every_game_plays_on_sqlite(tmp_path):
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path / "db.sqlite3")], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    played = [line.split(":")[0] for line in done.stdout.splitlines() if " moves, " in line]
    assert played == [g.key for g in rules.all_games()]
