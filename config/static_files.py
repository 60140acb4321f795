"""WhiteNoise, serving the documentation site beside the static files.

`make docs` builds the site (mkdocs.yml, docs/) into `DOCS_SITE_DIR`; this serves it at
`/docs/` through WhiteNoise's own `add_files` with a prefix, before any URL pattern is
tried, so the web client's routes never see those paths. `WHITENOISE_INDEX_FILE` makes a
folder's URL (`/docs/`, `/docs/time/clocks/`) its `index.html`. With autorefresh (under
`DEBUG`, as `make run` has it) WhiteNoise looks files up at each request, so a site built
after the server started is served; otherwise it reads the folder once, at startup. No
site built: `/docs/` answers 404 like any unknown path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings as django_settings
from whitenoise.middleware import WhiteNoiseMiddleware

from core.csp import docs_headers

DOCS_PREFIX = "docs/"


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    def __init__(self, get_response: Any = None, settings: Any = django_settings) -> None:
        super().__init__(get_response, settings=settings)
        site = getattr(settings, "DOCS_SITE_DIR", None)
        # Read at startup without autorefresh: a folder not there yet is no error.
        # The site's files carry a policy of their own, with the hashes of each page's
        # inline scripts (core/csp.py): the site's answers never reach Django's CSP
        # middleware, and a static page has no request's nonce.
        previous: Any = getattr(self, "add_headers_function", None)
        self.add_headers_function = self._with_docs_policy(previous)
        if site and (self.autorefresh or Path(site).is_dir()):
            self.add_files(str(site), prefix=DOCS_PREFIX)

    @staticmethod
    def _with_docs_policy(previous: Any) -> Any:
        def add_headers(headers: Any, path: str, url: str) -> None:
            if previous is not None:
                previous(headers, path, url)
            docs_headers(headers, path, url, prefix="/" + DOCS_PREFIX)

        return add_headers
