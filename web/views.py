"""The web client's one page. Everything else happens in the browser, over the public API,
so the client can do nothing a third-party frontend could not."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe


@require_safe
def shell(request: HttpRequest, code: str | None = None) -> HttpResponse:
    """The HTML shell for `/` and `/join/<code>`; the script reads the room from the path."""
    # The API root comes from the URL conf, so the client never hard-codes where the API lives.
    api_root = reverse("games").removesuffix("games/")
    return render(request, "web/index.html", {"api_root": api_root, "room_code": code or ""})
