"""Pages of the API's lists: by page number (the lobby's listings), or after a position
(the event log and the hand summaries, which only ever grow at their end)."""

from __future__ import annotations

import re
from typing import Any

from rest_framework import pagination
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

_PAGE = re.compile("[1-9][0-9]{0,9}")


class PageNumberPagination(pagination.PageNumberPagination):
    # DRF also reads `?page=last`, which no integer parameter can describe.
    last_page_strings = ()

    def get_page_number(self, request: Request, paginator: Any) -> str | int:
        # DRF reads an empty `?page=` as the first page and Django's paginator takes
        # " 1" and "01": only what the schema's integer allows names a page.
        number = request.query_params.get(self.page_query_param)
        if number is None:
            return 1
        if not _PAGE.fullmatch(number):
            raise NotFound(self.invalid_page_message)
        return number

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_query_param:
                parameter["schema"]["minimum"] = 1
        return parameters

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        # DRF writes the links as OpenAPI 3.0's `nullable`; the document is 3.1, where
        # null is one of the types.
        out = super().get_paginated_response_schema(schema)
        for link in ("next", "previous"):
            field = out["properties"][link]
            field.pop("nullable", None)
            field["type"] = [field["type"], "null"]
            field["examples"] = [field.pop("example")]
        out["properties"]["count"]["examples"] = [out["properties"]["count"].pop("example")]
        return out


NEXT_LINK_DESCRIPTION = (
    'Where the list goes on: `<URL>; rel="next"` (RFC 8288), the same query with `after` set to the '
    "last item of this page. Absent when this page reaches the end of the list as it stands."
)


def page_after(request: Request, rows: list[dict[str, Any]], *, limit: int, key: str) -> Response:
    """Answer the first `limit` of `rows` (read with one more, to tell whether the list
    goes on) and, when it does, a `Link` to the next page: the same query after the
    last row's `key`.

    The position is a number that only grows (an event's `seq`, a hand's number) and
    rows are read in its order, so a page never changes under a reader: what is
    appended meanwhile comes after the cursor, on a later page, once."""
    page = rows[:limit]
    response = Response(page)
    if len(rows) > limit:
        query = request.query_params.copy()
        query["after"] = str(page[-1][key])
        query["limit"] = str(limit)
        response["Link"] = f'<{request.build_absolute_uri(request.path)}?{query.urlencode()}>; rel="next"'
    return response
