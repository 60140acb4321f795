"""The web client's words in each language: Django's JSON catalogue of the `djangojs`
domain (the strings the client's modules mark with `gettext` and friends, extracted by
`make messages` into locale/<language>/LC_MESSAGES/djangojs.po), served at an address
that names its version, so a browser and the service worker keep it until it changes."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.views.i18n import JSONCatalog


@cache
def version(language: str) -> str:
    """A short hash of the language's compiled catalogues, read once per process (a new
    catalogue ships with a restart)."""
    digest = hashlib.sha256(language.encode())
    for folder in settings.LOCALE_PATHS:
        for domain in ("djangojs", "django"):
            # Kept in the folder of the language's locale name (pt-br's in pt_BR/).
            compiled = folder / translation.to_locale(language) / "LC_MESSAGES" / f"{domain}.mo"
            if compiled.exists():
                digest.update(compiled.read_bytes())
    return digest.hexdigest()[:12]


def address(language: str) -> str:
    return reverse("web-catalogue", kwargs={"language": language, "version": version(language)})


def shell_languages() -> str:
    """Each language's name (in itself), direction, catalogue address and app manifest
    (web/manifest.py), as JSON for the page (its `data-languages`), which loads the one it
    needs and links that language's manifest."""
    return json.dumps(
        {
            code: {
                "name": name,
                "bidi": translation.get_language_info(code)["bidi"],
                "url": address(code),
                "manifest": reverse("web-manifest", args=[code]),
            }
            for code, name in settings.LANGUAGES
        },
        ensure_ascii=False,
    )


class Catalogue(JSONCatalog):
    """`{"catalog": {msgid: translation or [plural forms]}, "formats": …, "plural": the
    Plural-Forms expression}` for the language the address names."""

    domain = "djangojs"
    packages = None

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        language, asked = kwargs.pop("language"), kwargs.pop("version")
        if language not in dict(settings.LANGUAGES):
            raise Http404("No such language.")
        with translation.override(language):
            response = super().get(request, *args, **kwargs)
        # The address names this version: kept for a year. An older one (a page loaded
        # before a new release) gets today's words, asked for again next time.
        if asked == version(language):
            response["Cache-Control"] = "public, max-age=31536000, immutable"
        else:
            response["Cache-Control"] = "no-cache"
        return response
