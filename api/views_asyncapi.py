"""The AsyncAPI document of the sockets, served beside the OpenAPI one: made from its
hand-written source, the close table and the OpenAPI components it names
(api/asyncapi_document.py); api/asyncapi.yaml is its checked-in copy, and
tests/live/test_asyncapi.py holds the live sockets to it."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from .asyncapi_document import served


@require_safe
def asyncapi_document(request: HttpRequest) -> HttpResponse:
    # application/yaml: the media type RFC 9512 registers for YAML.
    return HttpResponse(served(), content_type="application/yaml; charset=utf-8")
