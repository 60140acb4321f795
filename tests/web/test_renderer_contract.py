"""Each game's renderer (games/rules/<key>/web.js) is held to the GameRenderer type of
web/static/web/games/renderer.js: its default export carries the type, so tsc (`npm run
lint`) rejects a misspelt hook or a hook of the wrong signature rather than the table
skipping it in silence. A new game's folder is found by the glob, and so held to it too;
the negative control runs tsc on renderers that break the contract, to show that it
really catches them."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import IN_CI

ROOT = Path(__file__).resolve().parents[2]
TSC = ROOT / "node_modules" / ".bin" / "tsc"
RENDERERS = sorted(ROOT.glob("games/rules/*/web.js"))

# The annotation, right above the default export (only comments and blank space between).
ANNOTATED = re.compile(
    r'/\*\*\s*@type\s*\{\s*import\("@web/games/renderer\.js"\)\.GameRenderer\s*\}\s*\*/\s*export default \{'
)

# A renderer with every required hook right, which each broken one below spoils once.
HEAD = """import { h } from "@web/dom.js";

/** @type {import("@web/games/renderer.js").GameRenderer} */
export default {
  key: "%s",
  face: (code) => h("span", {}, code),
  itemName: (code) => code,
  sortHand: (hand) => [...hand],
  actionLabel: (action) => action.type,
"""
# Each broken game's folder, its extra lines, and the hook tsc must name.
BROKEN = {
    # A hook misspelt: without the type the table would never call it.
    "misspelt": ("  describeEvnt: (e) => e.type,\n", "describeEvnt"),
    # A hook that answers a number where the table shows text.
    "wrong_return": ("  yourTurnText: () => 42,\n", "yourTurnText"),
}


def tsc(project: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    if not TSC.exists():
        if IN_CI:
            pytest.fail("tsc is missing: run `make node_modules/.installed`", pytrace=False)
        pytest.skip("tsc is missing: run `make node_modules/.installed`")
    return subprocess.run(
        [str(TSC), "--project", str(project), "--pretty", "false"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_every_game_has_a_renderer_to_check():
    assert RENDERERS, "no games/rules/*/web.js"


@pytest.mark.parametrize("path", RENDERERS, ids=[p.parent.name for p in RENDERERS])
def test_each_renderer_default_export_is_typed_as_a_game_renderer(path: Path):
    source = path.read_text(encoding="utf-8")
    assert source.count("export default") == 1, path
    assert ANNOTATED.search(source), f"{path.relative_to(ROOT)}: annotate its default export with GameRenderer"


def test_tsc_rejects_a_misspelt_hook_and_a_wrong_signature(tmp_path: Path):
    for key, (lines, _hook) in BROKEN.items():
        folder = tmp_path / "games" / "rules" / key
        folder.mkdir(parents=True)
        (folder / "web.js").write_text(HEAD % key + lines + "};\n", encoding="utf-8")
    # The repo's configuration (its `paths`, resolved beside it, give `@web/`) for these files alone.
    config = tmp_path / "tsconfig.json"
    config.write_text(
        json.dumps({"extends": str(ROOT / "jsconfig.json"), "include": [str(tmp_path / "games/rules/*/web.js")]}),
        encoding="utf-8",
    )
    run = tsc(config, tmp_path)
    out = run.stdout + run.stderr
    assert run.returncode != 0, out
    errors = [line for line in out.splitlines() if ": error TS" in line]
    for key, (_lines, hook) in BROKEN.items():
        # The error is on the broken renderer, and its message (or the chain under it) names the hook.
        at = [k for k, line in enumerate(out.splitlines()) if line.startswith(f"games/rules/{key}/web.js(")]
        assert at, (key, out)
        said = "\n".join(out.splitlines()[at[0] : at[0] + 5])
        assert hook in said, (key, out)
    # Nothing else is wrong with them: `@web/` resolved, and the required hooks pass.
    assert len(errors) == len(BROKEN), out


def test_the_real_tree_passes_tsc():
    run = tsc(ROOT / "jsconfig.json", ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
