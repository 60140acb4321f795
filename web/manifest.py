"""The web app manifest (`/manifest.webmanifest`): what a browser needs to install the web
client as an app on a phone's home screen or a desktop — its names, icons, colours, and
that it opens standalone (without the browser's bars) at `start_url`, owning every address
under `scope`. The scope is the whole site, so an invite link (`/join/<code>`) is the
app's own: a platform that opens links in installed apps (Android) opens it there.

Built here rather than kept as a file so that the icons' addresses come from the static
files' storage, wherever `STATIC_URL` puts them."""

from __future__ import annotations

from typing import Any

from django.templatetags.static import static
from django.urls import reverse

NAME = "Trick-taking tables"
SHORT_NAME = "Trick tables"
# The top bar's colour (web/static/web/style.css), so the system's bar above it matches,
# and the page's background, shown while the app starts.
THEME_COLOR = "#0a2a20"
BACKGROUND_COLOR = "#0f3d2e"

# (file under web/static/web/icons/, size, purpose): Android and desktop Chromium ask for
# 192 and 512 pixels; "maskable" icons fill the square for the platform to cut to its
# shape (scripts/make_icons.py draws them all from the SVG art).
ICONS = [
    ("icon-192.png", 192, "any"),
    ("icon-512.png", 512, "any"),
    ("maskable-192.png", 192, "maskable"),
    ("maskable-512.png", 512, "maskable"),
]


def manifest() -> dict[str, Any]:
    home = reverse("web-home")
    return {
        # The app's identity: installing it twice from two start URLs is still one app.
        "id": home,
        "name": NAME,
        "short_name": SHORT_NAME,
        "description": "Hearts, Moon and Kali Tidi at your own tables, live or one move a day.",
        "lang": "en",
        "dir": "ltr",
        "categories": ["games"],
        "start_url": home,
        "scope": home,
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            {"src": static(f"web/icons/{name}"), "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
            for name, size, purpose in ICONS
        ],
    }
