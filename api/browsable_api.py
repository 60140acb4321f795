"""DRF's browsable API, for development only (DEBUG_BROWSABLE_API), under the site's
Content-Security-Policy: DRF's own page loads its scripts without a nonce, which the
policy's `'strict-dynamic'` blocks, leaving its forms dead. This one's template
(api/templates/api/browsable_api.html) gives each script the page's nonce."""

from __future__ import annotations

from rest_framework import renderers


class BrowsableAPIRenderer(renderers.BrowsableAPIRenderer):
    template = "api/browsable_api.html"
