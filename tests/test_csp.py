"""The Content-Security-Policy of every page (docs/operations/security.md; core/csp.py).

Every page the URL conf routes to, the admin's with the moderators' own among them, is
asked for as a player and as a staff member: each HTML answer carries the policy, its
scripts run only with a nonce fresh for each request (and what they load), and no
inline script or eval is allowed. The browser tests (tests/e2e/csp.py) fail on any
violation Chromium reports; `test_an_inline_script_without_the_nonce_is_blocked` shows
that they would.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from django.apps import apps
from django.conf import settings
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver

from core import csp
from games.services import lobby
from tests.oauth import authorize_query, make_app, pkce_pair

pytestmark = pytest.mark.django_db

# The JSON API, the sockets' document and the schema are no pages; the web client's
# files that are not HTML answer with the policy too, but nothing runs under it.
NOT_PAGES = ("api/v1/", "api/schema/", "api/asyncapi.yaml", "sw.js", "manifest.webmanifest", "favicon.ico")
# Pages whose scripts and styles are fixed and known by their hashes, not a nonce.
HASHED = {"/offline"}
# Views that answer only a POST; their GET is refused before any page is made.
POST_ONLY = {"admin:logout", "oauth2_provider:token", "oauth2_provider:revoke-token"}


def _routes(resolver: URLResolver, prefix: str = "", namespace: str = "") -> Iterator[tuple[str, str]]:
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from _routes(pattern, route, inner)
        elif isinstance(pattern, URLPattern):
            yield route, f"{namespace}{pattern.name or ''}"


def _model_of(name: str) -> Any:
    """The model an admin URL's name begins with (`games_room_change` → Room)."""
    local = name.split(":")[-1]
    for model in apps.get_models():
        if local.startswith(f"{model._meta.app_label}_{model._meta.model_name}_"):
            return model
    return None


def _fill(route: str, name: str, values: dict[str, str]) -> str | None:
    """A concrete path for a route, its parameters filled from `values`, or for the
    admin's object pages with the first object of the page's model; None when there is
    nothing to fill a parameter with."""
    route = route.removeprefix("^").removesuffix("$").replace("\\Z", "")

    def value(match: re.Match[str]) -> str:
        param = match["name"]
        if param in values:
            return values[param]
        model = _model_of(name)
        first = model.objects.order_by("pk").first() if model is not None else None
        if first is None:
            raise LookupError(route)
        return str(first.pk)

    try:
        path = re.sub(r"<(?:(?P<conv>\w+):)?(?P<name>\w+)>", value, route)
        # The admin's catch-all and its app index: one app stands for every app.
        path = re.sub(r"\(\?P<app_label>[^)]*\)", "games", path)
    except LookupError:
        return None
    if re.search(r"[()\\[\]*+?]", path):
        return None
    return "/" + path


@pytest.fixture
def world(make_user: Any) -> dict[str, Any]:
    """Something of everything the pages show: a match under way, an app, a staff member."""
    host = make_user("ann")
    room = lobby.room_create(host=host, game="hearts", options={})
    for _ in range(3):
        lobby.room_add_bot(code=room.code, user=host)
    lobby.room_start(code=room.code, user=host)
    staff = make_user("moderator", is_staff=True, is_superuser=True)
    app = make_app()
    return {"player": host, "staff": staff, "room": room, "app": app}


def _pages(world: dict[str, Any]) -> list[str]:
    room, player = world["room"], world["player"]
    values = {"code": room.code, "username": player.username, "uidb64": "MQ", "token": "set-password"}
    paths = []
    for route, name in _routes(get_resolver()):
        if route.startswith(NOT_PAGES) or name in POST_ONLY:
            continue
        path = _fill(route, name, values)
        if path is not None:
            paths.append(path)
    _, challenge = pkce_pair()
    paths.append("/oauth/authorize/?" + urlencode(authorize_query(world["app"], challenge, "read")))
    return sorted(set(paths))


def _nonce(policy: dict[str, list[str]]) -> str:
    nonces = [s for s in policy["script-src"] if s.startswith("'nonce-")]
    assert len(nonces) == 1, policy["script-src"]
    return nonces[0].removeprefix("'nonce-").removesuffix("'")


