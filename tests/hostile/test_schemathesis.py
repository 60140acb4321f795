"""The OpenAPI document against the server, as a third-party frontend would try it:
schemathesis runs every operation with all its checks (responses and statuses as
documented, schema-valid requests accepted and invalid ones refused, authentication
enforced) and its stateful phase (following the document's links from a new room),
against gunicorn on this worker's PostgreSQL test database.

In CI the seed is fixed, so a failure there reproduces; elsewhere each run draws a
fresh one and prints it (SCHEMATHESIS_SEED=<seed> repeats a run).
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import IN_CI

from .conftest import LOGS

CONFIG = Path(__file__).with_name("schemathesis.toml")
CI_SEED = 14
# Bounds for two cores: the run stops after MAX_SECONDS (fuzzing and the stateful phase
# go on until then), about two and a half minutes with the server's start.
MAX_EXAMPLES = 40
MAX_SECONDS = 150

pytestmark = pytest.mark.slow


def _token(url: str, username: str) -> str:
    res = httpx.post(
        f"{url}/api/v1/auth/register", json={"username": username, "password": "a-long-secret-9"}, timeout=30
    )
    assert res.status_code == 201, res.text
    return res.json()["token"]


def _seed() -> int:
    if "SCHEMATHESIS_SEED" in os.environ:
        return int(os.environ["SCHEMATHESIS_SEED"])
    return CI_SEED if IN_CI else secrets.randbelow(2**31)


def test_the_server_answers_as_its_openapi_document_says(
    gunicorn_url: str, transactional_db: Any, tmp_path: Path
) -> None:
    seed = _seed()
    print(f"schemathesis seed: {seed} (SCHEMATHESIS_SEED={seed} repeats this run)")
    env = {
        **os.environ,
        "SCHEMATHESIS_LOGOUT_AUTHORIZATION": f"Token {_token(gunicorn_url, 'leaver')}",
    }
    cmd = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "--config-file",
        str(CONFIG),
        "--no-color",
        "run",
        f"{gunicorn_url}/api/schema/",
        "--url",
        gunicorn_url,
        "--header",
        f"Authorization: Token {_token(gunicorn_url, 'prober')}",
        "--checks",
        "all",
        "--phases",
        "examples,coverage,fuzzing,stateful",
        "--max-examples",
        str(MAX_EXAMPLES),
        "--max-time",
        str(MAX_SECONDS),
        "--seed",
        str(seed),
        "--workers",
        "1",
    ]
    run = subprocess.run(cmd, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=MAX_SECONDS + 120)
    LOGS.mkdir(parents=True, exist_ok=True)
    report = LOGS / f"schemathesis-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.txt"
    report.write_text(run.stdout + run.stderr)
    assert run.returncode == 0, f"seed {seed}, the whole report in {report}:\n{run.stdout[-15000:]}{run.stderr[-3000:]}"
