"""What the authorize page says of an app: who registered it and where it sends people back."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django import template
from django.utils.translation import gettext as _

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
        # Translators: where an app gets its answer (the authorize page); host is an address such as 127.0.0.1.
        return _("a program on this device (%(host)s)") % {"host": parts.hostname}
    if redirect_uris.is_private_use(parts.scheme):
        # Translators: where an app gets its answer (the authorize page); scheme names the app, such as com.example.app.
        return _("the app %(scheme)s on this device") % {"scheme": parts.scheme}
    return parts.hostname or ""
