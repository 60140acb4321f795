"""The one-process start runs on SQLite: the hot paths written for PostgreSQL must fall
back to portable queries there."""

from __future__ import annotations

import json
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


WRITERS = Path(__file__).resolve().parent / "sqlite_writers.py"


def test_web_and_worker_processes_write_one_sqlite_file_at_once(tmp_path):
    """Two web processes play people's moves while two workers move the computer
    players, in the same rooms, for several seconds: nobody meets "database is locked"."""
    db = str(tmp_path / "db.sqlite3")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(WRITERS), *args], capture_output=True, text=True, timeout=120)

    made = run("setup", db, "6")
    assert made.returncode == 0, made.stderr[-3000:]
    procs = [
        subprocess.Popen(
            [sys.executable, str(WRITERS), role, db, "8"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for role in ("web", "web", "worker", "worker")
    ]
    outs = [proc.communicate(made.stdout, timeout=120) for proc in procs]
    summaries = []
    for proc, (out, err) in zip(procs, outs, strict=True):
        assert proc.returncode == 0, err[-3000:]
        summaries.append(json.loads(out.strip().splitlines()[-1]))
    errors = [e for s in summaries for e in s["errors"]]
    assert not errors, errors[:3]
    web_moves = sum(s["moves"] for s in summaries[:2])
    bot_rounds = sum(s["moves"] for s in summaries[2:])
    # Both kinds of writer got on: people moved, and the workers moved the computers.
    assert web_moves > 20 and bot_rounds > 20, summaries
