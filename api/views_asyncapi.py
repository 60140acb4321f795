"""The AsyncAPI document of the sockets (api/asyncapi.yaml), served beside the OpenAPI
one: checked in and written by hand, since the sockets are no DRF views a generator
could read; tests/live/test_asyncapi.py holds the live sockets to it."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

DOCUMENT = Path(__file__).resolve().parent / "asyncapi.yaml"


@cache
def _document() -> bytes:
    return DOCUMENT.read_bytes()


@require_safe
def asyncapi_document(request: HttpRequest) -> HttpResponse:
    # application/yaml: the media type RFC 9512 registers for YAML.
    return HttpResponse(_document(), content_type="application/yaml; charset=utf-8")
