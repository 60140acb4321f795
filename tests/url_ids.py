"""Every route of the URLconf that carries a number in its path, with the path made for
a given number: what tests/api/test_path_ids.py and tests/sqlite_ids.py (on SQLite, in
a process of its own) walk. Plain Django: importable as `tests.url_ids` and, from a
script in tests/, as `url_ids`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import IntConverter
from django.urls.resolvers import RoutePattern

ID_MAX = 2**63 - 1
# Beyond what a 64-bit signed column holds, or spelt as no id is.
OUT_OF_RANGE = [str(ID_MAX + 1), str(2**64), "9" * 19, "1" + "0" * 30, "0" * 3 + "1", "01"]
ROOM_CODE = "ZZZZZZ"
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
_PART = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


@dataclass(frozen=True)
class Route:
    route: str  # e.g. "api/v1/me/apps/<id:app_id>"
    converters: dict[str, Any]

    @property
    def api(self) -> bool:
        return self.route.startswith("api/")

    def path(self, number: str) -> str:
        def fill(match: re.Match[str]) -> str:
            converter = match.group("converter") or "str"
            if converter == "id":
                return number
            if converter == "room_code":
                return ROOM_CODE
            return "x"

        return "/" + _PART.sub(fill, self.route)


def routes() -> Iterator[tuple[str, Any]]:
    """(the route as written, its pattern) for every URL pattern, resolvers' prefixes joined."""

    def walk(patterns: list[Any], prefix: str) -> Iterator[tuple[str, Any]]:
        for entry in patterns:
            here = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                yield here, entry.pattern
                yield from walk(entry.url_patterns, here)
            elif isinstance(entry, URLPattern):
                yield here, entry.pattern

    yield from walk(get_resolver().url_patterns, "")


def id_routes() -> list[Route]:
    """The routes with at least one number in their path."""
    found = []
    for route, pattern in routes():
        converters = getattr(pattern, "converters", {})
        if isinstance(pattern, RoutePattern) and any(type(c).__name__ == "IdConverter" for c in converters.values()):
            found.append(Route(route.replace("^", "").replace("$", ""), dict(converters)))
    return found


def bare_ints() -> list[str]:
    """Routes that still read a number with Django's own `<int:…>` (or a regex of digits)."""
    bare = []
    for route, pattern in routes():
        converters = getattr(pattern, "converters", {})
        if any(isinstance(c, IntConverter) for c in converters.values()):
            bare.append(route)
        if not isinstance(pattern, RoutePattern) and re.search(r"\\d|\[0-9\]", str(pattern)):
            bare.append(route)
    return bare
