"""Turning service errors into DRF exceptions, so drf-standardized-errors renders them
in the one error shape of the API."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from rest_framework.exceptions import APIException, ErrorDetail, ValidationError

from games.errors import ServiceError


class GameError(APIException):
    def __init__(self, err: ServiceError) -> None:
        super().__init__(detail=ErrorDetail(err.detail, code=err.code), code=err.code)
        self.status_code = err.status


def service_errors(view: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a view method so a ServiceError becomes the matching HTTP error."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return view(*args, **kwargs)
        except ServiceError as err:
            if err.attr is not None and err.status == 400:
                # A bad field: a validation error that names it in `attr`.
                raise ValidationError({err.attr: [ErrorDetail(err.detail, code=err.code)]}) from None
            raise GameError(err) from None

    return wrapper
