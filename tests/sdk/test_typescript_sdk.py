"""The TypeScript SDK (sdk/typescript), as built by scripts/build_sdk.sh (tsc's dist/,
the tarball `npm pack` makes of it), run by Node 20 against daphne: node/play_match.mjs
plays a whole match of each game with the SDK's calls alone, choosing among the view's
`legal_actions`, while the SDK's RoomFeed follows the room through a drop."""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
import zlib
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import IN_CI
from tests.sdk.test_python_sdk import MATCHES

PROGRAM = Path(__file__).with_name("node") / "play_match.mjs"


@pytest.fixture(scope="module")
def node() -> str:
    found = shutil.which("node")
    if found is None:
        if IN_CI:
            pytest.fail("node is missing: Node 20", pytrace=False)
        pytest.skip("node is missing: Node 20")
    return found


@pytest.mark.parametrize(("game", "options", "seats"), MATCHES)
def test_the_typescript_sdk_plays_a_whole_match(
    node: str, built_sdk: Any, sdk_server: str, transactional_db: Any, game: str, options: dict, seats: int
) -> None:
    config = {
        "base": sdk_server,
        "dist": str(built_sdk.typescript / "dist"),
        "game": game,
        "options": options,
        "computers": seats - 1,
        "seed": zlib.crc32(game.encode()),
    }
    out = subprocess.run([node, str(PROGRAM), json.dumps(config)], capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-4000:]
    result = json.loads(out.stdout.splitlines()[-1])
    final = result["final"]
    assert (final["status"], final["phase"]) == ("finished", "match_over")
    assert final["last_round"]["match_over"] is True and final["last_round"]["winners"]
    assert result["log"][-1]["type"] == "match_over"
    # The feed, cut once, delivered the room's log exactly: none twice, none missing.
    assert [e["seq"] for e in result["seen"]] == [e["seq"] for e in result["log"]]
    assert result["connections"] >= 2
    assert result["stale"] == {"status": 409, "codes": ["not_playing"]}
    assert result["signedOut"] == 401


def test_the_tarball_holds_the_built_package(built_sdk: Any) -> None:
    with tarfile.open(built_sdk.tarball) as tarball:
        names = set(tarball.getnames())
    for name in ("index.js", "index.d.ts", "roomFeed.js", "pkce.js", "retries.js", "generated/schema.d.ts"):
        assert f"package/dist/{name}" in names, name
    assert not any(name.startswith("package/src/") for name in names)