def _check_strict(path: str, header: str) -> dict[str, list[str]]:
    policy = dict(csp.policy_of(header))
    scripts = policy.get("script-src") or policy.get("default-src") or []
    assert "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in scripts, (path, header)
    assert policy["object-src"] == ["'none'"], (path, header)
    assert policy["base-uri"] in (["'none'"], ["'self'"]), (path, header)
    assert policy["frame-ancestors"] == ["'none'"], (path, header)
    assert policy["form-action"][0] == "'self'", (path, header)
    assert "'unsafe-inline'" not in policy.get("style-src", []), (path, header)
    assert "'self'" in policy["connect-src"], (path, header)
    return policy


def _check_page(path: str, first: Any, second: Any) -> None:
    """Two answers of one HTML page: under the strict policy, with a nonce fresh for each,
    which every script carries; no inline handler, no style attribute."""
    assert csp.HEADER in first, path
    policy = _check_strict(path, first[csp.HEADER])
    again = _check_strict(path, second[csp.HEADER])
    body = first.content.decode()
    marked = set(re.findall(r'\bnonce="([^"]*)"', body))
    if path in HASHED:
        assert not any(s.startswith("'nonce-") for s in policy["script-src"]), path
        assert all(s.startswith("'sha256-") for s in policy["script-src"]), path
        return
    nonce = _nonce(policy)
    assert "'strict-dynamic'" in policy["script-src"], path
    assert _nonce(again) != nonce, f"{path}: the same nonce twice"
    assert len(nonce) >= 22, nonce
    # Every script and style the page marks carries this request's nonce.
    assert marked <= {nonce}, (path, marked)
    # No inline script without it, no inline handler, no style attribute.
    scripts = re.findall(r"<script\b([^>]*)>", body)
    for attributes in scripts:
        assert f'nonce="{nonce}"' in attributes, (path, attributes)
    assert not re.search(r"<[^>]+\son[a-z]+\s*=", body), path
    assert not re.search(r"<[^>]+\sstyle\s*=", body), path


@pytest.mark.parametrize("who", ["player", "staff"])
def test_every_page_has_a_strict_policy_with_a_fresh_nonce(world: dict[str, Any], who: str) -> None:
    client = Client()
    client.force_login(world[who])
    pages = _pages(world)
    # The walk reaches the pages that matter, the admin's object pages with them.
    for expected in ["/", "/offline", "/fair-deals", "/oauth/login/", "/api/docs/", "/admin/", "/reset-password"]:
        assert expected in pages
    assert f"/admin/games/room/{world['room'].pk}/change/" in pages
    assert any(re.fullmatch(r"/admin/accounts/user/\d+/ban/", path) for path in pages)
    html_pages = 0
    for path in pages:
        first, second = client.get(path), client.get(path)
        if first.get("Content-Type", "").startswith("text/html"):
            html_pages += 1
            _check_page(path, first, second)
    assert html_pages >= 20, html_pages


def test_the_browsable_api_of_development_runs_under_the_policy(world: dict[str, Any], monkeypatch) -> None:
    """DEBUG_BROWSABLE_API's pages (api/browsable_api.py): DRF's own loads its scripts
    without the nonce, which the policy blocks."""
    from api.browsable_api import BrowsableAPIRenderer
    from api.views_rooms import RoomDetailView

    monkeypatch.setattr(RoomDetailView, "renderer_classes", [*RoomDetailView.renderer_classes, BrowsableAPIRenderer])
    client = Client()
    client.force_login(world["player"])
    path = f"/api/v1/rooms/{world['room'].code}/"
    first, second = (client.get(path, headers={"Accept": "text/html"}) for _ in range(2))
    assert first.status_code == 200 and first["Content-Type"].startswith("text/html"), first.content[:300]
    assert world["room"].code in first.content.decode()
    assert first.content.decode().count("<script") == 8
    _check_page(path, first, second)


