"""A TypeScript client generated from the served OpenAPI document plays every game to the
end, type-checked strictly.

openapi-typescript (pinned in package.json) writes the types of what `/api/schema/` serves
at test time (schema.ts), beside the program of `ts/`: `player.ts` talks to the server
through openapi-fetch's `createClient<paths>()` alone, and tsc holds it to those types under
`strict`, `noUncheckedIndexedAccess` and `exactOptionalPropertyTypes` before Node runs it
against gunicorn on this worker's test database. It signs up, creates the room, adds
computer players (who move inside the request that makes it their turn), starts, and sends
one of its view's legal actions at random until the match is over, printing every answer
it reads; each is then held to the document, read strictly (tests/strict_answers.py's
`validate_recorded`). Every game is played, with every kind of legal action it offers, the
matches shortened by their options where a target allows (MATCHES): each request goes
through HTTP and PostgreSQL's commits, several times slower than the in-process client of
test_generated_client.py.

Two more checks compile small files against the same types: `open_values.ts`, values v1
may add (an error code, an event type, a phase), and `must_fail.ts`, the negative control:
type errors tsc must find. The types are generated and compiled once a session, whatever
the number of xdist workers. Without Node or `npm ci`'s packages the tests are skipped,
and fail in CI.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import IN_CI
from tests.contract.test_generated_client import PLAYED_THROUGH
from tests.servers import database_url, free_port, server_env, serving
from tests.strict_answers import validate_recorded

ROOT = Path(__file__).resolve().parents[2]
SOURCES = Path(__file__).with_name("ts")
BIN = ROOT / "node_modules" / ".bin"
LOGS = ROOT / "var" / "test-logs"
# tsc's diagnostics without colours: `file.ts(line,column): error TS1234: message`.
DIAGNOSTIC = re.compile(r"(?P<file>[\w.]+)\((?P<line>\d+),\d+\): error (?P<code>TS\d+): ")

# Every game, and each kind of legal action its client must turn into a body: Hearts'
# Sweedo to 78, exceeded, so that the fourth hand, the funky pass (a template sent with
# `cards` and `to`), is always played (no one passes 78 in three hands of at most 26
# points); Moon for three (the widow); Kali Tidi for five to 5 (mostly one hand), with two
# cards removed and partners called (both templates). Each request goes through gunicorn
# and PostgreSQL's commits; test_generated_client.py plays every variant in-process.
MATCHES = [
    pytest.param("hearts", {"preset": "sweedo", "fourth_hand": "funky", "target": 78}, 4, id="hearts-sweedo-funky"),
    pytest.param("moon", {"players": 3}, 3, id="moon-3"),
    pytest.param("kali_tidi", {"players": 5, "team_mode": "cards", "target": 5}, 5, id="kali-cards-5"),
]


def _node_tools() -> None:
    """Node and the pinned npm packages, or a skip (a failure in CI, which has them)."""
    missing = [name for name in ("node",) if shutil.which(name) is None]
    missing += [f"node_modules/.bin/{tool}" for tool in ("openapi-typescript", "tsc") if not (BIN / tool).exists()]
    if missing:
        message = f"missing {', '.join(missing)}: Node 20 and `npm ci` (make test runs it)"
        if IN_CI:
            pytest.fail(message, pytrace=False)
        pytest.skip(message)


def _run(argv: list[str | Path], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True, timeout=900)


def _built_once(
    tmp_path_factory: pytest.TempPathFactory, worker_id: str, name: str, inputs: bytes, build: Callable[[Path], None]
) -> Path:
    """A folder that `build` fills once for this session and these inputs, whichever xdist
    worker asks first; the others wait for it and use it. A failed build is tried again."""
    root = tmp_path_factory.getbasetemp()
    if worker_id != "master":
        root = root.parent  # the session's folder, above each worker's
    folder = root / f"{name}-{hashlib.sha256(inputs).hexdigest()[:16]}"
    with open(root / f"{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".built").exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            build(folder)
            (folder / ".built").touch()
    return folder


def _sources(folder: Path) -> None:
    """The program of ts/ in `folder`, as an ES module that finds the pinned packages."""
    for source in SOURCES.iterdir():
        shutil.copy(source, folder / source.name)
    (folder / "package.json").write_text('{"type": "module"}\n')
    (folder / "node_modules").symlink_to(ROOT / "node_modules")


@pytest.fixture(scope="module")
def server_url(django_db_setup: Any, django_db_blocker: Any) -> Iterator[str]:
    """gunicorn on this worker's test database, as tests/hostile runs it."""
    _node_tools()
    port = free_port()
    with django_db_blocker.unblock():
        env = server_env(database_url(), DEBUG="0")
    argv = [sys.executable, "-m", "gunicorn", "config.wsgi", "-w", "1", "-b", f"127.0.0.1:{port}"]
    log_path = LOGS / f"gunicorn-ts-client-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    with serving("gunicorn", argv, port=port, env=env, log_path=log_path, start_seconds=120) as url:
        yield url


@pytest.fixture(scope="module")
def document(server_url: str) -> bytes:
    """The OpenAPI document as the server serves it, in JSON."""
    res = httpx.get(f"{server_url}/api/schema/", headers={"Accept": "application/vnd.oai.openapi+json"}, timeout=60)
    assert res.status_code == 200, res.text
    return res.content


