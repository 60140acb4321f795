"""axe-core (the accessibility engine browsers' own audits use) run in a page as a person
sees it: the serious and critical violations of WCAG 2.x A and AA it finds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")
RUN_AXE = """async () => {
    const result = await axe.run(document, {
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
        resultTypes: ["violations"],
    });
    return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ")),
    }));
}"""


def violations(page: Any) -> list[dict[str, Any]]:
    """The serious and critical violations axe finds in the page as it stands."""
    if page.evaluate("typeof window.axe") == "undefined":
        # Evaluated by the driver, as the page's Content-Security-Policy allows: a script
        # tag would need the page's nonce, and the offline page has none (its script is
        # known by its hash).
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    return [v for v in page.evaluate(RUN_AXE) if v["impact"] in SERIOUS]


def check(page: Any, where: str, found: dict[str, list[dict[str, Any]]]) -> None:
    found[where] = violations(page)


def assert_none(found: dict[str, list[dict[str, Any]]]) -> None:
    bad = {where: [f"{v['id']} ({v['impact']}): {', '.join(v['nodes'])}" for v in found[where]] for where in found}
    assert not any(bad.values()), "\n".join(f"{where}: {'; '.join(lines)}" for where, lines in bad.items() if lines)
