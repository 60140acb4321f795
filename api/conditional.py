"""Conditional reads (RFC 9110 §8.8.3, §13.1.2): an answer's `ETag`, and `304 Not
Modified` for a client that names it in `If-None-Match`.

The tags are weak (`W/"…"`): they are computed from what an answer is made of
(games/view_tags.py), not from its bytes, and promise that two answers with one tag mean
the same, which is what a client polling for a change needs. A strong tag would also
promise the same bytes, which nothing here checks (a proxy that compresses the answer,
or a renderer's options, would make other bytes of the same view); `If-None-Match` is
compared weakly in any case.

Each answer is one viewer's: `private` keeps it out of shared caches, `no-cache` has a
browser that keeps it ask again every time (with `If-None-Match`, so a 304 costs little),
and `Vary` names the headers that say who is asking.
"""

from __future__ import annotations

from django.http import HttpResponseNotModified
from django.http.response import HttpResponseBase
from django.utils import cache
from django.utils.cache import patch_cache_control, patch_vary_headers
from rest_framework.request import Request

ETAG_HEADER = "ETag"
IF_NONE_MATCH_HEADER = "If-None-Match"


def etag(digest: str) -> str:
    """The header's value for a tag (a digest of visible ASCII without quotes)."""
    return f'W/"{digest}"'


def asks(request: Request) -> bool:
    """Whether the request names tags it holds (or `*`)."""
    return bool(request.META.get("HTTP_IF_NONE_MATCH", "").strip())


def holds(request: Request, digest: str | None) -> bool:
    """Whether `If-None-Match` names this tag, compared weakly, or is `*` (any current
    answer). Never for None: there is nothing to answer 304 for (an unknown room, which
    the read then answers 404). A malformed entry of the list matches nothing."""
    if digest is None:
        return False
    # Django's own parser (quoted tags, lists, `*`), which django-stubs leaves out.
    named: list[str] = cache.parse_etags(request.META.get("HTTP_IF_NONE_MATCH", ""))  # type: ignore[attr-defined]
    if named == ["*"]:
        return True
    return etag(digest).removeprefix("W/") in {tag.removeprefix("W/") for tag in named}


def not_modified(digest: str) -> HttpResponseNotModified:
    """304, with the headers the 200 would have had that concern caches (§15.4.5)."""
    return tagged(HttpResponseNotModified(), digest)


def tagged[R: HttpResponseBase](response: R, digest: str) -> R:
    """The answer with its tag and the caching rules of one viewer's answer."""
    response[ETAG_HEADER] = etag(digest)
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ("Authorization", "Cookie"))
    return response
