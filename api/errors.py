"""Turning service errors into DRF exceptions, so drf-standardized-errors renders them
in the one error shape of the API."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from drf_standardized_errors.handler import ExceptionHandler
from rest_framework import exceptions
from rest_framework.exceptions import APIException, ErrorDetail, ValidationError

from games.errors import ServiceError

from .parsers import PayloadTooLarge


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


class ApiExceptionHandler(ExceptionHandler):
    """drf-standardized-errors' handler, with the exceptions it would answer badly made
    into their proper 4xx, and with details that never quote the request."""

    def convert_known_exceptions(self, exc: Exception) -> Exception:
        if isinstance(exc, RequestDataTooBig):
            # Something read the whole body past Django's own cap: still the client's error.
            return PayloadTooLarge(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        # DRF's own details quote the Content-Type header and the method as sent.
        if isinstance(exc, exceptions.UnsupportedMediaType):
            return exceptions.UnsupportedMediaType("", "Send the body as JSON, with Content-Type: application/json.")
        if isinstance(exc, exceptions.MethodNotAllowed):
            return exceptions.MethodNotAllowed(
                "", "This method is not allowed here; the Allow header lists those that are."
            )
        return super().convert_known_exceptions(exc)
