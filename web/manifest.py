"""The web app manifest (`/manifest.webmanifest`): what a browser needs to install the web
client as an app on a phone's home screen or a desktop — its names, icons, colours, and
that it opens standalone (without the browser's bars) at `start_url`, owning every address
under `scope`. The scope is the whole site, so an invite link (`/join/<code>`) is the
app's own: a platform that opens links in installed apps (Android) opens it there.

Built here rather than kept as a file so that the icons' addresses come from the static
files' storage, wherever `STATIC_URL` puts them, and so that its words are in a language:
each language has its own address (`/manifest/<language>.webmanifest`), which a page of
that language links. Its address, not a header, says the language: a browser asks for a
manifest without the page's cookies, so the account's language could not be known from
the request. The app's `id` is the same in every language: one app, whichever the
person reads."""

from __future__ import annotations

from typing import Any

from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy

NAME = gettext_lazy("Trick-taking tables")
# Translators: the app's short name under its icon on a phone's home screen; at most about 12 characters.
SHORT_NAME = gettext_lazy("Trick tables")
DESCRIPTION = gettext_lazy("Hearts, Moon and Kali Tidi at your own tables, live or one move a day.")
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


def manifest(language: str) -> dict[str, Any]:
    """The manifest in `language` (one of settings.LANGUAGES)."""
    home = reverse("web-home")
    with translation.override(language):
        words = {"name": str(NAME), "short_name": str(SHORT_NAME), "description": str(DESCRIPTION)}
    return {
        # The app's identity: installing it twice from two start URLs is still one app.
        "id": home,
        **words,
        "lang": language,
        "dir": "rtl" if translation.get_language_info(language)["bidi"] else "ltr",
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
