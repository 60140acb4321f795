"""The codes the API itself answers: reading the request (its size, its bytes, its
JSON), authentication, permissions, throttles, and the server's own failure."""

from __future__ import annotations

from core.errors import Catalogue

CODES = Catalogue(
    "api",
    {
        "parse_error": (400, "The body is not valid JSON in UTF-8."),
        "invalid_character": (
            400,
            "A string of the body (attr names where), a query parameter or a header (attr names it) "
            "holds a control character or invalid Unicode such as a lone surrogate.",
        ),
        "duplicate_key": (400, "An object of the body names the same key twice (JSON leaves which one counts open)."),
        "too_deep": (400, "The body's objects and arrays nest deeper than the API allows (see Limits)."),
        "bad_request": (400, "The request is malformed in a way no endpoint could read."),
        "not_authenticated": (401, "Credentials were not sent."),
        "authentication_failed": (401, "The credentials are wrong or the token no longer works."),
        "permission_denied": (403, "The request is refused (a session without its CSRF token, for one)."),
        "method_not_allowed": (405, "The method is not allowed on this path; the Allow header lists those that are."),
        "body_too_large": (413, "The body is longer than the endpoint takes (see Limits)."),
        "uri_too_long": (414, "The path and query are longer than the API reads (see Limits)."),
        "unsupported_media_type": (415, "The body is not sent as JSON (Content-Type: application/json)."),
        "throttled": (429, "Too many requests; retry after the Retry-After header's seconds."),
        "server_error": (500, "Something failed on the server."),
    },
)