@pytest.fixture(scope="module")
def typed_sources(tmp_path_factory: pytest.TempPathFactory, worker_id: str, document: bytes) -> Path:
    """ts/ beside the types openapi-typescript generates from the document (schema.ts)."""

    def build(folder: Path) -> None:
        _sources(folder)
        (folder / "openapi.json").write_bytes(document)
        out = _run([BIN / "openapi-typescript", "openapi.json", "--output", "schema.ts"], folder)
        assert out.returncode == 0, out.stdout + out.stderr

    inputs = document + b"".join(p.read_bytes() for p in sorted(SOURCES.iterdir()))
    return _built_once(
        tmp_path_factory, worker_id, "ts-types", inputs + (ROOT / "package-lock.json").read_bytes(), build
    )


@pytest.fixture(scope="module")
def player(tmp_path_factory: pytest.TempPathFactory, worker_id: str, typed_sources: Path) -> Path:
    """player.ts, type-checked and compiled to JavaScript (tsc emits nothing on an error)."""

    def build(folder: Path) -> None:
        shutil.copytree(typed_sources, folder, symlinks=True, dirs_exist_ok=True)
        out = _run([BIN / "tsc", "--pretty", "false", "-p", "tsconfig.json"], folder)
        assert out.returncode == 0, f"player.ts does not type-check:\n{out.stdout}{out.stderr}"

    return _built_once(tmp_path_factory, worker_id, "ts-player", str(typed_sources).encode(), build) / "out/player.js"


@pytest.fixture(scope="module")
def snippet_errors(tmp_path_factory: pytest.TempPathFactory, worker_id: str, typed_sources: Path) -> dict[str, dict]:
    """tsc's errors in open_values.ts and must_fail.ts: by file, the codes on each line."""

    def build(folder: Path) -> None:
        out = _run([BIN / "tsc", "--pretty", "false", "-p", "tsconfig.snippets.json"], typed_sources)
        (folder / "tsc.txt").write_text(out.stdout + out.stderr)

    folder = _built_once(tmp_path_factory, worker_id, "ts-snippets", str(typed_sources).encode(), build)
    text = (folder / "tsc.txt").read_text()
    errors: dict[str, dict[int, list[str]]] = {"open_values.ts": {}, "must_fail.ts": {}}
    for line in text.splitlines():
        if line.startswith(" ") or not line.strip():
            continue  # the rest of the error above
        match = DIAGNOSTIC.match(line)
        assert match and match["file"] in errors, f"tsc said more than errors in these files:\n{text}"
        errors[match["file"]].setdefault(int(match["line"]), []).append(match["code"])
    return errors


def _marked(name: str, mark: str) -> set[int]:
    lines = (SOURCES / name).read_text().splitlines()
    return {n for n, line in enumerate(lines, 1) if line.rstrip().endswith(f"// {mark}")}


@pytest.mark.parametrize(("game", "options", "seats"), MATCHES)
def test_a_typescript_client_plays_a_whole_match(
    player: Path, server_url: str, transactional_db: Any, game: str, options: dict, seats: int
) -> None:
    config = {
        "base": server_url,
        "game": game,
        "options": options,
        "computers": seats - 1,
        "seed": zlib.crc32(f"{game}{options}".encode()),
    }
    out = subprocess.run(["node", str(player), json.dumps(config)], capture_output=True, text=True, timeout=1800)
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert out.returncode == 0, f"{out.stderr}\nlast answers: {answers[-3:]}"
    assert {f"{a['method']} {a['path']}" for a in answers} == PLAYED_THROUGH
    final = answers[-1]["body"]
    assert (final["status"], final["phase"]) == ("finished", "match_over")
    assert final["last_round"]["match_over"] is True and final["last_round"]["winners"]
    if options.get("fourth_hand") == "funky":
        views = [a["body"] for a in answers if a["path"] == "/api/v1/rooms/{code}/actions"]
        assert any(v["phase"] == "pass" and v.get("pass_direction") == "funky" for v in views), "no funky pass"
    _hold_to_the_document(answers)


def test_the_types_take_values_that_v1_may_add(snippet_errors: dict[str, dict]) -> None:
    errors = snippet_errors["open_values.ts"]
    unknown = _marked("open_values.ts", "unknown")
    assert unknown and set(errors) <= unknown, f"errors outside the lines of new values: {errors}"
    refused = {line: (SOURCES / "open_values.ts").read_text().splitlines()[line - 1] for line in errors}
    if refused:
        raise LookupError(f"the generated types refuse values v1 may add: {refused}")


def test_the_programs_never_say_any_and_say_why_they_cast() -> None:
    """No `any` in ts/, and a comment above each cast (`as`) saying why."""
    for source in sorted(SOURCES.glob("*.ts")):
        lines = source.read_text().splitlines()
        for n, line in enumerate(lines):
            code = re.sub(r"//.*", "", re.sub(r"\"[^\"]*\"|'[^']*'|`[^`]*`", '""', line))
            assert not re.search(r"\bany\b", code), f"{source.name}:{n + 1}: {line}"
            if re.search(r"\bas\b", code) and not code.startswith("import"):
                assert lines[n - 1].lstrip().startswith("//"), f"{source.name}:{n + 1}: a cast that does not say why"


def test_the_types_refuse_what_the_document_does_not_allow(snippet_errors: dict[str, dict]) -> None:
    errors = snippet_errors["must_fail.ts"]
    refused = _marked("must_fail.ts", "refused")
    assert refused and set(errors) == refused, f"tsc's errors {errors}, expected on the lines {sorted(refused)}"
    assert all(codes == ["TS2322"] for codes in errors.values()), errors


# Holding the answers to the document.


def _hold_to_the_document(answers: list[dict[str, Any]]) -> None:
    """Each answer the client read against its operation's answer in the document, read
    strictly (tests/strict_answers.py)."""
    validate_recorded(
        [
            {k: a[k] for k in ("method", "url", "status", "content_type", "headers", "body")} | {"path": a["url"]}
            for a in answers
        ]
    )
