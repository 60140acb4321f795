"""The Content-Security-Policy in Chromium (docs/operations/security.md).

- The negative control: a script written into the page without the request's nonce (or
  with a stale one), an inline event handler and a style attribute are all refused, and
  each refusal is reported, as `tests/e2e/csp.py` would report it in any browser test.
- The admin works under the policy: its scripts run (the change list's select-all, the
  date widgets' shortcuts, the sidebar's filter), and nothing is refused.
- The API's Swagger UI and the documentation site (as `make docs` builds it) draw
  themselves, and the site's search runs in its worker, with nothing refused.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.oauth import make_app

from . import csp
from .test_moderation_admin import PASSWORD, sign_in_admin, started

INJECTED = (
    "<script>window.injected = 'inline';</script>"
    "<script nonce='stale-nonce-from-another-answer'>window.injected = 'stale';</script>"
    "<button id='handler' onclick=\"window.injected = 'handler'\">x</button>"
    "<p id='styled' style='color: rgb(255, 0, 0)'>styled</p>"
)


def test_an_inline_script_without_the_nonce_is_blocked(browser: Any, live_url: str) -> None:
    context = browser.new_context(base_url=live_url)
    violations = csp.watch(context)
    page = context.new_page()

    def inject(route: Any) -> None:
        response = route.fetch()
        body = response.text().replace("</body>", INJECTED + "</body>")
        # The server's own headers, its policy among them.
        route.fulfill(response=response, body=body)

    page.route(re.compile(r".*/fair-deals$"), inject)
    page.goto("/fair-deals")
    page.locator("#handler").click()
    assert page.evaluate("window.injected") is None
    assert page.evaluate("getComputedStyle(document.getElementById('styled')).color") != "rgb(255, 0, 0)"
    page.wait_for_function("(window.__cspViolations || []).length >= 4")
    directives = sorted(v["directive"] for v in violations if isinstance(v, dict))
    assert directives.count("script-src-elem") == 2, violations
    assert "script-src-attr" in directives and "style-src-attr" in directives, violations
    # Chromium writes each refusal on the console as well, which the watch records.
    assert any(isinstance(v, str) and "Content Security Policy" in v for v in violations), violations
    context.close()


@pytest.fixture
def admin_scene(transactional_db: Any, make_user: Any) -> dict[str, Any]:
    root = make_user("root", is_staff=True, is_superuser=True)
    players = [make_user(n) for n in ("carl", "olga")]
    room = started(players, bots=2)
    make_app()
    return {"root": root, "room": room, "carl": players[0]}


def test_the_admin_works_under_the_policy(admin_scene: dict[str, Any], open_page: Any, shots: Any) -> None:
    page = open_page(1280, 900)
    sign_in_admin(page, "root", PASSWORD)
    # The sidebar's filter (nav_sidebar.js).
    page.goto("/admin/games/room/")
    page.locator("#nav-filter").fill("user")
    expect(page.locator("#nav-sidebar").get_by_role("link", name="Rooms")).to_be_hidden()
    # The change list's actions (actions.js): select all counts the rows.
    page.goto("/admin/oauth2_provider/application/")
    page.locator("#action-toggle").check()
    expect(page.locator(".action-counter")).to_contain_text("1 of 1 selected")
    shots(page, "admin-changelist")
    # A change form with dates: DateTimeShortcuts.js adds its "Today" and "Now"; the
    # permissions' two lists are SelectFilter2.js's.
    page.goto(f"/admin/accounts/user/{admin_scene['carl'].pk}/change/")
    expect(page.locator(".datetimeshortcuts").first).to_be_visible()
    expect(page.locator(".selector-available").first).to_be_attached()
    shots(page, "admin-change-form")
    # The moderators' own page, and the admin's delete confirmation.
    page.get_by_role("link", name="Ban…").click()
    expect(page.get_by_label("Reason")).to_be_visible()
    page.goto(f"/admin/games/room/{admin_scene['room'].pk}/change/")
    expect(page.locator("#moderation")).to_be_visible()


def test_the_api_documentation_draws_itself(open_page: Any) -> None:
    page = open_page(1280, 900)
    page.goto("/api/docs/")
    # The schema is made at the first request for it: slow on a busy machine.
    operation = page.locator(".opblock-summary-control").first
    expect(operation).to_be_visible(timeout=60_000)
    # A click that leaves Playwright waiting for no navigation (the operation's deep link).
    operation.dispatch_event("click")
    expect(page.locator(".opblock-body").first).to_be_visible(timeout=30_000)


def test_the_documentation_site_and_its_search_run(open_page: Any) -> None:
    if not (Path(settings.DOCS_SITE_DIR) / "index.html").is_file():
        pytest.skip("make docs has not built the site (make test builds it first)")
    page = open_page(1280, 900)
    page.goto("/docs/")
    expect(page.locator("h1").first).to_be_visible()
    page.goto("/docs/third-party-apps/")
    search = page.locator(".md-search__input")
    search.click()
    # Words typed before the worker has built its index find nothing: typed again.
    for _ in range(12):
        search.fill("")
        search.press_sequentially("authorize")
        try:
            expect(page.locator(".md-search-result__item").first).to_be_visible(timeout=5_000)
            break
        except AssertionError:
            continue
    expect(page.locator(".md-search-result__item").first).to_be_visible()
    # The code blocks' copy buttons come from the theme's script.
    expect(page.get_by_role("button", name="Copy to clipboard").first).to_be_attached()