def test_the_authorize_page_lets_its_form_redirect_to_the_app(world: dict[str, Any]) -> None:
    """Chromium checks form-action against the redirect after the form's POST: the
    authorize page (and the sign-in before it) names the app's redirect as well."""
    client = Client()
    client.force_login(world["player"])
    _, challenge = pkce_pair()
    query = urlencode(authorize_query(world["app"], challenge, "read"))
    page = client.get(f"/oauth/authorize/?{query}")
    assert page.status_code == 200
    assert csp.policy_of(page[csp.HEADER])["form-action"] == ["'self'", "http://127.0.0.1:8765"]
    sign_in = Client().get("/oauth/login/", {"next": f"/oauth/authorize/?{query}"})
    assert csp.policy_of(sign_in[csp.HEADER])["form-action"] == ["'self'", "http://127.0.0.1:8765"]
    # A redirect the app did not register widens nothing (a loopback port may change).
    forged = query.replace("127.0.0.1%3A8765", "evil.example")
    assert forged != query
    for res in (
        client.get(f"/oauth/authorize/?{forged}"),
        Client().get("/oauth/login/", {"next": f"/oauth/authorize/?{forged}"}),
    ):
        assert csp.policy_of(res[csp.HEADER])["form-action"] == ["'self'"]
    native = make_app("Pocket", redirect_uri="com.example.app:/oauth/callback")
    page = client.get("/oauth/authorize/?" + urlencode(authorize_query(native, challenge, "read")))
    assert csp.policy_of(page[csp.HEADER])["form-action"] == ["'self'", "com.example.app:"]


def test_a_redirect_s_source(world: dict[str, Any]) -> None:
    assert csp.source_for_uri("https://app.example/cb?x=1") == "https://app.example"
    assert csp.source_for_uri("http://127.0.0.1:51234/cb") == "http://127.0.0.1:51234"
    assert csp.source_for_uri("http://[::1]:8080/cb") == "http://[::1]:8080"
    assert csp.source_for_uri("com.example.app:/cb") == "com.example.app:"
    for bad in ["javascript:alert(1)", "data:text/html,x", "", "/relative", "https://a b/"]:
        assert csp.source_for_uri(bad) is None, bad


def test_the_documentation_site_has_a_policy_with_its_inline_scripts_hashes(tmp_path: Path) -> None:
    inline = "__md_scope=new URL('.',location)"
    (tmp_path / "index.html").write_text(
        f'<script>{inline}</script><script id="__config" type="application/json">{{}}</script>'
        '<script src="assets/bundle.js"></script><h1>home</h1>'
    )
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "bundle.js").write_text("1")
    with override_settings(DOCS_SITE_DIR=tmp_path, WHITENOISE_AUTOREFRESH=True):
        client = Client()
        home = client.get("/docs/")
        policy = _check_strict("/docs/", home[csp.HEADER])
        assert policy["script-src"] == ["'self'", csp.hash_source(inline)]
        assert "'unsafe-inline'" not in policy["style-src"]
        assert csp.policy_of(client.get("/docs/assets/bundle.js")[csp.HEADER])["script-src"] == ["'self'"]


def test_the_built_documentation_site_needs_nothing_from_elsewhere() -> None:
    """The real site, when `make docs` has built it: the policy's hashes are the page's."""
    site = Path(settings.DOCS_SITE_DIR)
    if not (site / "index.html").is_file():
        pytest.skip("make docs has not built the site")
    html = (site / "index.html").read_text()
    assert "fonts.googleapis.com" not in html  # mkdocs.yml: `font: false`
    sources = csp.inline_sources(html)
    assert sources["script-src"], "Material's inline scripts"
    header = csp.docs_policy(html)
    for source in sources["script-src"]:
        assert source in header


def test_answers_that_are_no_pages_carry_the_policy_without_a_nonce(client: Client) -> None:
    games = client.get("/api/v1/games/")
    assert games["Content-Type"].startswith("application/json")
    policy = csp.policy_of(games[csp.HEADER])
    assert policy["script-src"] == ["'strict-dynamic'"] and policy["object-src"] == ["'none'"]
    assert games[csp.HEADER] == client.get("/api/v1/games/")[csp.HEADER]
    # The service worker's script runs under its answer's policy: it fetches only the site.
    worker = csp.policy_of(client.get("/sw.js")[csp.HEADER])
    assert worker["connect-src"] == ["'self'"]
