"""What the authorize page says of an app: who registered it and where it sends people back."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django import template

from grants import redirect_uris, selectors

register = template.Library()


@register.filter
def made_by(application: Any) -> str:
    return selectors.made_by_words(application)


@register.filter
def redirect_target(uri: str) -> str:
    """The place an answer goes, in words: a web host, an app on the device (a private-use
    scheme) or a program on this computer (a loopback address)."""
    parts = urlsplit(uri or "")
    if redirect_uris.is_loopback(uri or ""):
        return f"a program on this device ({parts.hostname})"
    if redirect_uris.is_private_use(parts.scheme):
        return f"the app {parts.scheme} on this device"
    return parts.hostname or ""
