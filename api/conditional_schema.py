"""How the conditional reads and the pages of lists are described in the OpenAPI
document (api/conditional.py, api/pagination.py): the same headers on every such call."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

from . import conditional, pagination

IF_NONE_MATCH = OpenApiParameter(
    conditional.IF_NONE_MATCH_HEADER,
    str,
    OpenApiParameter.HEADER,
    required=False,
    description=(
        "The `ETag` of the answer the client holds (or a comma-separated list of them, or `*`): when it is "
        "still the answer, the server says so with 304 and no body."
    ),
)
ETAG = OpenApiParameter(
    conditional.ETAG_HEADER,
    {"type": "string", "pattern": r'^W/"[A-Za-z0-9_-]+"$'},
    OpenApiParameter.HEADER,
    response=[200, 304],
    required=True,
    description=(
        "This answer's tag, for `If-None-Match`: one caller's, weak (answers with one tag mean the same). "
        "With `Cache-Control: private, no-cache`: no shared cache keeps it."
    ),
)
NOT_MODIFIED = OpenApiResponse(description="Not modified: the answer is still the one the `If-None-Match` tag names.")

NEXT_LINK = OpenApiParameter(
    "Link", str, OpenApiParameter.HEADER, response=[200], description=pagination.NEXT_LINK_DESCRIPTION
)
