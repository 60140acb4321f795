"""The Content-Security-Policy of every page the server answers (docs/operations/security.md).

The policy itself is `SECURE_CSP` in the settings and Django's own middleware writes it
(`django.middleware.csp`), with a fresh nonce for each request that scripts carry
(`nonce="{{ csp_nonce }}"`, or `{% csp_nonce_attr %}` as the admin's templates have it).
What is here only bends it where one page needs more than the rest:

- `ContentSecurityPolicyMiddleware`: Django's, which puts the nonce into the header only
  when a template read it; here every HTML page's policy names one, fresh per request,
  so that no page falls back to a policy without it.
- `with_sources` and `with_policy`: one answer's policy with more sources for some
  directives, or others in their place (the authorize page's `form-action` names the
  app's redirect, which Chromium checks after the form's POST; the offline page's
  scripts and styles are known by their hashes).
- `hash_source`: the `'sha256-…'` of an inline script or style whose text is fixed (the
  offline page, which the service worker keeps and shows as it was fetched).
- `docs_headers`: the documentation site's policy (static files through WhiteNoise, no
  request to carry a nonce): `'self'` and the hashes of each page's own inline scripts.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable, Mapping, MutableMapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.middleware import csp as django_csp
from django.utils.csp import CSP, build_policy

HEADER = str(CSP.HEADER_ENFORCE)


class ContentSecurityPolicyMiddleware(django_csp.ContentSecurityPolicyMiddleware):
    """Django's CSP middleware; an HTML answer's policy always carries the request's nonce.
    Any other answer (the API's JSON above all) gets the site's policy without one, built
    once rather than at every answer."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        nonce = django_csp.get_nonce(request)
        if response.get("Content-Type", "").startswith("text/html"):
            if nonce is not None:
                str(nonce)  # Generated now if no template asked for it yet.
        elif not hasattr(response, "_csp_config") and HEADER not in response and settings.SECURE_CSP:
            response.headers[HEADER] = _without_nonce(settings.SECURE_CSP)
        return super().process_response(request, response)


_BUILT: dict[int, tuple[Any, str]] = {}


def _without_nonce(config: Any) -> str:
    built = _BUILT.get(id(config))
    if built is None or built[0] is not config:
        built = _BUILT[id(config)] = (config, build_policy(config))
    return built[1]


def with_sources(response: HttpResponse, **directives: Iterable[str]) -> HttpResponse:
    """`response` under the site's policy with these sources added (`form_action=[…]` for
    `form-action`)."""
    return _answer_policy(response, directives, add=True)


def with_policy(response: HttpResponse, **directives: Iterable[str]) -> HttpResponse:
    """`response` under the site's policy with these directives in place of its own."""
    return _answer_policy(response, directives, add=False)


def _answer_policy(response: HttpResponse, directives: Mapping[str, Iterable[str]], add: bool) -> HttpResponse:
    # The attribute Django's `csp_override` decorator sets, which the middleware reads in
    # place of SECURE_CSP: here for a policy that depends on the answer, not the view.
    site: Mapping[str, Any] = settings.SECURE_CSP
    policy: dict[str, Any] = {key: list(values) for key, values in site.items()}
    for name, sources in directives.items():
        directive = name.replace("_", "-")
        current = list(policy.get(directive) or []) if add else []
        policy[directive] = [*current, *(s for s in sources if s not in current)]
    response._csp_config = policy  # type: ignore[attr-defined]
    return response


def source_for_uri(uri: str) -> str | None:
    """The source expression that lets a page send a person to `uri`: its origin
    (`https://app.example`, `http://127.0.0.1:8765`), or for a private-use scheme
    (`com.example.app:/cb`) the scheme alone. None for what is no URI."""
    try:
        parts = urlsplit(uri)
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if not re.fullmatch(r"[a-z][a-z0-9+.-]*", scheme):
        return None
    if scheme in {"http", "https"}:
        if not parts.hostname or not re.fullmatch(r"[A-Za-z0-9.:\[\]-]+", parts.netloc.rsplit("@", 1)[-1]):
            return None
        return f"{scheme}://{parts.netloc.rsplit('@', 1)[-1]}"
    if scheme in {"javascript", "data", "blob", "filesystem"}:
        return None
    return f"{scheme}:"


def hash_source(text: str) -> str:
    """The `'sha256-…'` source of an inline script or style of exactly this text."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


# The documentation site (MkDocs' Material theme): its scripts are its own files, besides
# a few short inline ones on every page; its search runs in a worker of its own files.
DOCS_POLICY: dict[str, list[str]] = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "worker-src": [CSP.SELF],
    "manifest-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}

# An inline script the browser runs: no `src`, and a type that is JavaScript (none, a
# JavaScript MIME type or `module`); `application/json` and the like are data.
_SCRIPT = re.compile(r"<script(?P<attrs>[^>]*)>(?P<body>.*?)</script\s*>", re.S | re.I)
_STYLE = re.compile(r"<style(?P<attrs>[^>]*)>(?P<body>.*?)</style\s*>", re.S | re.I)
_TYPE = re.compile(r"""\btype\s*=\s*["']?([^"'\s>]+)""", re.I)


def inline_sources(html: str) -> dict[str, list[str]]:
    """The hashes of a page's inline scripts and styles, by directive."""
    scripts = []
    for match in _SCRIPT.finditer(html):
        attrs = match["attrs"]
        kind = _TYPE.search(attrs)
        if re.search(r"\bsrc\s*=", attrs, re.I):
            continue
        if kind and kind[1].lower() not in {"module", "text/javascript", "application/javascript"}:
            continue
        scripts.append(hash_source(match["body"]))
    styles = [hash_source(match["body"]) for match in _STYLE.finditer(html)]
    return {"script-src": scripts, "style-src": styles}


def docs_policy(html: str | None = None) -> str:
    policy = {key: list(values) for key, values in DOCS_POLICY.items()}
    if html is not None:
        for directive, sources in inline_sources(html).items():
            policy[directive] += sorted(set(sources))
    return build_policy(policy)


def docs_headers(headers: MutableMapping[str, str], path: str, url: str, prefix: str) -> None:
    """WhiteNoise's `add_headers_function` for the documentation site's files (under
    `prefix`): each HTML page's policy names the hashes of its own inline scripts."""
    if not url.startswith(prefix):
        return
    html = Path(path).read_text(encoding="utf-8", errors="replace") if path.endswith(".html") else None
    headers[HEADER] = docs_policy(html)


def policy_of(header: str) -> Mapping[str, list[str]]:
    """A policy header read back, directive by directive (for checks and tests)."""
    directives: dict[str, list[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            directives[words[0].lower()] = words[1:]
    return directives
