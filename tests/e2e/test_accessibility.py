"""Every page of the web client, at a phone's size and on a desktop, checked by axe-core
(the accessibility engine browsers' own audits use), run in the page as a person sees it:
no serious or critical violation of WCAG 2.x A and AA anywhere.

TODO(#27): run it under the README's own `make run` too (make_run_page), as the issue's
"Done means" asks; the ban and hand-over browser tests (test_moderation_admin.py) too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, add_bots, create_room, new_match, play_by_api, sign_up, table, token_of

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
        page.add_script_tag(path=str(AXE))
    return [v for v in page.evaluate(RUN_AXE) if v["impact"] in SERIOUS]


def check(page: Any, where: str, found: dict[str, list[dict[str, Any]]]) -> None:
    found[where] = violations(page)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_no_page_has_a_serious_accessibility_violation(open_page, live_url, size):
    assert AXE.exists(), "npm ci installs axe-core (package.json)"
    found: dict[str, list[dict[str, Any]]] = {}
    visitor = open_page(**size)
    visitor.goto("/")
    expect(visitor.get_by_role("tab", name="Log in")).to_be_visible()
    check(visitor, "home, signed out", found)

    host = open_page(**size)
    sign_up(host, f"ally{size['width']}")
    check(host, "home", found)
    code = create_room(host, "kali_tidi")
    expect(host.locator(".lobby")).to_be_visible()
    check(host, "lobby", found)

    visitor.goto(f"/join/{code}")
    expect(visitor.get_by_role("heading", name="You're invited to a table")).to_be_visible()
    check(visitor, "invite", found)

    add_bots(host, 3)
    host.locator("[data-action=start]").click()
    table(host).wait_for(timeout=30_000)
    check(host, "Kali Tidi table", found)

    token = token_of(host)
    for game, options, bots in (("hearts", {"target": 30}, 3), ("moon", {}, 2)):
        played = new_match(live_url, token, game, options, bots=bots)
        host.goto(f"/rooms/{played}")
        table(host).wait_for(timeout=30_000)
        check(host, f"{game} table", found)
    hearts = new_match(live_url, token, "hearts", {"target": 30}, bots=3)
    play_by_api(live_url, token, hearts, lambda v: v["phase"] in ("round_over", "match_over"))
    host.goto(f"/rooms/{hearts}")
    expect(host.locator(".results")).to_be_visible()
    check(host, "a hand's result", found)
    play_by_api(live_url, token, hearts, lambda v: v["status"] == "finished")
    host.goto(f"/replay/{hearts}")
    host.locator("section.replay").wait_for()
    check(host, "replay", found)

    for path, ready, where in (
        ("/notifications", ".settings", "settings"),
        (f"/players/ally{size['width']}", ".match-counts", "player page"),
        ("/leaderboard?game=hearts", ".leaderboard", "leaderboard"),
        ("/confirm-email", "main h1", "confirm e-mail"),
    ):
        host.goto(path)
        host.locator(ready).first.wait_for()
        check(host, where, found)

    bad = {where: [f"{v['id']} ({v['impact']}): {', '.join(v['nodes'])}" for v in found[where]] for where in found}
    assert not any(bad.values()), "\n".join(f"{where}: {'; '.join(lines)}" for where, lines in bad.items() if lines)
