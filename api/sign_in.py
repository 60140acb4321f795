"""Signing in on the site itself, for the one page that needs a session: an app's
authorize page (README "Third-party apps"). The web client signs in over the API.

The page is a way to guess passwords as `auth/token` is, so it counts against the same
limits: per address (`auth`) and per account name (`auth_account`)."""

from __future__ import annotations

import math
from typing import Any

from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request

from .throttling import LoginAccountThrottle, ScopedRateThrottle


class SignInView(LoginView):
    template_name = "web/sign_in.html"
    # Back to the page that asked (the authorize page); Django refuses other sites.
    redirect_authenticated_user = True
    # What ScopedRateThrottle reads from the view: the sign-in endpoints' scope.
    throttle_scope = "auth"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        attempt = Request(request, parsers=[FormParser(), MultiPartParser()])
        for throttle in (ScopedRateThrottle(), LoginAccountThrottle()):
            if not throttle.allow_request(attempt, self):  # type: ignore[arg-type]
                form = self.get_form()
                wait = math.ceil(throttle.wait() or 1)
                form.add_error(None, f"Too many sign-in attempts. Try again in {wait} seconds.")
                response = self.form_invalid(form)
                response.status_code = 429
                response["Retry-After"] = str(wait)
                return response
        return super().post(request, *args, **kwargs)
