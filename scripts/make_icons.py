#!/usr/bin/env python3
"""Draws the web app's PNG icons from their SVG art, with the headless Chromium the browser
tests use (Playwright): the sizes the platforms ask a web app manifest and iOS for.

    .venv/bin/python scripts/make_icons.py

The PNGs are committed beside the art (web/static/web/icons/); run this again after
changing `web/static/web/icon.svg` or `web/static/web/icons/maskable.svg`.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

from playwright.sync_api import sync_playwright

WEB = Path(__file__).resolve().parents[1] / "web" / "static" / "web"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

# (art, size, file): "any" icons keep icon.svg's rounded corners on a transparent ground;
# the maskable ones and Apple's are full squares the platform cuts to its own shape (iOS
# shows a transparent corner as black).
ICONS = [
    ("icon.svg", 192, "icons/icon-192.png"),
    ("icon.svg", 512, "icons/icon-512.png"),
    ("icons/maskable.svg", 192, "icons/maskable-192.png"),
    ("icons/maskable.svg", 512, "icons/maskable-512.png"),
    ("icons/maskable.svg", 180, "icons/apple-touch-icon.png"),
]


def main() -> None:
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM)
        for art, size, out in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size})
            svg = base64.b64encode((WEB / art).read_bytes()).decode()
            image = f'<img src="data:image/svg+xml;base64,{svg}" width="{size}" height="{size}">'
            page.set_content(f'<body style="margin:0">{image}</body>')
            page.locator("img").evaluate("img => img.decode()")
            page.screenshot(path=str(WEB / out), omit_background=True)
            page.close()
            print(out)
        browser.close()


if __name__ == "__main__":
    main()
