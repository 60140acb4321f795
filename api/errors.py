"""The API's one exception handler: drf-standardized-errors renders every error in the
one error shape of the API, service errors included."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.utils.translation import gettext as _
from drf_standardized_errors.handler import ExceptionHandler
from rest_framework import exceptions
from rest_framework.exceptions import APIException, ErrorDetail, ValidationError
from rest_framework.response import Response

from accounts import banned_browser
from accounts.authentication import Banned
from core.errors import ServiceError
from grants.authentication import BearerAuthentication, InsufficientScope
from grants.scopes import required_scope

from .parsers import PayloadTooLarge

BEARER_CHALLENGE = 'Bearer realm="api"'


class GameError(APIException):
    def __init__(self, err: ServiceError) -> None:
        super().__init__(detail=ErrorDetail(err.detail, code=err.code), code=err.code)
        self.status_code = err.status
        # The handler writes Retry-After from `wait`, as for DRF's own throttles.
        self.wait = err.retry_after


class ApiExceptionHandler(ExceptionHandler):
    """drf-standardized-errors' handler, with the services' errors made into their HTTP
    errors, the exceptions it would answer badly made into their proper 4xx, and with
    details that never quote the request."""

    def run(self) -> Response | None:
        response = super().run()
        if response is not None and isinstance(self.exc, Banned):
            banned_browser.mark(response, self.exc.user_id)
        return response

    def get_headers(self, exc: APIException) -> dict[str, str]:
        """RFC 6750's challenges where apps' bearer tokens are read. A 401 answers the
        scheme the request used: a refused bearer token `Bearer realm="api",
        error="invalid_token"`, the account's `Token` scheme `Token`, no credentials both
        schemes. A 403 `insufficient_scope` names the scope the operation needs."""
        headers: dict[str, str] = super().get_headers(exc)
        view = self.context.get("view")
        request = self.context.get("request")
        if view is None or request is None:
            return headers
        if not any(isinstance(a, BearerAuthentication) for a in view.get_authenticators()):
            return headers
        if isinstance(exc, InsufficientScope):
            scope = required_scope(view, request.method or "GET")
            wanted = "" if scope is None else f', scope="{scope}"'
            headers["WWW-Authenticate"] = f'{BEARER_CHALLENGE}, error="insufficient_scope"{wanted}'
        elif "WWW-Authenticate" in headers:
            sent = request.META.get("HTTP_AUTHORIZATION", "").split(" ", 1)[0].lower()
            if sent == "bearer":
                headers["WWW-Authenticate"] = f'{BEARER_CHALLENGE}, error="invalid_token"'
            elif not sent:
                headers["WWW-Authenticate"] = f"{headers['WWW-Authenticate']}, {BEARER_CHALLENGE}"
        return headers

    def convert_known_exceptions(self, exc: Exception) -> Exception:
        if isinstance(exc, ServiceError):
            if exc.attr is not None and exc.status == 400:
                # A bad field: a validation error that names it in `attr`.
                return ValidationError({exc.attr: [ErrorDetail(detail, code=exc.code) for detail in exc.details]})
            return GameError(exc)
        if isinstance(exc, RequestDataTooBig):
            # Something read the whole body past Django's own cap: still the client's error.
            return PayloadTooLarge(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        # DRF's own details quote the Content-Type header and the method as sent.
        if isinstance(exc, exceptions.UnsupportedMediaType):
            return exceptions.UnsupportedMediaType("", _("Send the body as JSON, with Content-Type: application/json."))
        if isinstance(exc, exceptions.MethodNotAllowed):
            return exceptions.MethodNotAllowed(
                "", _("This method is not allowed here; the Allow header lists those that are.")
            )
        return super().convert_known_exceptions(exc)
