"""The SDKs of sdk/, built once a session by scripts/build_sdk.sh (as `make sdk` builds
them) in a copy of sdk/, and one live server for them: daphne on this worker's test
database, serving the API and the sockets.

The Python SDK's wheel is installed (without its dependencies, which the project's
requirements-dev.txt pins) into a folder of the session and imported from there; the
TypeScript SDK's compiled dist/ is what the Node programs of ts/ import."""

from __future__ import annotations

import fcntl
import hashlib
import importlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.conftest import IN_CI
from tests.servers import daphne_argv, database_url, free_port, server_env, serving

ROOT = Path(__file__).resolve().parents[2]
SDK = ROOT / "sdk"
LOGS = ROOT / "var" / "test-logs"
DOCUMENT = ROOT / "api" / "openapi.yaml"
# What the build writes, or installs: never copied from the working tree.
NOT_SOURCES = shutil.ignore_patterns("node_modules", "generated", "dist", "_version.py", "*.tgz", "*.log", "build")


@dataclass(frozen=True)
class BuiltSdk:
    folder: Path  # the copy of sdk/ it was built in
    site: Path  # the Python wheel, installed
    wheel: Path
    tarball: Path

    @property
    def typescript(self) -> Path:
        return self.folder / "typescript"


def _inputs() -> bytes:
    """What the build depends on: the document and every source file of sdk/."""
    files = [DOCUMENT, ROOT / "scripts" / "build_sdk.sh"]
    for path in sorted(SDK.rglob("*")):
        parts = set(path.relative_to(SDK).parts)
        if path.is_file() and not parts & {"node_modules", "generated", "dist", "build"}:
            if path.suffix not in {".tgz", ".log"} and path.name != "_version.py":
                files.append(path)
    return b"".join(p.read_bytes() for p in files)


def _build(folder: Path) -> None:
    shutil.copytree(SDK, folder, ignore=NOT_SOURCES)
    modules = SDK / "typescript" / "node_modules"
    if not modules.is_dir():
        message = "sdk/typescript/node_modules is missing: `cd sdk/typescript && npm ci` (make sdk runs it)"
        if IN_CI:
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    (folder / "typescript" / "node_modules").symlink_to(modules)
    env = {**os.environ, "SDK_DIR": str(folder), "SDK_DOCUMENT": str(DOCUMENT)}
    out = subprocess.run(
        [str(ROOT / "scripts" / "build_sdk.sh")], env=env, capture_output=True, text=True, timeout=900, cwd=ROOT
    )
    assert out.returncode == 0, f"scripts/build_sdk.sh failed:\n{out.stdout}\n{out.stderr}"
    (wheel,) = (folder / "python" / "dist").glob("*.whl")
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--target"]
    out = subprocess.run([*pip, str(folder / "site"), str(wheel)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.fixture(scope="session")
def built_sdk(tmp_path_factory: pytest.TempPathFactory) -> BuiltSdk:
    """The SDKs built from the document and sdk/ as they are: once for the session and
    these inputs, whichever xdist worker asks first; the others wait and use it."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the session's folder, above each worker's
    folder = root / f"sdk-{hashlib.sha256(_inputs()).hexdigest()[:16]}"
    with open(root / f"{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".built").exists():
            shutil.rmtree(folder, ignore_errors=True)
            _build(folder)
            (folder / ".built").touch()
    (wheel,) = (folder / "python" / "dist").glob("*.whl")
    (tarball,) = (folder / "typescript").glob("gameserver-client-*.tgz")
    return BuiltSdk(folder, folder / "site", wheel, tarball)


@pytest.fixture(scope="session")
def sdk(built_sdk: BuiltSdk) -> ModuleType:
    """The Python SDK, imported from its installed wheel."""
    sys.path.insert(0, str(built_sdk.site))
    try:
        package = importlib.import_module("gameserver_client")
    finally:
        sys.path.remove(str(built_sdk.site))
    assert Path(package.__file__ or "").is_relative_to(built_sdk.site), package.__file__
    return package


@pytest.fixture(scope="module")
def sdk_server(django_db_setup: Any, django_db_blocker: Any) -> Iterator[str]:
    """daphne on this worker's test database: the API and the sockets in one process
    (its channel layer in memory carries its own changes, computer players' included)."""
    port = free_port()
    with django_db_blocker.unblock():
        env = server_env(database_url(), DEBUG="0")
    argv = daphne_argv(port)
    log_path = LOGS / f"daphne-sdk-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"
    with serving("daphne", argv, port=port, env=env, log_path=log_path, start_seconds=120) as url:
        yield url
