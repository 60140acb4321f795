"""The web client's pages and static files, through Django's test client."""

from __future__ import annotations

import json
import re
import struct

import pytest
from django.contrib.staticfiles import finders

from tests.game_params import game_keys
from web import manifest

pytestmark = pytest.mark.django_db

MODULES = [
    "app.js",
    "account.js",
    "api.js",
    "auth.js",
    "backoff.js",
    "cards.js",
    "chat.js",
    "confirm.js",
    "dom.js",
    "dominoes.js",
    "eventlog.js",
    "fair.js",
    "fairness.js",
    "format.js",
    "games/index.js",
    "games/renderer.js",
    "home.js",
    "i18n.js",
    "language.js",
    "leaderboard.js",
    "live.js",
    "lobby.js",
    "my_apps.js",
    "notifications.js",
    "options.js",
    "passkeys.js",
    "platform.js",
    "players.js",
    "privacy.js",
    "push.js",
    "replay.js",
    "report.js",
    "room.js",
    "prefs.js",
    "share.js",
    "site.js",
    "socket.js",
    "standing.js",
    "table.js",
    "table/actions.js",
    "table/choose.js",
    "table/ending.js",
    "table/hand.js",
    "table/legal.js",
    "table/linger.js",
    "table/results.js",
    "table/ring.js",
    "table/rules.js",
    "table/status.js",
    "table/taps.js",
    "tokens.js",
    "turns.js",
    "two_factor.js",
    "webauthn.js",
    "wording.js",
    "worker.js",
]
# Each game's renderer, served from the game's folder and imported by games/index.js
# when the page names it.
RENDERERS = [f"games/{key}.js" for key in game_keys()]
# Modules of JSDoc types alone: tsc reads them, named in type annotations (`import("…")`),
# and the browser never loads them.
TYPE_ONLY = {"games/renderer.js"}


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/join/ABC123",
        "/rooms/ABC123",
        "/notifications",
        "/confirm-email",
        "/reset-password",
        "/replay/ABC123",
        "/players/ann",
        "/leaderboard",
    ],
)
def test_the_shell_is_served_at_home_invite_links_and_settings(client, path):
    res = client.get(path)
    assert res.status_code == 200
    assert res["Content-Type"].startswith("text/html")
    html = res.content.decode()
    # With the request's nonce, which the page's policy names (tests/test_csp.py).
    nonce = res["Content-Security-Policy"].split("'nonce-")[1].split("'")[0]
    assert f'<script type="module" src="/static/web/app.js" nonce="{nonce}"></script>' in html
    assert 'href="/static/web/style.css"' in html
    # The client learns where the API and its service worker are from the page, not from a constant.
    assert 'data-api-root="/api/v1/"' in html
    assert 'data-sw-url="/sw.js"' in html


def test_an_invite_link_names_its_room_in_the_title(client):
    html = client.get("/join/XY7Q2Z").content.decode()
    assert "<title>Table XY7Q2Z" in html


@pytest.mark.django_db
def test_an_invite_to_a_private_room_that_is_over_names_nothing_but_to_its_players(client, make_user):
    from games.models import Room, RoomStatus
    from games.services import lobby

    host = make_user()
    host.display_name = "Hosta"
    host.save(update_fields=["display_name"])
    code = lobby.room_create(host=host, game="hearts", options={}, public=False).code
    assert 'data-invite-host="Hosta"' in client.get(f"/join/{code}").content.decode()
    Room.objects.filter(code=code).update(status=RoomStatus.FINISHED)
    for reader in (None, make_user()):
        if reader is not None:
            client.force_login(reader)
        html = client.get(f"/join/{code}").content.decode()
        assert 'data-invite-game=""' in html and 'data-invite-host=""' in html
    client.force_login(host)
    assert 'data-invite-host="Hosta"' in client.get(f"/join/{code}").content.decode()


def test_the_shell_needs_no_login_and_only_answers_reads(client):
    assert client.get("/").status_code == 200
    assert client.post("/").status_code == 405
    assert client.post("/join/ABC123").status_code == 405
    assert client.post("/notifications").status_code == 405


def test_the_api_and_admin_routes_are_untouched(client):
    assert client.get("/api/v1/games/").status_code == 200
    assert client.get("/api/v1/me").status_code == 401
    assert client.get("/join/").status_code == 404


