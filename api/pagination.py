"""Page numbers as the schema states them: whole numbers from 1."""

from __future__ import annotations

import re
from typing import Any

from rest_framework import pagination
from rest_framework.exceptions import NotFound
from rest_framework.request import Request

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
