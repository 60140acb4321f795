"""Signing in on the site itself, with a form: an app's authorize page
(docs/third-party-apps.md) and the moderators' admin. The web client signs in over the API.

Both pages are ways to guess passwords as `auth/token` is, so they count against the
same limits (api/sign_in_limits.py): per address (`auth`), per account name and
address, and per account name from addresses that never signed in to it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from rest_framework.exceptions import AuthenticationFailed

from accounts import selectors, usernames
from core import csp

from .auth import second_step
from .authorize import redirect_source
from .serializers_webauthn import PasskeyAssertionSerializer
from .sign_in_limits import SignInLimits
from .throttling import ScopedRateThrottle

# What ScopedRateThrottle reads from a view: the sign-in endpoints' scope.
_AUTH_SCOPE = SimpleNamespace(throttle_scope="auth")


def _limited(
    request: HttpRequest, sign_in: Callable[[], HttpResponse], refuse: Callable[[int], HttpResponse]
) -> HttpResponse:
    """Run a form's sign-in (`sign_in`) under the limits; `refuse(seconds)` answers an
    attempt a limit refuses. Only a POST with a username is an attempt."""
    if request.method != "POST":
        return sign_in()
    per_address = ScopedRateThrottle()
    if not per_address.allow_request(request, _AUTH_SCOPE):  # type: ignore[arg-type]
        return refuse(math.ceil(per_address.wait() or 1))
    username = request.POST.get("username")
    if not username:
        return sign_in()  # the form says what is missing
    limits = SignInLimits(request, username)
    wait = limits.refused()
    if wait is not None:
        return refuse(wait)
    response = sign_in()
    user = request.user
    if user.is_authenticated and usernames.canonical(user.get_username()) == usernames.canonical(username):
        limits.succeeded()
    return response


def _too_many(wait: int) -> str:
    return ngettext(
        "Too many sign-in attempts. Try again in %(wait)s second.",
        "Too many sign-in attempts. Try again in %(wait)s seconds.",
        wait,
    ) % {"wait": wait}


def _refused(response: HttpResponse, wait: int) -> HttpResponse:
    response.status_code = 429
    response["Retry-After"] = str(wait)
    return response


class SecondStepForm(AuthenticationForm):
    """A form sign-in with its second step: the code of the account's authenticator app
    (or a recovery code), or its passkey, when it has two-step sign-in, as `auth/token`
    asks it. With
    ADMIN_SECOND_FACTOR_REQUIRED, a staff account without two-step sign-in is refused
    here: a form's sign-in is a session the admin accepts."""

    code = forms.CharField(
        required=False,
        max_length=20,
        label="Code from your authenticator app",
        help_text="Only if your account signs in in two steps; a recovery code works too.",
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric"}),
    )

    # Filled by web/static/web/passkey_step.js: the passkey's answer, as JSON.
    passkey = forms.CharField(required=False, max_length=20000, widget=forms.HiddenInput)

    def confirm_login_allowed(self, user: Any) -> None:
        super().confirm_login_allowed(user)
        if settings.ADMIN_SECOND_FACTOR_REQUIRED and user.is_staff and not selectors.second_factor_on(user=user):
            raise ValidationError(
                _("Staff accounts sign in in two steps: turn on two-step sign-in in the site's Settings first.")
            )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        user = self.get_user()
        if user is not None:
            try:
                second_step(user, self.cleaned_data.get("code") or None, _passkey_answer(self.cleaned_data))
            except AuthenticationFailed as err:
                raise ValidationError(str(err.detail), code=str(err.get_codes())) from None
        return cleaned


def _passkey_answer(cleaned: dict[str, Any]) -> dict[str, Any] | None:
    """The passkey's answer the form carries, when it is one in WebAuthn's JSON."""
    try:
        answer = json.loads(cleaned.get("passkey") or "null")
    except ValueError:
        return None
    shape = PasskeyAssertionSerializer(data=answer)
    return dict(shape.validated_data) if answer is not None and shape.is_valid() else None


class AdminSignInForm(SecondStepForm, AdminAuthenticationForm):
    """The admin's sign-in (staff only, as Django's), with the second step."""


class SignInView(LoginView):
    template_name = "web/sign_in.html"
    authentication_form = SecondStepForm
    # Back to the page that asked (the authorize page); Django refuses other sites.
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        def refuse(wait: int) -> HttpResponse:
            form = self.get_form()
            form.add_error(None, _too_many(wait))
            return _refused(self.form_invalid(form), wait)

        return _limited(request, lambda: super(SignInView, self).post(request, *args, **kwargs), refuse)

    def render_to_response(self, context: dict[str, Any], **response_kwargs: Any) -> HttpResponse:
        # The form's POST may end at the app's redirect: its origin joins form-action.
        response = super().render_to_response(context, **response_kwargs)
        source = redirect_source(self.get_redirect_url())
        return csp.with_sources(response, form_action=[source]) if source else response


@never_cache
@csrf_protect
def admin_login(request: HttpRequest) -> HttpResponse:
    """The admin's own sign-in page (`admin.site.login`), under the same limits."""

    def refuse(wait: int) -> HttpResponse:
        return _refused(HttpResponse(_too_many(wait), content_type="text/plain; charset=utf-8"), wait)

    return _limited(request, lambda: admin.site.login(request), refuse)