@pytest.mark.parametrize(
    "name",
    [
        *MODULES,
        "style.css",
        "chat.css",
        "confirm_moves.css",
        "trick.css",
        "replay_talk.css",
        "replay.css",
        "fair_deals.css",
        "moderation.css",
        "notices.css",
    ],
)
def test_every_static_file_is_served(client, name):
    res = client.get(f"/static/web/{name}")
    assert res.status_code == 200, name
    body = b"".join(res.streaming_content) if res.streaming else res.content
    if name.endswith(".js"):
        assert res["Content-Type"].startswith(("text/javascript", "application/javascript"))
    else:
        assert res["Content-Type"].startswith("text/css")
    assert len(body) > 100


def test_every_relative_import_resolves_to_a_served_module():
    # No build step: the browser follows these imports as they are written, a renderer's
    # `@web/…` through the page's import map (web/templates/web/index.html).
    # `typed`: the modules named by a JSDoc type's `import("…")`, which tsc follows the same way.
    seen, typed = set(), set()
    for name in MODULES + RENDERERS:
        path = finders.find(f"web/{name}")
        assert path, name
        source = open(path, encoding="utf-8").read()
        base = name.rsplit("/", 1)[0] + "/" if "/" in name else ""
        for found, before in ((seen, r"from "), (typed, r"import\(")):
            for target in re.findall(before + r'"@web/([^"]+)"', source):
                found.add(target)
            for target in re.findall(before + r'"(\.{1,2}/[^"]+)"', source):
                parts = (base + target).split("/")
                resolved: list[str] = []
                for part in parts:
                    if part == "..":
                        resolved.pop()
                    elif part not in (".", ""):
                        resolved.append(part)
                found.add("/".join(resolved))
    assert seen | typed <= set(MODULES), (seen | typed) - set(MODULES)
    # Every module but the entry is imported by another one (the renderers by name, below),
    # and a module of types alone is named by a type.
    assert set(MODULES) - seen == {"app.js"} | TYPE_ONLY
    assert TYPE_ONLY <= typed


def test_the_page_names_every_game_renderer_and_each_is_served(client):
    html = client.get("/").content.decode()
    assert f'data-game-renderers="{" ".join(game_keys())}"' in html
    # The renderers' shared modules, by the import map, are the client's own.
    import_map = json.loads(re.search(r'<script type="importmap" nonce="[^"]+">(.*?)</script>', html, re.S)[1])
    assert import_map == {"imports": {"@web/": "/static/web/"}}
    for name in RENDERERS:
        res = client.get(f"/static/web/{name}")
        assert res.status_code == 200, name
        assert b"export default" in b"".join(res.streaming_content), name


def test_the_site_icon_answers_at_the_root_and_from_the_page(client):
    # Browsers ask for /favicon.ico on their own; a 404 there is an error on every first visit.
    res = client.get("/favicon.ico")
    assert res.status_code == 200
    assert res["Content-Type"] == "image/x-icon"
    assert res.content[:4] == b"\x00\x00\x01\x00"  # the ICO header: reserved 0, type 1 (icon)
    assert "max-age" in res["Cache-Control"]
    assert client.post("/favicon.ico").status_code == 405
    html = client.get("/").content.decode()
    assert '<link rel="icon" href="/favicon.ico"' in html
    assert '<link rel="icon" href="/static/web/icon.svg" type="image/svg+xml">' in html
    svg = client.get("/static/web/icon.svg")
    assert svg.status_code == 200
    body = b"".join(svg.streaming_content) if svg.streaming else svg.content
    assert body.lstrip().startswith(b"<svg")


def test_the_shell_has_one_live_region_for_turns_apart_from_the_toasts(client):
    html = client.get("/join/ABC123").content.decode()
    assert re.search(r'<div id="turn-announcer" class="sr-only" aria-live="polite"', html)


