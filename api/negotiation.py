"""Content negotiation that skips the Accept header where there is nothing to choose.

The API speaks JSON only, so for a view with a single renderer DRF's negotiation (parsing
the Accept header and its media ranges on every request) can only end in that renderer
or a 406. This answers JSON at once, as most JSON APIs do whatever a client accepts.
Views with several renderers (the OpenAPI schema, the browsable API when it is on) are
negotiated as usual.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request


class SingleRendererNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        # DRF passes the view's renderers as a list (APIView.get_renderers).
        if isinstance(renderers, Sequence) and len(renderers) == 1 and format_suffix is None:
            return renderers[0], renderers[0].media_type
        chosen: tuple[BaseRenderer, str] = super().select_renderer(request, renderers, format_suffix)
        return chosen
