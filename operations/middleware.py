"""`/healthz`, `/readyz` and `/metrics`, answered before any other middleware: no host
check (a probe asks by address, not by the site's name), no HTTPS redirect, no session,
no rate limit. They are for the deployment's own probes and scraper: nginx does not
pass them on from outside (deploy/nginx/gameserver.conf), and METRICS_TOKEN, when set,
is asked of `/metrics` as a bearer token.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from . import metrics, readiness

JSON = "application/json"


def _json(status: int, body: dict[str, object]) -> HttpResponse:
    response = HttpResponse(json.dumps(body), status=status, content_type=JSON)
    response["Cache-Control"] = "no-store"
    return response


def healthz() -> HttpResponse:
    return _json(200, {"status": "alive"})


def readyz() -> HttpResponse:
    ready, checks = readiness.report()
    return _json(200 if ready else 503, {"status": "ready" if ready else "not ready", "checks": checks})


def metrics_answer(request: HttpRequest) -> HttpResponse:
    token = getattr(settings, "METRICS_TOKEN", "")
    if token:
        given = request.headers.get("Authorization", "")
        if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
            response = _json(401, {"status": "a bearer token is needed (METRICS_TOKEN)"})
            response["WWW-Authenticate"] = 'Bearer realm="metrics"'
            return response
    response = HttpResponse(metrics.exposition(), content_type=metrics.CONTENT_TYPE)
    response["Cache-Control"] = "no-store"
    return response


class OperationsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in ("GET", "HEAD"):
            if request.path == "/healthz":
                return healthz()
            if request.path == "/readyz":
                return readyz()
            if request.path == "/metrics":
                return metrics_answer(request)
        return self.get_response(request)
