"""A 201 answer names what it made: `Location` is the new resource's URL (RFC 9110 §15.3.2).

Views answer with `created(...)`; marking the method with `@creates(what)` makes the
document declare the header on that operation's 201 (api.schema.AutoSchema).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.urls import reverse
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response


def creates(what: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare that the method's 201 answer has a `Location`: the URL of `what`."""

    def mark(method: Callable[..., Any]) -> Callable[..., Any]:
        method.creates = what  # type: ignore[attr-defined]
        return method

    return mark


def created(request: Request, data: Any, url_name: str, **kwargs: Any) -> Response:
    """201 with `data` and the absolute URL of the resource `url_name` (with `kwargs`)."""
    location = request.build_absolute_uri(reverse(url_name, kwargs=kwargs))
    return Response(data, status=status.HTTP_201_CREATED, headers={"Location": location})