def test_the_service_worker_is_served_from_the_root_for_the_whole_site(client):
    res = client.get("/sw.js")
    assert res.status_code == 200
    # Browsers refuse a worker script with any other type.
    assert res["Content-Type"] == "text/javascript; charset=utf-8"
    assert res["Service-Worker-Allowed"] == "/"
    # Asked again before each use: a new version is never held back by a cache.
    assert res["Cache-Control"] == "no-cache"
    source = res.content.decode()
    for event in ("push", "notificationclick"):
        assert f'addEventListener("{event}"' in source
    # It answers page loads (with the offline page when they fail) and the catalogues
    # (tests/e2e/test_languages.py), nothing else.
    assert 'addEventListener("fetch"' in source
    assert 'event.request.mode === "navigate"' in source
    assert "CATALOGUE_PATH.test(url.pathname)" in source
    assert client.head("/sw.js").status_code == 200
    assert client.post("/sw.js").status_code == 405


# Every page the site serves as HTML: the client's shell, the site's own pages
# (web/templates/web/site_page.html: the OAuth sign-in, fair deals) and the offline page.
PAGES = ["/", "/join/ABC123", "/notifications", "/oauth/login/", "/offline", "/fair-deals"]


def served(client, path):
    res = client.get(path)
    assert res.status_code == 200, path
    return res, b"".join(res.streaming_content) if res.streaming else res.content


def png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", body[16:24])  # the IHDR chunk comes first
    return width, height


def test_the_manifest_describes_an_app_that_opens_standalone_on_the_whole_site(client):
    res = client.get("/manifest.webmanifest")
    assert res.status_code == 200
    assert res["Content-Type"] == "application/manifest+json"
    assert "max-age" in res["Cache-Control"]
    assert client.post("/manifest.webmanifest").status_code == 405
    data = json.loads(res.content)
    assert data["name"] == "Trick-taking tables"
    assert 0 < len(data["short_name"]) <= 12  # what a home screen shows under the icon
    assert data["display"] == "standalone"
    assert data["id"] == data["start_url"] == data["scope"] == "/"
    # Invite links and notices' rooms lie in the app's scope: the installed app owns them.
    for link in ("/join/ABC123", "/rooms/ABC123"):
        assert link.startswith(data["scope"])
    assert re.fullmatch(r"#[0-9a-f]{6}", data["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", data["background_color"])
    # Each icon is a PNG of the size it claims; Chromium wants 192 and 512, and a maskable one.
    sizes = {}
    for icon in data["icons"]:
        assert icon["type"] == "image/png"
        _, body = served(client, icon["src"])
        width, height = png_size(body)
        assert icon["sizes"] == f"{width}x{height}", icon
        sizes.setdefault(icon["purpose"], set()).add(width)
    assert sizes == {"any": {192, 512}, "maskable": {192, 512}}


@pytest.mark.parametrize("path", PAGES)
def test_every_page_links_the_manifest_and_what_ios_reads(client, path):
    _, body = served(client, path)
    html = body.decode()
    assert '<link rel="manifest" href="/manifest/en.webmanifest">' in html
    # The system's bar in the app's colour, the manifest's.
    assert f'<meta name="theme-color" content="{manifest.THEME_COLOR}">' in html
    # iOS reads none of the manifest's icons or display: these instead.
    assert '<meta name="apple-mobile-web-app-capable" content="yes">' in html
    assert '<meta name="mobile-web-app-capable" content="yes">' in html
    assert '<meta name="apple-mobile-web-app-status-bar-style" content="black">' in html
    assert f'<meta name="apple-mobile-web-app-title" content="{manifest.SHORT_NAME}">' in html
    link = re.search(r'<link rel="apple-touch-icon" href="([^"]+)" sizes="180x180">', html)
    assert link, path
    _, icon = served(client, link[1])
    assert png_size(icon) == (180, 180)


def test_the_offline_page_needs_nothing_else_from_the_network(client):
    res, body = served(client, "/offline")
    assert res["Content-Type"].startswith("text/html")
    # The worker's copy is always fetched afresh.
    assert res["Cache-Control"] == "no-cache"
    assert client.post("/offline").status_code == 405
    html = body.decode()
    assert '<h1 id="offline-title">You are offline</h1>' in html
    # Its script and styles are in the page: no file of the site is at hand offline.
    script = open(finders.find("web/offline.js"), encoding="utf-8").read()
    assert f'<script type="module">{script}</script>' in html
    # Written into the page, it can import nothing, nor end its own element.
    assert not re.search(r"^\s*import\b", script, re.M)
    assert "</script" not in script
    assert "<script src" not in html and 'rel="stylesheet"' not in html
    assert "<style>" in html
