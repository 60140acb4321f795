"""Each request's language (accounts/languages.py): Django's LocaleMiddleware, choosing
as the product does. It answers with `Content-Language` and `Vary: Accept-Language`
(and `Cookie` where the cookie counts), so that no cache serves one person another's."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation.trans_real import parse_accept_lang_header

from .languages import supported


def _asked(request: HttpRequest) -> str | None:
    """The first of the server's languages that `Accept-Language` names, by its weights."""
    header = request.headers.get("Accept-Language", "")
    for code, _ in parse_accept_lang_header(header):
        if code != "*" and (found := supported(code)) is not None:
            return found
    return None


def language_of(request: HttpRequest) -> str:
    """The language a request is answered in."""
    if request.path.startswith(settings.API_PATH_PREFIX):
        # An app chooses for itself, request by request; the web client asks in its
        # person's language.
        return _asked(request) or settings.LANGUAGE_CODE
    user: Any = getattr(request, "user", None)
    if user is not None and user.is_authenticated and (chosen := supported(user.language)) is not None:
        return chosen
    cookie = supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
    return cookie or _asked(request) or settings.LANGUAGE_CODE


class PersonLanguageMiddleware(LocaleMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        language = language_of(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language

    def process_response(self, request: HttpRequest, response: Any) -> Any:
        response = super().process_response(request, response)
        if not request.path.startswith(settings.API_PATH_PREFIX):
            patch_vary_headers(response, ("Cookie",))
        return response
